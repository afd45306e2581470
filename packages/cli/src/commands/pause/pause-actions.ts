/** What `pause` and `resume` do to the journal, apart from printing. */
import type { GatewayConfig, Pause, Store } from '@webhook-gateway/core';
import { OptionsError } from '../deliveries/options.js';

/** The routes a pause may name: the config's, then the dynamic subscriptions. */
export async function knownRoutes(config: GatewayConfig, store: Store): Promise<string[]> {
  const subscriptions = await store.listSubscriptions();
  return [
    ...new Set([
      ...Object.keys(config.platforms.webhook.extra.routes),
      ...subscriptions.map((subscription) => subscription.name),
    ]),
  ];
}

/**
 * Pauses `route` (null: every route). A route that is neither in the config nor a subscription
 * is refused, so a typo never leaves the real route running while the operator thinks it paused.
 */
export async function pauseRoute(
  store: Store,
  request: { route: string | null; reason: string | null; known: readonly string[]; now: number },
): Promise<{ pause: Pause; added: boolean }> {
  const { route, known } = request;
  if (route !== null && !known.includes(route)) {
    throw new OptionsError(
      `--route ${route}: no route of that name (routes: ${known.join(', ') || 'none'})`,
    );
  }
  return store.pause(route, request.reason, request.now);
}

export interface ResumeResult {
  /** The pauses lifted; empty when there was nothing to lift. */
  lifted: Pause[];
  /** The pause of every route, when it still holds the route resumed. */
  stillPaused: Pause | undefined;
}

/**
 * Lifts the pause of `route`, or with null every pause (of every route and of each route). What
 * was not paused is left alone and reported as such.
 */
export async function resumeRoute(store: Store, route: string | null): Promise<ResumeResult> {
  const pauses = await store.pauses();
  const lifting = route === null ? pauses : pauses.filter((pause) => pause.route === route);
  const lifted: Pause[] = [];
  for (const pause of lifting) {
    if (await store.resume(pause.route)) lifted.push(pause);
  }
  const stillPaused = route === null ? undefined : pauses.find((pause) => pause.route === null);
  return { lifted, stillPaused };
}
