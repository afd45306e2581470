/**
 * Who may wake the agent on a command route, for a Bitbucket Cloud comment: the commenter's
 * effective permission on the repository, asked in the worker before the agent runs
 * (`account-calls.ts`) and cached for a few minutes. Data Center's comments are refused: their
 * permission is not asked yet.
 */
import {
  commentAuthor,
  isCommandEvent,
  lookupPath,
  type AdmitRefusal,
  type AdmitRequest,
} from '@webhook-gateway/core';
import {
  commandDenied,
  type PermissionCache,
} from '@webhook-gateway/deliver-forge-comment/comments';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { AccountCallError, cloudRepositoryPermission } from './account-calls.js';
import { isCloudPayload } from './sender.js';
import { bitbucketConnection, type BitbucketSettings } from './settings.js';

const WHO = 'command permission';

/** Bitbucket's repository permissions, by rank. */
const BITBUCKET_RANK: Readonly<Record<string, number>> = { none: 0, read: 1, write: 2, admin: 3 };
const RANK_NAME = Object.fromEntries(
  Object.entries(BITBUCKET_RANK).map(([name, rank]) => [rank, name]),
) as Record<number, string>;

/** The rank each `command_permission` needs: Bitbucket has no `maintain`, so admin is the next up. */
const NEEDED_RANK = { write: 2, maintain: 3, admin: 3 } as const;

/** `workspace/repo_slug`, each part a plain name. */
function workspaceAndSlug(value: unknown): { workspace: string; slug: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const [workspace, slug, ...rest] = value.split('/');
  const plain = (part: string | undefined): part is string =>
    part !== undefined && /^[^\s/]+$/.test(part) && part !== '.' && part !== '..';
  return rest.length === 0 && plain(workspace) && plain(slug) ? { workspace, slug } : undefined;
}

/**
 * The `admit` verdict of a Bitbucket command delivery: `denied` when the commenter's permission
 * is short of the route's `command_permission`, when Bitbucket will not tell it (the token is no
 * repository administrator), or for a Data Center comment; `undefined` to run it. Throws when
 * Bitbucket cannot be asked (retried), or without `platforms.bitbucket.token` (not retried).
 *
 * @example await checkBitbucketCommandPermission(request, settings.bitbucket, options, cache)
 */
export async function checkBitbucketCommandPermission(
  request: AdmitRequest,
  settings: BitbucketSettings,
  options: HttpTargetOptions,
  cache: PermissionCache,
): Promise<AdmitRefusal | undefined> {
  const { delivery, routeConfig } = request;
  const { event, payload } = delivery;
  if (!isCommandEvent(event, payload)) return undefined;
  if (!isCloudPayload(payload)) {
    return {
      status: 'denied',
      reason:
        "permission: a Bitbucket Data Center commenter's permission is not asked yet, so its commands do not run",
    };
  }
  const login = commentAuthor(event, payload) ?? '(unknown)';
  const uuid = lookupPath(payload, 'comment.user.uuid') ?? lookupPath(payload, 'actor.uuid');
  const repo = workspaceAndSlug(lookupPath(payload, 'repository.full_name'));
  if (typeof uuid !== 'string' || repo === undefined) {
    return {
      status: 'denied',
      reason:
        'permission: the payload does not name the repository (repository.full_name) and commenter (actor.uuid)',
    };
  }
  const found = bitbucketConnection(settings);
  if (!found.ok) {
    throw Object.assign(
      new Error(`${WHO}: cannot ask Bitbucket: platforms.bitbucket.${found.missing} is not set`),
      { retryable: false },
    );
  }
  const context = {
    connection: found.connection,
    options,
    signal: request.signal,
    log: request.log,
    target: WHO,
  };
  const needed = routeConfig.command_permission ?? 'write';
  const key = `bitbucket|${found.connection.apiBase}|${repo.workspace}/${repo.slug}|${uuid}`;
  let rank: number;
  try {
    rank = await cache.get(
      key,
      async () => BITBUCKET_RANK[await cloudRepositoryPermission(context, repo, uuid)] ?? 0,
    );
  } catch (error) {
    if (!(error instanceof AccountCallError) || error.status >= 500) throw error;
    if (error.status === 403) {
      return {
        status: 'denied',
        reason: `permission: Bitbucket will not tell ${login}'s permission on ${repo.workspace}/${repo.slug} (HTTP 403): only a repository administrator may read it; give platforms.bitbucket.token admin on the repository (an access token with the Admin repository permission)`,
      };
    }
    // 401, 404: no retry makes the token see the repository.
    throw Object.assign(error, { retryable: false });
  }
  return rank >= NEEDED_RANK[needed]
    ? undefined
    : commandDenied(login, needed, RANK_NAME[rank] ?? 'none');
}
