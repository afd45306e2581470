/**
 * Which platforms the loop guard asks for the gateway's own account at start: decided from the
 * config alone, so a config with no such route loads none of the asking code.
 */
import type { GatewayConfig } from '@webhook-gateway/core';
import {
  ALTFORGE_REVIEW_TARGET,
  ALTFORGE_TARGET,
  FORGE_REVIEW_TARGET,
  FORGE_TARGET,
} from './target-names.js';

const COMMENT_EVENTS = ['issue_comment', 'pull_request_review_comment', 'Note Hook', 'note'];

/**
 * Which platforms' accounts are worth asking for: only where a loop can start, that is a command
 * route, or a route that posts comments (`forge_comment`, `altforge_comment`, or line comments
 * with `forge_review`, `altforge_review`) and takes comment events (listed, or every event).
 */
export function platformsToAsk(config: GatewayConfig): { forge: boolean; altforge: boolean } {
  const routes = Object.values(config.platforms.webhook.extra.routes);
  const hearsComments = (events: readonly string[]) =>
    events.length === 0 || events.some((event) => COMMENT_EVENTS.includes(event));
  const commands = routes.some((route) => (route.commands ?? []).length > 0);
  const posts = (...targets: string[]) =>
    routes.some((route) => targets.includes(route.deliver) && hearsComments(route.events));
  return {
    forge: commands || posts(FORGE_TARGET, FORGE_REVIEW_TARGET),
    altforge: commands || posts(ALTFORGE_TARGET, ALTFORGE_REVIEW_TARGET),
  };
}
