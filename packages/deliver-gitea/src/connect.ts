/** What every Gitea delivery starts with: its settings checked, its pull request and its calls. */
import type { DeliverRequest } from '@webhook-gateway/core';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { giteaApi, type GiteaApi } from './gitea-api.js';
import { resolveGiteaPullRequest, type GiteaPullRequest } from './pull-request.js';
import { giteaConnection, type GiteaSettings } from './settings.js';

export interface GiteaDelivery {
  api: GiteaApi;
  pullRequest: GiteaPullRequest;
}

/**
 * The delivery's pull request and API. Throws, not to be retried, when `platforms.gitea` lacks
 * its address or token (a dynamic subscription may name the target although no route does).
 */
export function connectGitea(
  request: DeliverRequest,
  settings: GiteaSettings,
  options: HttpTargetOptions,
  target: string,
): GiteaDelivery {
  const found = giteaConnection(settings);
  if (!found.ok) {
    throw Object.assign(
      new Error(`${target}: cannot deliver: platforms.gitea.${found.missing} is not set`),
      { retryable: false },
    );
  }
  const pullRequest = resolveGiteaPullRequest(target, request.extra, request.delivery.payload);
  const api = giteaApi({
    connection: found.connection,
    options,
    signal: request.signal,
    log: request.log,
    target,
  });
  return { api, pullRequest };
}
