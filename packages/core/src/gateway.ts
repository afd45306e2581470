/**
 * Builds a gateway around a store the caller opened (the CLI), in the order a delivery flows
 * through it:
 *   config → hooks → queue → plugins → receiver → server.
 * The receiver journals an accepted delivery and hands it to the queue; the queue is handed the
 * attempt (`createAttempt`: render → run → deliver) and starts as many attempts at once as its
 * limits allow. Nothing listens until `start`.
 */
import type http from 'node:http';
import { createAttempt } from './attempt.js';
import { endInterruptedStates } from './interrupted-attempts.js';
import { loadedSchemes } from './auth-schemes.js';
import type { GatewayConfig } from './config/schema.js';
import { liveConfig, type LiveConfig } from './config/live.js';
import { ConfigError, errorMessage } from './errors.js';
import { createHooks, type GatewayHooks } from './hooks.js';
import type { Logger } from './logger.js';
import { outboundPlan } from './outbound-plan.js';
import { PauseWatch } from './pause-watch.js';
import type { LoadedPlugin } from './plugin-loader.js';
import { setUpPlugins } from './plugin-setup.js';
import { SlidingWindowRateLimiter } from './rate-limit.js';
import { createReceiver } from './receiver.js';
import { scriptProblems } from './route-script.js';
import { createRouteResolver } from './routes.js';
import { closeServer, createServer, listen } from './server.js';
import { inFileWarnings, startupProblems } from './startup-checks.js';
import type { Store } from './store.js';
import { startWaitingNotices, type WaitingNotices } from './waiting-notices.js';
import { WorkerPool } from './worker-pool.js';
import { createRedactor, secretsInEnv, secretsUnder, type Redactor } from './redaction.js';
import { redactingTracer } from './trace-redaction.js';
import type { GatewayTracer } from './tracing.js';
import { queueLimits, type DeliveryQueue, type GatewayRole } from './queue.js';

export interface GatewayOptions {
  config: GatewayConfig;
  home: string;
  store: Store;
  log: Logger;
  /** Built-in and configured plugins, in order; core's own taps come first. */
  plugins: LoadedPlugin[];
  /** `receiver` answers HTTP and enqueues; `worker` runs deliveries; `all` (default) both. */
  role?: GatewayRole;
  /**
   * The tracer of `observability.otlp` (the CLI opens it with `@webhook-gateway/tracing`); none:
   * no tracing work at all. The gateway shuts it down when it stops.
   */
  tracer?: GatewayTracer;
}

export interface Gateway {
  readonly hooks: GatewayHooks;
  /**
   * Starts the workers (unless a receiver) and listens (unless a worker); resolves with the bound
   * address (`listening: false` and port 0 for a worker).
   */
  start(): Promise<{ host: string; port: number; listening: boolean }>;
  /**
   * Drains, then stops: no new attempt starts, running ones finish (within
   * `shutdown_timeout_s`) while the listener still answers (`/ready` 503; webhooks journaled, or
   * 503 with `drain_refuse`), then it stops listening and closes the store.
   */
  stop(): Promise<void>;
  /** Applies a new config's routes, secrets and filters without dropping in-flight work. */
  reload(config: GatewayConfig): void;
  readonly config: GatewayConfig;
  readonly queue: DeliveryQueue;
}

/** Sets up the plugins and checks the config; nothing listens until `start`. */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  const { store, log, home } = options;
  const role = options.role ?? 'all';

  // 1. config: one live object, read at each decision; a reload replaces it
  const config = liveConfig(options.config);
  const settings = () => config.current().platforms.webhook.extra;
  const resolveRoute = createRouteResolver(config, store);

  // 2. hooks: the extension points, empty until the plugins tap them (step 4)
  const hooks = createHooks();
  const tracer = options.tracer && redactingTracer(options.tracer, traceRedactor(config));
  tracer?.onDropped((spans) => hooks.spansDropped.call({ spans }));

  // 3. queue: the store's shared one, else the embedded pool; either only calls `attempt`
  const attempt = createAttempt({
    store,
    hooks,
    config,
    resolveRoute,
    home,
    log,
    ...(tracer ? { tracer } : {}),
  });
  const limits = () => queueLimits(config.current());
  const outbound = (route: string) => outboundPlan(config.current(), route);
  // The journal's pauses, read every second; a lifted one wakes the queue.
  const pauses = new PauseWatch({ store, log, onResume: () => queue.resumed?.() });
  const paused = (route: string) => pauses.isPaused(route);
  const queue: DeliveryQueue = store.createQueue
    ? store.createQueue({ attempt, limits, role, log, outbound, paused })
    : new WorkerPool({ store, attempt, limits, log, paused });
  let draining = false;

  // 4. plugins tap the hooks: schemes, filters, render, runners, targets, observers
  const instances = await setUpPlugins(
    options.plugins,
    {
      hooks,
      log,
      config: options.config,
      home,
      serving: true,
      store,
      queue,
      ...(tracer ? { tracer } : {}),
    },
    () => config.current(),
  );
  const plugins = options.plugins.map((loaded) => loaded.plugin);
  const problems = [
    ...startupProblems(options.config, hooks, plugins),
    ...scriptProblems(options.config.platforms.webhook.extra.routes, home),
  ];
  if (problems.length > 0) throw new ConfigError(problems);

  // 5. receiver: the checks of `docs/contract.md#the-order-of-checks`, then journal and hand
  // over to the queue
  const rateLimiter = store.rateLimiter ?? new SlidingWindowRateLimiter();
  const receiver = createReceiver({
    hooks,
    config,
    resolveRoute,
    store,
    rateLimiter,
    queue,
    schemes: loadedSchemes(plugins, hooks),
    state: {
      pauses: () => pauses.pauses,
      draining: () => draining,
      probeStore: () => store.pauses(),
    },
    log,
    ...(tracer ? { tracer } : {}),
  });

  // 6. server
  const server: http.Server = createServer(receiver);
  const timers: NodeJS.Timeout[] = [];
  let waitingNotices: WaitingNotices | undefined;

  async function prune(): Promise<void> {
    const now = Date.now();
    try {
      const removed = await store.prune(now - settings().retention_days * 86_400_000, now);
      if (removed.deliveries > 0)
        log.info({ removed: removed.deliveries }, 'pruned old journal rows');
    } catch (error) {
      log.error({ err: errorMessage(error) }, 'pruning failed');
    }
    if (rateLimiter instanceof SlidingWindowRateLimiter) rateLimiter.sweep(now);
  }

  return {
    hooks,
    queue,
    get config() {
      return config.current();
    },
    async start() {
      if (config.current().agent.runner === 'dry-run') {
        log.warn('no agent is configured: each answer is the rendered prompt (set agent.runner)');
      }
      for (const warning of inFileWarnings(config.current(), home))
        log.warn({ key: warning.path }, warning.message);
      for (const instance of instances) await instance.start?.();
      // The embedded pool is the only queue of its journal, so a receiver-only role makes no sense there.
      // The embedded pool is alone on its journal: what is `running` now died with the last run.
      if (!store.createQueue) {
        await endInterruptedStates({ store, hooks, config, resolveRoute, log });
      }
      // Before the queue: a pause kept across a restart holds from the first dispatch.
      await pauses.start();
      if (role !== 'receiver' || !store.createQueue) await queue.start();
      waitingNotices = startWaitingNotices({ store, hooks, config, resolveRoute, log });
      await prune();
      const pruneTimer = setInterval(() => void prune(), 60_000);
      pruneTimer.unref();
      timers.push(pruneTimer);
      const serving = () => {
        for (const instance of instances) instance.serving?.();
      };
      if (role === 'worker') {
        serving();
        return { host: settings().host, port: 0, listening: false };
      }
      const port = await listen(server, settings());
      serving();
      return { host: settings().host, port, listening: true };
    },
    async stop() {
      for (const timer of timers) clearInterval(timer);
      // The drain: the listener keeps answering (`/ready` 503) while running attempts finish.
      draining = true;
      waitingNotices?.stop();
      await queue.stop(settings().shutdown_timeout_s * 1000);
      pauses.stop();
      const closed = closeServer(server);
      server.closeAllConnections();
      await closed;
      for (const instance of instances) {
        try {
          await instance.stop?.();
        } catch (error) {
          log.error({ err: errorMessage(error) }, 'plugin stop failed');
        }
      }
      await tracer?.shutdown().catch((error: unknown) => {
        log.warn({ err: errorMessage(error) }, 'could not export the last traces');
      });
      await store.close();
    },
    reload(next) {
      const nextProblems = [
        ...startupProblems(next, hooks, plugins),
        ...scriptProblems(next.platforms.webhook.extra.routes, home),
      ];
      if (nextProblems.length > 0) throw new ConfigError(nextProblems);
      config.replace(next);
    },
  };
}

/**
 * The redactor of span attributes: the log's rules with the live config's secrets (the
 * collector's headers too) and the environment's credentials; made again after a reload.
 */
function traceRedactor(config: LiveConfig): () => Redactor {
  let madeFor: GatewayConfig | undefined;
  let redactor: Redactor | undefined;
  return () => {
    const current = config.current();
    if (redactor === undefined || madeFor !== current) {
      const headers = Object.values(current.observability.otlp?.headers ?? {});
      redactor = createRedactor([
        ...secretsUnder(current),
        ...headers,
        ...secretsInEnv(process.env),
      ]);
      madeFor = current;
    }
    return redactor;
  };
}
