/**
 * What keeps a config from serving, checked in one place for the gateway's start, a reload,
 * `config validate` and `webhook subscribe`: each message names the key to set.
 */
import { INSECURE_NO_AUTH, type GatewayConfig } from './config/schema.js';
import type { GatewayHooks } from './hooks.js';
import { routeSecrets } from './routes.js';

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    bare === 'localhost' || bare === '::1' || bare.startsWith('127.') || bare === '::ffff:127.0.0.1'
  );
}

/** A route without a secret, INSECURE_NO_AUTH on a public bind. */
export function securityProblems(config: GatewayConfig): string[] {
  const settings = config.platforms.webhook.extra;
  const problems: string[] = [];
  for (const [name, route] of Object.entries(settings.routes)) {
    const secrets = routeSecrets(route, config);
    if (secrets.length === 0) {
      problems.push(
        `route "${name}" has no secret: set platforms.webhook.extra.routes.${name}.secret or platforms.webhook.extra.secret`,
      );
    } else if (secrets.includes(INSECURE_NO_AUTH) && !isLoopbackHost(settings.host)) {
      problems.push(
        `route "${name}" uses INSECURE_NO_AUTH but the gateway binds ${settings.host}, which is not a loopback address: set a real secret, or bind 127.0.0.1 (platforms.webhook.extra.host)`,
      );
    }
  }
  return problems;
}

/** A route that delivers to a target no plugin taps. */
export function targetProblems(config: GatewayConfig, hooks: GatewayHooks): string[] {
  const problems: string[] = [];
  for (const [name, route] of Object.entries(config.platforms.webhook.extra.routes)) {
    if (!hooks.deliver.get(route.deliver)?.isUsed()) {
      problems.push(
        `route "${name}" delivers to "${route.deliver}", but no such target is installed (platforms.webhook.extra.routes.${name}.deliver)`,
      );
    }
  }
  return problems;
}

/** Every problem that keeps `config` from serving with these hooks. */
export function startupProblems(config: GatewayConfig, hooks: GatewayHooks): string[] {
  return [...securityProblems(config), ...targetProblems(config, hooks)];
}
