/**
 * Every reason the gateway would refuse to start on a config, found the way it finds them: core's
 * `createGateway` sets up the plugins and runs its checks on a throwaway memory store, and nothing
 * listens.
 */
import { silentLogger, type ConfigProblem, type GatewayConfig } from '@webhook-gateway/core';
import {
  MemoryStore,
  createGateway,
  warningCollector,
  type LoadedPlugin,
  type LoggedWarning,
} from '@webhook-gateway/core/runtime';
import { problemsFromError } from './config-problems.js';

export interface CheckOptions {
  home: string;
  /** Loaded as the gateway loads them (`loadPlugins`). */
  plugins: LoadedPlugin[];
  /** Given, it receives the warnings the plugins logged while set up (a key file others can read). */
  warnings?: LoggedWarning[];
}

/** The problems that keep `config` from serving; empty when the gateway would start. */
export async function gatewayProblems(
  config: GatewayConfig,
  options: CheckOptions,
): Promise<ConfigProblem[]> {
  let gateway;
  const collector = options.warnings ? warningCollector() : undefined;
  try {
    gateway = await createGateway({
      config,
      home: options.home,
      store: new MemoryStore(),
      log: collector?.log ?? silentLogger(),
      plugins: options.plugins,
    });
  } catch (error) {
    return problemsFromError(error);
  } finally {
    options.warnings?.push(...(collector?.warnings() ?? []));
  }
  // Never started: this only lets the plugins that were set up release what they hold.
  await gateway.stop().catch(() => undefined);
  return [];
}
