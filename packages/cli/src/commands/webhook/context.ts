/** What every `webhook` command needs: the config (webhook platform on) and the shared store. */
import type { Store } from '@webhook-gateway/core';
import { loadContext, type CommandContext } from '../../context.js';
import type { HomeOptions } from '../../home-options.js';
import { openStore } from '../../open-store.js';

/** Why `webhook` commands cannot run with this config, or undefined when they can. */
export function webhookCommandsProblem(
  context: Pick<CommandContext, 'config' | 'path' | 'home'>,
): string | undefined {
  const where = context.path ?? `${context.home}/config.yaml`;
  if (!context.config.platforms.webhook.enabled) {
    return `the webhook platform is disabled (platforms.webhook.enabled is not true in ${where}); set it to true to use subscriptions`;
  }
  if (context.config.store.kind === 'memory') {
    return `store.kind is "memory" in ${where}: a subscription kept there would vanish when this command ends; use sqlite (store.kind)`;
  }
  return undefined;
}

/** Loads the config and refuses (one line, exit 1) when the webhook platform is off. */
export async function loadWebhookContext(options: HomeOptions): Promise<CommandContext> {
  const context = await loadContext(options);
  const problem = webhookCommandsProblem(context);
  if (problem) throw new Error(problem);
  return context;
}

/** Runs `work` with the store the gateway uses, closing it after. */
export async function withStore<T>(
  context: CommandContext,
  work: (store: Store) => Promise<T>,
): Promise<T> {
  const store = await openStore(context.config.store, context);
  try {
    return await work(store);
  } finally {
    await store.close();
  }
}

/** True when config.yaml has a static route of this name (it wins over the subscription). */
export function hasStaticRoute(context: Pick<CommandContext, 'config'>, name: string): boolean {
  return Object.prototype.hasOwnProperty.call(context.config.platforms.webhook.extra.routes, name);
}
