/**
 * Which deliveries are Gitea's (or Forgejo's): signed by Gitea's scheme, or on an open route
 * either carrying Gitea's own `is_pull` (its comments otherwise look like the forge's) or
 * answered on Gitea.
 */
import type { JsonObject } from '@webhook-gateway/core';
import { GITEA_TARGETS } from './target-names.js';

/**
 * True for a Gitea delivery.
 *
 * @example isGiteaSender(delivery.authScheme, delivery.payload, routeConfig.deliver)
 */
export function isGiteaSender(
  authScheme: string | undefined,
  payload: JsonObject,
  deliver: string,
): boolean {
  if (authScheme !== undefined) return authScheme === 'gitea';
  const targets: readonly string[] = GITEA_TARGETS;
  return typeof payload.is_pull === 'boolean' || targets.includes(deliver);
}
