/** What every Gitea delivery starts with: its settings checked, its pull request and its calls. */
import type { DeliverRequest } from '@webhook-gateway/core';
import { requireConnection, type HttpTargetOptions } from '@webhook-gateway/target-kit';
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
  const connection = requireConnection(giteaConnection(settings), target, 'platforms.gitea');
  return {
    pullRequest: resolveGiteaPullRequest(target, request.extra, request.delivery.payload),
    api: giteaApi({ connection, options, signal: request.signal, log: request.log, target }),
  };
}
