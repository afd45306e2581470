/**
 * Hot reload (SIGHUP or a change of the config file): the new file is read and checked like a
 * start, then applied to the running gateway; anything wrong keeps the running config. In-flight
 * work is untouched: an attempt keeps the config it started with.
 */
import {
  errorMessage,
  type ConfigProblem,
  type GatewayConfig,
  type Logger,
} from '@webhook-gateway/core';
import { problemsFromError } from '../../config-problems.js';
import { restartOnlyChanges } from './reload-restart-keys.js';

/** What asked for the reload; logged with the outcome. */
export type ReloadTrigger = 'SIGHUP' | 'file change';

export type ReloadOutcome =
  | { status: 'reloaded'; routes: string[]; restartOnly: string[] }
  | { status: 'rejected'; problems: ConfigProblem[] };

export interface ReloadDeps {
  /** Reads and validates the config file; throws `ConfigError` for a bad one. */
  load(): Promise<GatewayConfig>;
  /** Every reason the gateway would refuse to start on `config` (plugins' checks included). */
  check(config: GatewayConfig): Promise<ConfigProblem[]>;
  /** The config the gateway runs with now. */
  current(): GatewayConfig;
  /** Swaps the config in (core's `gateway.reload`); throws when core refuses it. */
  apply(config: GatewayConfig): void;
  log: Logger;
}

async function reloadOnce(deps: ReloadDeps, trigger: ReloadTrigger): Promise<ReloadOutcome> {
  let problems: ConfigProblem[];
  try {
    const next = await deps.load();
    problems = await deps.check(next);
    if (problems.length === 0) {
      const restartOnly = restartOnlyChanges(deps.current(), next);
      deps.apply(next);
      const routes = Object.keys(next.platforms.webhook.extra.routes);
      deps.log.info({ trigger, routes }, 'config reloaded');
      if (restartOnly.length > 0) {
        deps.log.warn(
          { trigger, keys: restartOnly },
          `config reloaded, but these settings apply only after a restart: ${restartOnly.join(', ')}`,
        );
      }
      return { status: 'reloaded', routes, restartOnly };
    }
  } catch (error) {
    problems = problemsFromError(error);
  }
  const lines = problems.map((p) => `${p.path}: ${p.message}`);
  deps.log.error(
    { trigger, problems },
    `config reload rejected; keeping the running config: ${lines.join('; ')}`,
  );
  return { status: 'rejected', problems };
}

/**
 * A reload function for SIGHUP and the file watcher. Reloads run one after the other, never
 * interleaved, so the last one asked for is the one that stays applied.
 */
export function createConfigReloader(
  deps: ReloadDeps,
): (trigger: ReloadTrigger) => Promise<ReloadOutcome> {
  let tail: Promise<unknown> = Promise.resolve();
  return (trigger) => {
    const run = tail.then(() =>
      reloadOnce(deps, trigger).catch((error: unknown) => {
        deps.log.error({ trigger, err: errorMessage(error) }, 'config reload failed');
        return {
          status: 'rejected',
          problems: [{ path: '(config)', message: errorMessage(error) }],
        } satisfies ReloadOutcome;
      }),
    );
    tail = run;
    return run;
  };
}
