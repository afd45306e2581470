/**
 * Every reason the gateway would refuse to start on a config, found the way it finds them: core's
 * `createGateway` sets up the plugins and runs its checks on a throwaway memory store, and nothing
 * listens.
 */
import { silentLogger, type ConfigProblem, type GatewayConfig } from '@webhook-gateway/core';
import { MemoryStore, createGateway, type LoadedPlugin } from '@webhook-gateway/core/runtime';
import { problemsFromError } from './config-problems.js';

export interface CheckOptions {
  home: string;
  /** Loaded as the gateway loads them (`loadPlugins`). */
  plugins: LoadedPlugin[];
}

/** The problems that keep `config` from serving; empty when the gateway would start. */
export async function gatewayProblems(
  config: GatewayConfig,
  options: CheckOptions,
): Promise<ConfigProblem[]> {
  let gateway;
  try {
    gateway = await createGateway({
      config,
      home: options.home,
      store: new MemoryStore(),
      log: silentLogger(),
      plugins: options.plugins,
    });
  } catch (error) {
    return problemsFromError(error);
  }
  // Never started: this only lets the plugins that were set up release what they hold.
  await gateway.stop().catch(() => undefined);
  return [];
}
