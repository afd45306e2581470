/**
 * Checks a subscription the way the gateway checks a static route at start: its target is
 * installed, its platform is enabled and has somewhere to send, its secret is allowed on this bind.
 */
import {
  silentLogger,
  type ConfigProblem,
  type GatewayConfig,
  type Subscription,
} from '@webhook-gateway/core';
import {
  createHooks,
  setUpPlugins,
  subscriptionToRoute,
  type LoadedPlugin,
} from '@webhook-gateway/core/runtime';
import { gatewayProblems } from '../../config-check.js';

/** True when the core or a plugin delivers to `target` (set up as the gateway does, not serving). */
export async function isInstalledTarget(
  target: string,
  options: { config: GatewayConfig; home: string; plugins: LoadedPlugin[] },
): Promise<boolean> {
  const hooks = createHooks();
  await setUpPlugins(options.plugins, {
    hooks,
    log: silentLogger(),
    config: options.config,
    home: options.home,
    serving: false,
  });
  return hooks.deliver.get(target)?.isUsed() ?? false;
}

/** The config the gateway would check if this subscription were its only route. */
export function configWithOnlyRoute(
  config: GatewayConfig,
  subscription: Subscription,
): GatewayConfig {
  const webhook = config.platforms.webhook;
  return {
    ...config,
    platforms: {
      ...config.platforms,
      webhook: {
        ...webhook,
        extra: {
          ...webhook.extra,
          routes: { [subscription.name]: subscriptionToRoute(subscription) },
        },
      },
    },
  };
}

/** A route key path of the check as the `webhook subscribe` option that sets it. */
export function subscriptionProblemSource(name: string, path: string): string {
  const route = `platforms.webhook.extra.routes.${name}`;
  const flags: Record<string, string> = {
    [`${route}.deliver`]: '--deliver',
    [`${route}.deliver_extra.chat_id`]: '--deliver-chat-id',
    [`${route}.secret`]: '--secret',
  };
  return flags[path] ?? path;
}

/** The problems that would keep the gateway from serving `subscription`, each naming its option. */
export async function subscriptionProblems(
  subscription: Subscription,
  options: { config: GatewayConfig; home: string; plugins: LoadedPlugin[] },
): Promise<ConfigProblem[]> {
  const problems = await gatewayProblems(configWithOnlyRoute(options.config, subscription), {
    home: options.home,
    plugins: options.plugins,
  });
  return problems.map((problem) => ({
    path: subscriptionProblemSource(subscription.name, problem.path),
    message: problem.message,
  }));
}
