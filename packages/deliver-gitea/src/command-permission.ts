/**
 * Who may wake the agent on a command route, for a Gitea or Forgejo comment: the commenter's
 * permission on the repository (`GET /repos/{owner}/{repo}/collaborators/{login}/permission`),
 * asked in the worker before the agent runs (`tapCommandPermission`) and cached for a few minutes.
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
import { giteaApi, GiteaApiError } from './gitea-api.js';
import { isGiteaRepoName } from './pull-request.js';
import { giteaConnection, type GiteaSettings } from './settings.js';

const WHO = 'command permission';

/** Gitea's access modes, by rank. */
const GITEA_RANK: Readonly<Record<string, number>> = {
  none: 0,
  read: 1,
  write: 2,
  admin: 3,
  owner: 4,
};
/** Gitea's ranks by name, for a refusal, and the rank each `command_permission` needs. */
const RANKS = {
  names: Object.fromEntries(
    Object.entries(GITEA_RANK).map(([name, rank]) => [rank, name]),
  ) as Record<number, string>,
  /** The rank each `command_permission` needs: Gitea has no `maintain`, so admin is the next up. */
  needed: { write: 2, maintain: 3, admin: 3 },
};

/**
 * The `admit` verdict of a Gitea command comment: a refusal (`denied`) when the commenter's
 * permission is short of the route's `command_permission`, or when Gitea will not tell it (the
 * token's account is not an administrator of the repository); `undefined` to run it. Throws when
 * Gitea cannot be asked (retried), or without `platforms.gitea`'s address or token (not retried).
 *
 * @example await checkGiteaCommandPermission(request, settings.gitea, options, cache)
 */
export async function checkGiteaCommandPermission(
  request: AdmitRequest,
  settings: GiteaSettings,
  options: HttpTargetOptions,
  cache: PermissionCache,
): Promise<AdmitRefusal | undefined> {
  const { delivery, routeConfig } = request;
  const login = commentAuthor(delivery.event, delivery.payload);
  const repo = lookupPath(delivery.payload, 'repository.full_name');
  if (login === undefined || typeof repo !== 'string' || !isGiteaRepoName(repo)) {
    return commandUnnamed('repository.full_name', 'sender.login');
  }
  const found = giteaConnection(settings);
  if (!found.ok) throw cannotAsk('Gitea', `platforms.gitea.${found.missing}`);
  const api = giteaApi({
    connection: found.connection,
    options,
    signal: request.signal,
    log: request.log,
    target: WHO,
  });
  const needed = routeConfig.command_permission ?? 'write';
  let rank: number;
  try {
    rank = await cache.get(`gitea|${found.connection.apiBase}|${repo}|${login}`, async () => {
      try {
        return GITEA_RANK[await api.collaboratorPermission(repo, login)] ?? 0;
      } catch (error) {
        // 404: a user the instance does not know has no permission at all.
        if (error instanceof GiteaApiError && error.status === 404) return 0;
        throw error;
      }
    });
  } catch (error) {
    if (!(error instanceof GiteaApiError) || error.status !== 403) throw error;
    return permissionUntold(
      'Gitea',
      login,
      repo,
      403,
      'only an administrator of the repository or of the instance may read it; make the account of platforms.gitea.token an administrator of the repository',
    );
  }
  return rankVerdict(login, needed, rank, RANKS);
}
