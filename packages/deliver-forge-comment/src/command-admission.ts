/**
 * The forge-neutral parts of a command route's permission check, shared by every plugin that asks
 * its forge for a commenter's role (the forge and altforge here, Gitea, Bitbucket): the answers'
 * cache and the refusal a delivery ends with.
 */
import type { AdmitRefusal } from '@webhook-gateway/core';

/** How long an answer is trusted. */
const PERMISSION_CACHE_MS = 5 * 60_000;

/** Answers per (platform, repository, user), kept five minutes. */
export class PermissionCache {
  private readonly entries = new Map<string, { value: number; expiresAt: number }>();
  constructor(private readonly now: () => number = Date.now) {}

  async get(key: string, ask: () => Promise<number>): Promise<number> {
    const hit = this.entries.get(key);
    if (hit && hit.expiresAt > this.now()) return hit.value;
    const value = await ask();
    this.entries.set(key, { value, expiresAt: this.now() + PERMISSION_CACHE_MS });
    return value;
  }
}

/**
 * The refusal of a commenter whose role is short of the route's `command_permission`: the
 * delivery ends `denied`, without a run.
 *
 * @example commandDenied('bob', 'write', 'read')
 */
export function commandDenied(login: string, needed: string, had: string): AdmitRefusal {
  return {
    status: 'denied',
    reason: `permission: ${login} has ${had} on the repository; the route's commands need ${needed}`,
  };
}
