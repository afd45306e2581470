/**
 * Which platforms the loop guard asks for the gateway's own account at start: decided from the
 * config alone, so a config with no such route loads none of the asking code.
 */
import { isCommentEvent, type GatewayConfig } from '@webhook-gateway/core';
import {
  ALTFORGE_REVIEW_TARGET,
  ALTFORGE_TARGET,
  FORGE_REVIEW_TARGET,
  FORGE_TARGET,
} from './target-names.js';

/**
 * True when a loop can start through `targets`: a route has `commands`, or posts comments to
 * one of `targets` and takes comment events (listed, or every event). Then the platform's own
 * account is worth asking for.
 *
 * @example loopCanStart(config, ['gitea_comment', 'gitea_review'])
 */
export function loopCanStart(config: GatewayConfig, targets: readonly string[]): boolean {
  const routes = Object.values(config.platforms.webhook.extra.routes);
  const hearsComments = (events: readonly string[]) =>
    events.length === 0 || events.some((event) => isCommentEvent(event, {}));
  return routes.some(
    (route) =>
      (route.commands ?? []).length > 0 ||
      (targets.includes(route.deliver) && hearsComments(route.events)),
  );
}

/**
 * Which of the forge's and altforge's accounts are worth asking for: where a loop can start
 * through `forge_comment`, `forge_review` or `altforge_comment`, `altforge_review`.
 */
export function platformsToAsk(config: GatewayConfig): { forge: boolean; altforge: boolean } {
  return {
    forge: loopCanStart(config, [FORGE_TARGET, FORGE_REVIEW_TARGET]),
    altforge: loopCanStart(config, [ALTFORGE_TARGET, ALTFORGE_REVIEW_TARGET]),
  };
}
