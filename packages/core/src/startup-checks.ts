/**
 * What keeps a config from serving, checked in one place for the gateway's start, a reload,
 * `config validate` and `webhook subscribe`: each problem names the key to set.
 */
import fs from 'node:fs';
import path from 'node:path';
import { INSECURE_NO_AUTH, NO_RUNNER, type GatewayConfig } from './config/schema.js';
import { inFilePaths } from './filter-verdict.js';
import { isLoopbackHost } from './loopback.js';
import { loadedSchemes } from './auth-schemes.js';
import type { ConfigProblem } from './errors.js';
import type { GatewayHooks } from './hooks.js';
import { corePlugin } from './core-plugin.js';
import type { GatewayPlugin } from './plugin.js';
import { routeSecrets } from './routes.js';

const ROUTES = 'platforms.webhook.extra.routes';

/** A route without a secret, INSECURE_NO_AUTH on a public bind. */
function securityProblems(config: GatewayConfig): ConfigProblem[] {
  const settings = config.platforms.webhook.extra;
  const problems: ConfigProblem[] = [];
  for (const [name, route] of Object.entries(settings.routes)) {
    const secrets = routeSecrets(route, config);
    if (secrets.length === 0) {
      problems.push({
        path: `${ROUTES}.${name}`,
        message: `route "${name}" has no secret: set ${ROUTES}.${name}.secret or platforms.webhook.extra.secret`,
      });
    } else if (secrets.includes(INSECURE_NO_AUTH) && !isLoopbackHost(settings.host)) {
      problems.push({
        path: 'platforms.webhook.extra.host',
        message: `route "${name}" uses INSECURE_NO_AUTH but the gateway binds ${settings.host}, which is not a loopback address: set a real secret, or bind 127.0.0.1 (platforms.webhook.extra.host)`,
      });
    }
  }
  return problems;
}

/**
 * `in_file` lists that are not there yet: warnings, not errors, since a file may appear later
 * (until then its filter matches nothing).
 */
export function inFileWarnings(config: GatewayConfig, home: string): ConfigProblem[] {
  const warnings: ConfigProblem[] = [];
  for (const [name, route] of Object.entries(config.platforms.webhook.extra.routes)) {
    for (const relative of inFilePaths(route.filters)) {
      const file = path.join(home, relative);
      if (!fs.existsSync(file))
        warnings.push({
          path: `${ROUTES}.${name}.filters`,
          message: `in_file "${relative}" does not exist (${file}); its filter matches nothing until it does`,
        });
    }
  }
  return warnings;
}

/** The plugins a "not installed" message lists, so the reader sees what was loaded. */
function loadedList(plugins: readonly string[]): string {
  return plugins.length > 0 ? `loaded plugins: ${plugins.join(', ')}` : 'no plugins are loaded';
}

/** A route that delivers to a target no plugin taps. */
export function targetProblems(
  config: GatewayConfig,
  hooks: GatewayHooks,
  plugins: readonly string[] = [],
): ConfigProblem[] {
  const problems: ConfigProblem[] = [];
  for (const [name, route] of Object.entries(config.platforms.webhook.extra.routes)) {
    if (!hooks.deliver.get(route.deliver)?.isUsed()) {
      problems.push({
        path: `${ROUTES}.${name}.deliver`,
        message: `route "${name}" delivers to "${route.deliver}", but no such target is installed (${loadedList(plugins)})`,
      });
    }
  }
  return problems;
}

/** A scheme a route's `schemes` lists that no plugin taps. */
export function schemeProblems(
  config: GatewayConfig,
  hooks: GatewayHooks,
  plugins: readonly Pick<GatewayPlugin<unknown>, 'name' | 'provides'>[] = [],
): ConfigProblem[] {
  const loaded = loadedSchemes(plugins, hooks);
  const problems: ConfigProblem[] = [];
  for (const [name, route] of Object.entries(config.platforms.webhook.extra.routes)) {
    for (const [index, scheme] of (route.schemes ?? []).entries()) {
      if (hooks.authenticate.get(scheme)?.isUsed()) continue;
      problems.push({
        path: `${ROUTES}.${name}.schemes.${index}`,
        message: `route "${name}" accepts the scheme "${scheme}", but no such scheme is loaded (loaded schemes: ${loaded.length > 0 ? loaded.join(', ') : 'none'})`,
      });
    }
  }
  return problems;
}

/** An `agent.runner`, global or a route's, that no plugin taps. */
export function runnerProblems(
  config: GatewayConfig,
  hooks: GatewayHooks,
  plugins: readonly string[] = [],
): ConfigProblem[] {
  const named = [{ runner: config.agent.runner, path: 'agent.runner' }];
  for (const [name, route] of Object.entries(config.platforms.webhook.extra.routes)) {
    const runner = route.agent?.runner;
    if (runner !== undefined) named.push({ runner, path: `${ROUTES}.${name}.agent.runner` });
  }
  return (
    named
      // `none` is core's own: no runner runs.
      .filter(({ runner }) => runner !== NO_RUNNER && !hooks.run.get(runner)?.isUsed())
      .map(({ runner, path }) => ({
        path,
        message: `no agent runner named "${runner}" is installed (${loadedList(plugins)})`,
      }))
  );
}

/**
 * A `store.kind` that no loaded plugin (nor core) provides. Opening the store says the same; this
 * is for `config validate`, which checks without opening one.
 */
export function storeProblems(
  config: GatewayConfig,
  plugins: readonly Pick<GatewayPlugin<unknown>, 'name' | 'stores'>[] = [],
): ConfigProblem[] {
  const kinds = [corePlugin, ...plugins].flatMap((plugin) => Object.keys(plugin.stores ?? {}));
  if (kinds.includes(config.store.kind)) return [];
  return [
    {
      path: 'store.kind',
      message: `no loaded plugin provides the store "${config.store.kind}" (stores provided: ${kinds.join(', ')}); install its package beside the CLI and list it under plugins:`,
    },
  ];
}

/**
 * Every problem that keeps `config` from serving with these hooks and plugins: core's checks,
 * then each plugin's own `check`.
 */
export function startupProblems(
  config: GatewayConfig,
  hooks: GatewayHooks,
  plugins: readonly Pick<GatewayPlugin<unknown>, 'name' | 'check' | 'provides'>[] = [],
): ConfigProblem[] {
  const names = plugins.map((plugin) => plugin.name);
  return [
    ...securityProblems(config),
    ...schemeProblems(config, hooks, plugins),
    ...targetProblems(config, hooks, names),
    ...runnerProblems(config, hooks, names),
    ...plugins.flatMap((plugin) => plugin.check?.(config) ?? []),
  ];
}
