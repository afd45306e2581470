/**
 * Who may wake the agent on a command route, for a Bitbucket comment: the commenter's effective
 * permission on the repository, asked in the worker before the agent runs and cached for a few
 * minutes (`tapCommandPermission`): Cloud's here (`account-calls.ts`), Data Center's in
 * `data-center-command-permission.ts`.
 */
import {
  commentAuthor,
  lookupPath,
  type AdmitRefusal,
  type AdmitRequest,
} from '@webhook-gateway/core';
import {
  cannotAsk,
  commandUnnamed,
  permissionUntold,
  rankVerdict,
  type PermissionCache,
} from '@webhook-gateway/deliver-forge-comment/comments';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { AccountCallError, cloudRepositoryPermission } from './account-calls.js';
import { checkDataCenterCommandPermission } from './data-center-command-permission.js';
import { BITBUCKET_RANK, RANKS } from './permission-ranks.js';
import { isCloudPayload } from './sender.js';
import { bitbucketConnection, type BitbucketSettings } from './settings.js';

const WHO = 'command permission';

/** `workspace/repo_slug`, each part a plain name. */
function workspaceAndSlug(value: unknown): { workspace: string; slug: string } | undefined {
  if (typeof value !== 'string') return undefined;
  const [workspace, slug, ...rest] = value.split('/');
  const plain = (part: string | undefined): part is string =>
    part !== undefined && /^[^\s/]+$/.test(part) && part !== '.' && part !== '..';
  return rest.length === 0 && plain(workspace) && plain(slug) ? { workspace, slug } : undefined;
}

/**
 * The `admit` verdict of a Bitbucket command comment: `denied` when the commenter's permission
 * is short of the route's `command_permission`, or when Bitbucket will not tell it (on Cloud, the
 * token is no repository administrator); `undefined` to run it. Throws when Bitbucket cannot be
 * asked (retried), or without the token (`platforms.bitbucket.token`, or `data_center`'s: not
 * retried).
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
  if (!isCloudPayload(payload)) {
    return checkDataCenterCommandPermission(request, settings, options, cache);
  }
  const login = commentAuthor(event, payload) ?? '(unknown)';
  const uuid = lookupPath(payload, 'comment.user.uuid') ?? lookupPath(payload, 'actor.uuid');
  const repo = workspaceAndSlug(lookupPath(payload, 'repository.full_name'));
  if (typeof uuid !== 'string' || repo === undefined) {
    return commandUnnamed('repository.full_name', 'actor.uuid');
  }
  const found = bitbucketConnection(settings);
  if (!found.ok) throw cannotAsk('Bitbucket', `platforms.bitbucket.${found.missing}`);
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
      return permissionUntold(
        'Bitbucket',
        login,
        `${repo.workspace}/${repo.slug}`,
        403,
        'only a repository administrator may read it; give platforms.bitbucket.token admin on the repository (an access token with the Admin repository permission)',
      );
    }
    // 401, 404: no retry makes the token see the repository.
    throw Object.assign(error, { retryable: false });
  }
  return rankVerdict(login, needed, rank, RANKS);
}
