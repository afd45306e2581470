/** @webhook-gateway/core: the receiver, hooks, config, plugin API and worker pool. */
export * from './config/schema.js';
export {
  loadConfig,
  parseConfig,
  resolveHome,
  resolveConfigPath,
  type LoadedConfig,
  type PluginLoader,
} from './config/load.js';
export { expandEnv } from './config/env.js';
export { formatKeyPath, problemsFromZod } from './config/key-path.js';
export * from './errors.js';
export * from './hooks.js';
export * from './plugin.js';
export { importPlugin, resolvePlugin, setupPlugin, type LoadedPlugin } from './plugin-loader.js';
export * from './template.js';
export * from './delivery.js';
export * from './delivery-schema.js';
export * from './store.js';
export { MemoryStore } from './memory-store.js';
export * from './headers.js';
export { parsePayload, readPayload, readRawBody, BadBodyError, BodyTooLargeError } from './body.js';
export type { ParsedPayload } from './body.js';
export * from './rate-limit.js';
export * from './route-filter.js';
export {
  createRouteResolver,
  routeSecrets,
  subscriptionToRoute,
  type RouteResolver,
} from './routes.js';
export { createReceiver } from './receiver.js';
export { WorkerPool, type WorkerPoolOptions } from './worker-pool.js';
export { IntakePressure, type IntakeMonitor } from './intake-pressure.js';
export {
  runAttempt,
  createRunDelivery,
  backoffDelay,
  isPermanentError,
  type AttemptDeps,
  type AttemptOutcome,
} from './attempt.js';
export * from './queue.js';
export { createGateway, type Gateway, type GatewayOptions } from './gateway.js';
export {
  isLoopbackHost,
  securityProblems,
  startupProblems,
  targetProblems,
  runnerProblems,
} from './startup-checks.js';
export { liveConfig, type LiveConfig } from './config/live.js';
export { setUpPlugins } from './plugin-setup.js';
export {
  createLogger,
  silentLogger,
  maskSecret,
  type Logger,
  type LogLevel,
  type GatewayLogger,
} from './logger.js';
export { corePlugin, CORE_PLUGIN_NAME } from './core-plugin.js';
export { startAttempt, closeAttempt } from './attempt-log.js';
