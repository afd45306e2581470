/**
 * The forge-neutral parts of a command route's permission check, shared by every plugin that asks
 * its forge for a commenter's role (the forge and altforge here, Gitea, Bitbucket): the answers'
 * cache, and the refusals and errors a delivery ends with, worded alike for every forge.
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

/** The role a command route asks for (`command_permission`). */
type CommandPermission = 'write' | 'maintain' | 'admin';

/**
 * The verdict on a commenter of `rank` on a route needing `needed`: undefined to run, else the
 * refusal naming the permission they have (`ranks.names`, by rank).
 *
 * @example rankVerdict('bob', 'write', 1, { needed: NEEDED_RANK, names: RANK_NAME })
 */
export function rankVerdict(
  login: string,
  needed: CommandPermission,
  rank: number,
  ranks: {
    needed: Readonly<Record<CommandPermission, number>>;
    names: Readonly<Record<number, string>>;
  },
): AdmitRefusal | undefined {
  return rank >= ranks.needed[needed]
    ? undefined
    : commandDenied(login, needed, ranks.names[rank] ?? 'none');
}

/**
 * The refusal of a command whose payload names no repository or commenter (`repository` and
 * `commenter` say where each was looked for): nobody can vouch for it.
 */
export function commandUnnamed(repository: string, commenter: string): AdmitRefusal {
  return {
    status: 'denied',
    reason: `permission: the payload does not name the repository (${repository}) and commenter (${commenter})`,
  };
}

/** The refusal when `service` answers `status` rather than `login`'s permission; `fix` says how. */
export function permissionUntold(
  service: string,
  login: string,
  repo: string,
  status: number,
  fix: string,
): AdmitRefusal {
  return {
    status: 'denied',
    reason: `permission: ${service} will not tell ${login}'s permission on ${repo} (HTTP ${status}): ${fix}`,
  };
}

/** The error (not retried) when `service` cannot be asked: its setting `key` is not set. */
export function cannotAsk(service: string, key: string): Error {
  return Object.assign(new Error(`command permission: cannot ask ${service}: ${key} is not set`), {
    retryable: false,
  });
}
