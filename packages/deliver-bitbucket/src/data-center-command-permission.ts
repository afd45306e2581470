/**
 * Who may wake the agent on a command route, for a Bitbucket Data Center comment: whether the
 * commenter holds the repository permission the route's `command_permission` needs, asked in the
 * worker before the agent runs (`data-center-account-calls.ts`) and cached for a few minutes.
 */
import {
  commentAuthor,
  lookupPath,
  pullRequestOf,
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
import { AccountCallError } from './account-calls.js';
import {
  dataCenterHasRepositoryPermission,
  type DataCenterRepositoryPermission,
} from './data-center-account-calls.js';
import { NEEDED_RANK, RANKS } from './permission-ranks.js';
import { dataCenterConnection, type BitbucketSettings } from './settings.js';

const WHO = 'command permission';

/**
 * The permissions asked, from the one the route needs down: one call for a commenter who holds
 * it, the rest only to say what a refused one has. `REPO_ADMIN` ranks as Cloud's `admin`.
 */
const ASKED: Record<2 | 3, readonly [DataCenterRepositoryPermission, number][]> = {
  2: [
    ['REPO_WRITE', 2],
    ['REPO_READ', 1],
  ],
  3: [
    ['REPO_ADMIN', 3],
    ['REPO_WRITE', 2],
    ['REPO_READ', 1],
  ],
};

/** The commenter's `name` and `slug`: the comment's `author`, else the event's `actor`. */
function commenterOf(payload: AdmitRequest['delivery']['payload']) {
  for (const path of ['comment.author', 'actor']) {
    const name = lookupPath(payload, `${path}.name`);
    const slug = lookupPath(payload, `${path}.slug`);
    if (typeof name === 'string' && name !== '') {
      return { name, ...(typeof slug === 'string' && slug !== '' ? { slug } : {}) };
    }
  }
  return undefined;
}

/**
 * The `admit` verdict of a Data Center command delivery, as Cloud's: `denied` when the commenter
 * is short of the route's `command_permission` or Data Center will not tell (`401`/`403`);
 * `undefined` to run it. Throws when Data Center cannot be asked (retried), or without
 * `platforms.bitbucket.data_center`'s address and token (not retried).
 *
 * @example await checkDataCenterCommandPermission(request, settings.bitbucket, options, cache)
 */
export async function checkDataCenterCommandPermission(
  request: AdmitRequest,
  settings: BitbucketSettings,
  options: HttpTargetOptions,
  cache: PermissionCache,
): Promise<AdmitRefusal | undefined> {
  const { delivery, routeConfig } = request;
  const { event, payload } = delivery;
  const commenter = commenterOf(payload);
  const [project, slug, ...rest] = pullRequestOf(payload, 'bitbucket')?.repo.split('/') ?? [];
  if (commenter === undefined || !project || !slug || rest.length > 0) {
    return commandUnnamed(
      "pullRequest.toRef.repository's project key and slug",
      'comment.author.name',
    );
  }
  const login = commentAuthor(event, payload) ?? commenter.name;
  const found = dataCenterConnection(settings);
  if (!found.ok) {
    throw cannotAsk('Bitbucket Data Center', `platforms.bitbucket.${found.missing}`);
  }
  const context = {
    connection: found.connection,
    options,
    signal: request.signal,
    log: request.log,
    target: WHO,
  };
  const needed = routeConfig.command_permission ?? 'write';
  const repo = { project, slug };
  let rank = 0;
  try {
    for (const [permission, itsRank] of ASKED[NEEDED_RANK[needed]]) {
      const key = `bitbucket-dc|${found.connection.apiBase}|${project}/${slug}|${commenter.name}|${permission}`;
      const held = await cache.get(key, async () =>
        (await dataCenterHasRepositoryPermission(context, repo, commenter, permission)) ? 1 : 0,
      );
      if (held === 1) {
        rank = itsRank;
        break;
      }
    }
  } catch (error) {
    if (!(error instanceof AccountCallError) || error.status >= 500) throw error;
    if (error.status === 401 || error.status === 403) {
      return permissionUntold(
        'Bitbucket Data Center',
        login,
        `${project}/${slug}`,
        error.status,
        'it lists users by permission (GET /rest/api/1.0/users) only to a valid token whose user may sign in; check platforms.bitbucket.data_center.token (a personal access token of a licensed user, or a project or repository token)',
      );
    }
    // 400 (no such repository for the filter), 404: no retry makes the token see it.
    throw Object.assign(error, { retryable: false });
  }
  return rankVerdict(login, needed, rank, RANKS);
}
