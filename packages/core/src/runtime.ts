/**
 * `@webhook-gateway/core/runtime`: what a program that runs a gateway needs (the CLI, and tests
 * that build one from its parts). Plugins import `@webhook-gateway/core`.
 */

// Assembling and running a gateway; the hooks its plugins tap (tests set up one plugin on them).
export { createGateway, type Gateway, type GatewayOptions } from './gateway.js';
export { createHooks } from './hooks.js';
export type { GatewayRole } from './queue.js';

// Finding and reading the config file; its schemas (for `config schema`, and tests that parse a slice).
export {
  loadConfig,
  resolveHome,
  resolveConfigPath,
  type LoadedConfig,
  type PluginLoader,
} from './config/load.js';
export {
  configSchema,
  routeSchema,
  configJsonSchema,
  canonicalName,
  NO_RUNNER,
  type ConfigSlices,
  type PluginEntry,
  type StoreConfig,
} from './config/schema.js';

// Loading plugins: core's own first, then each configured one.
export { corePlugin } from './core-plugin.js';
export { importPlugin, setupPlugin, type LoadedPlugin } from './plugin-loader.js';
export {
  packageNameOf,
  resolvePlugin,
  searchPlaces,
  type PluginPlace,
  type PluginSearch,
} from './plugin-resolve.js';
export { setUpPlugins } from './plugin-setup.js';
export { configSlicesOf } from './plugin.js';
export { PluginError, PluginNotInstalledError } from './errors.js';
export { inFileWarnings, storeProblems } from './startup-checks.js';

// A route's rules on one payload without a gateway (`filters test`).
export {
  evaluateFilters,
  explainFilters,
  inFilePaths,
  type ClauseVerdict,
  type FilterEvaluation,
  type TimedOutFilter,
} from './filter-verdict.js';
export { FILTER_REGEX_TIMEOUT_MS } from './filter-regex-limit.js';
export { InFileLists } from './in-file-lists.js';
export {
  routeIgnoreReason,
  routeVerdict,
  type IgnoreReason,
  type RouteVerdict,
} from './route-filter.js';
export { eventTypeOf } from './headers.js';
export { payloadAction } from './delivery.js';

// The store config names, opened through the plugin that provides its kind.
export { openConfiguredStore } from './store-opener.js';

// The store for tests and one-off commands (nothing kept on disk).
export { MemoryStore } from './memory-store.js';

// The gateway's log file and console, and secrets shown in output.
export {
  createLogger,
  maskSecret,
  warningCollector,
  type GatewayLogger,
  type LoggedWarning,
  type LogLevel,
} from './logger.js';

// Dynamic routes (`webhook subscribe`) as the receiver sees them.
export { subscriptionToRoute } from './routes.js';

// The pieces a shared queue runs with: one attempt, the live config, the limits, the routes.
export { createAttempt, type AttemptDeps } from './attempt.js';
export { liveConfig, type LiveConfig } from './config/live.js';
export { queueLimits } from './queue.js';
export { createRouteResolver, type RouteResolver } from './routes.js';
