/**
 * Who may wake the agent on a command route: the commenter's role on the repository, asked in
 * the worker (`gh api repos/{o}/{r}/collaborators/{login}/permission`,
 * `glab api projects/:id/members/all/:user_id`) and cached for a few minutes.
 */
import {
  commentAuthor,
  isCommandEvent,
  lookupPath,
  type AdmitRefusal,
  type AdmitRequest,
  type JsonObject,
} from '@webhook-gateway/core';
import { z } from 'zod';
import { commandDenied as denied, type PermissionCache } from './command-admission.js';
import { askForgeApi, ForgeApiError, type ApiClient } from './forge-api.js';

/** The role a command route asks for (`command_permission`), weakest first. */
type CommandPermission = 'write' | 'maintain' | 'admin';

/** The forge's roles, by rank (`role_name`; older servers give only `permission`). */
const FORGE_ROLE_RANK: Readonly<Record<string, number>> = {
  none: 0,
  read: 1,
  triage: 2,
  write: 3,
  maintain: 4,
  admin: 5,
};

/** The altforge's access levels a role needs: Developer 30, Maintainer 40, Owner 50. */
const ALTFORGE_LEVEL: Readonly<Record<CommandPermission, number>> = {
  write: 30,
  maintain: 40,
  admin: 50,
};

const forgePermission = z.object({
  permission: z.string(),
  role_name: z.string().optional(),
});
const altforgeMember = z.object({ access_level: z.number() });

/** The forge's answer for `login` on `repo`, as a rank of `FORGE_ROLE_RANK`. */
async function forgeRank(client: ApiClient, repo: string, login: string, signal: AbortSignal) {
  try {
    const answer = await askForgeApi(
      client,
      `repos/${repo}/collaborators/${encodeURIComponent(login)}/permission`,
      forgePermission,
      signal,
    );
    return FORGE_ROLE_RANK[answer.role_name ?? answer.permission] ?? 0;
  } catch (error) {
    // 404: not a user the repository knows; anything else (unreachable) fails the attempt.
    if (error instanceof ForgeApiError && error.notFound) return 0;
    throw error;
  }
}

async function altforgeLevel(
  client: ApiClient,
  project: number,
  userId: number,
  signal: AbortSignal,
) {
  try {
    const answer = await askForgeApi(
      client,
      `projects/${project}/members/all/${userId}`,
      altforgeMember,
      signal,
    );
    return answer.access_level;
  } catch (error) {
    if (error instanceof ForgeApiError && error.notFound) return 0;
    throw error;
  }
}

/** The senders whose comments their own plugins ask about (`deliver-gitea`, `deliver-bitbucket`). */
const OTHER_FORGES = new Set(['gitea', 'bitbucket']);

/**
 * False for a comment another forge's plugin asks about: verified by Gitea's or Bitbucket's
 * scheme, or on an open route Gitea's (`is_pull`) or Bitbucket's (`pullrequest:`, `pr:` events).
 * Every other delivery this plugin judges, and refuses when it cannot tell who commented where.
 */
function isForgeOrAltforgeComment(event: string, payload: JsonObject, sender?: string): boolean {
  if (sender !== undefined) return !OTHER_FORGES.has(sender);
  if (event === 'issue_comment' && typeof payload.is_pull === 'boolean') return false;
  return !event.startsWith('pullrequest:') && !event.startsWith('pr:');
}

const RANK_NAME = Object.fromEntries(
  Object.entries(FORGE_ROLE_RANK).map(([name, rank]) => [rank, name]),
) as Record<number, string>;

/**
 * The `admit` verdict of a command delivery: a refusal when the commenter lacks the route's role,
 * `undefined` to run it (and for every delivery that is not a command). Throws when the forge
 * cannot be asked, so the attempt is retried.
 */
export async function checkCommandPermission(
  request: AdmitRequest,
  /** Made only for the platform asked (the forge's needs the delivery's App token, if any). */
  clients: { forge: () => ApiClient; altforge: () => ApiClient },
  cache: PermissionCache,
): Promise<AdmitRefusal | undefined> {
  const { delivery, routeConfig } = request;
  if ((routeConfig.commands ?? []).length === 0) return undefined;
  if (!isForgeOrAltforgeComment(delivery.event, delivery.payload, delivery.authScheme)) {
    return undefined;
  }
  if (!isCommandEvent(delivery.event, delivery.payload)) return undefined;
  const needed: CommandPermission = routeConfig.command_permission ?? 'write';
  const login = commentAuthor(delivery.event, delivery.payload) ?? '(unknown)';
  const repo = lookupPath(delivery.payload, 'repository.full_name');
  if (delivery.event === 'issue_comment' && typeof repo === 'string') {
    const forge = clients.forge();
    const key = `forge|${forge.env.GH_HOST ?? ''}|${repo}|${login}`;
    const rank = await cache.get(key, () => forgeRank(forge, repo, login, request.signal));
    return rank >= (FORGE_ROLE_RANK[needed] ?? 0)
      ? undefined
      : denied(login, needed, RANK_NAME[rank] ?? 'none');
  }
  const project =
    lookupPath(delivery.payload, 'project.id') ?? lookupPath(delivery.payload, 'project_id');
  const userId = lookupPath(delivery.payload, 'user.id');
  if (typeof project === 'number' && typeof userId === 'number') {
    const altforge = clients.altforge();
    const key = `altforge|${altforge.env.GITLAB_HOST ?? ''}|${project}|${userId}`;
    const level = await cache.get(key, () =>
      altforgeLevel(altforge, project, userId, request.signal),
    );
    return level >= ALTFORGE_LEVEL[needed]
      ? undefined
      : denied(login, needed, `access level ${level}`);
  }
  // A command event without the fields to ask about: nobody can vouch for it.
  return {
    status: 'denied',
    reason: 'permission: the payload does not name the repository and commenter',
  };
}
