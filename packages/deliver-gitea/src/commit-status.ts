/**
 * `deliver_extra.check: true` on Gitea: a commit status (`POST /repos/{owner}/{repo}/statuses/{sha}`)
 * on the pull request's head commit, context `webhook-gateway/<route>`. When to set which state
 * is shared with the other REST forges (`deliver-forge-comment/comments`): `pending` as an attempt
 * starts and the delivery's end from the plugin's hooks (`setGiteaCheck`), `success` from the
 * target once the answer is posted (`withCommitStatus`).
 */
import {
  errorMessage,
  type DeliverRequest,
  type JsonObject,
  type Logger,
} from '@webhook-gateway/core';
import {
  statusContext,
  withCheckStatus,
  type CheckState,
} from '@webhook-gateway/deliver-forge-comment/comments';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { giteaApi, type GiteaApi } from './gitea-api.js';
import { resolveGiteaPullRequest, type GiteaPullRequest } from './pull-request.js';
import { giteaConnection, type GiteaSettings } from './settings.js';

/** Runs `post`; with `check: true`, then sets the head commit's status. */
export function withCommitStatus(
  request: DeliverRequest,
  api: GiteaApi,
  pullRequest: GiteaPullRequest,
  target: string,
  post: () => Promise<void>,
): Promise<void> {
  const { repo, headSha } = pullRequest;
  const setStatus =
    headSha === undefined
      ? undefined
      : (state: CheckState, description: string) =>
          api.postStatus(repo, headSha, {
            state,
            context: statusContext(request.delivery.route),
            description,
          });
  return withCheckStatus(request, target, setStatus, post);
}

/** A delivery whose status is set outside its target (as it starts, as it ends). */
export interface CheckSubject {
  settings: GiteaSettings;
  options: HttpTargetOptions;
  target: string;
  route: string;
  /** The route's `deliver_extra`, rendered. */
  extra: Record<string, unknown>;
  payload: JsonObject;
  log: Logger;
  signal: AbortSignal;
}

/** Sets the head commit's status; never throws (a status is never worth a failed attempt). */
export async function setGiteaCheck(
  subject: CheckSubject,
  state: CheckState,
  description: string,
): Promise<void> {
  const { target, log } = subject;
  try {
    const found = giteaConnection(subject.settings);
    if (!found.ok) return;
    const { repo, headSha } = resolveGiteaPullRequest(target, subject.extra, subject.payload);
    if (headSha === undefined) return;
    const api = giteaApi({ connection: found.connection, ...subject });
    await api.postStatus(repo, headSha, {
      state,
      context: statusContext(subject.route),
      description,
    });
  } catch (error) {
    log.warn({ target, state, err: errorMessage(error) }, 'could not set the commit status');
  }
}
