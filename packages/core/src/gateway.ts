/** A gateway: plugins set up on fresh hooks, the receiver listening, the worker pool running. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { INSECURE_NO_AUTH, type GatewayConfig } from './config/schema.js';
import { StartupError, errorMessage } from './errors.js';
import { createHooks, type GatewayHooks } from './hooks.js';
import type { Logger } from './logger.js';
import { corePlugin } from './core-plugin.js';
import type { PluginInstance } from './plugin.js';
import { setupPlugin, type LoadedPlugin } from './plugin-loader.js';
import { SlidingWindowRateLimiter, type RateLimiter } from './rate-limit.js';
import { createReceiver } from './receiver.js';
import { createRouteResolver, routeSecrets } from './routes.js';
import type { Store } from './store.js';
import { IntakePressure } from './intake-pressure.js';
import { WorkerPool } from './worker-pool.js';
import type { DeliveryQueue, GatewayRole } from './queue.js';

export interface GatewayOptions {
  config: GatewayConfig;
  home: string;
  store: Store;
  log: Logger;
  /** Built-in and configured plugins, in order; core's own taps come first. */
  plugins: LoadedPlugin[];
  /** `receiver` answers HTTP and enqueues; `worker` runs deliveries; `all` (default) both. */
  role?: GatewayRole;
}

/** True for addresses only this machine can reach. */
export function isLoopbackHost(host: string): boolean {
  const bare = host.replace(/^\[|\]$/g, '').toLowerCase();
  return (
    bare === 'localhost' || bare === '::1' || bare.startsWith('127.') || bare === '::ffff:127.0.0.1'
  );
}

/**
 * The problems that keep a config from serving: a route without a secret, INSECURE_NO_AUTH on a
 * public bind. Each message names the route and what to set.
 */
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

export interface Gateway {
  readonly hooks: GatewayHooks;
  /**
   * Starts the workers (unless a receiver) and listens (unless a worker); resolves with the bound
   * address (`listening: false` and port 0 for a worker).
   */
  start(): Promise<{ host: string; port: number; listening: boolean }>;
  /** Stops accepting, lets running work finish (bounded), closes the store. */
  stop(): Promise<void>;
  /** Applies a new config's routes, secrets and filters without dropping in-flight work. */
  reload(config: GatewayConfig): void;
  readonly config: GatewayConfig;
  readonly queue: DeliveryQueue;
}

/** Sets up the plugins and checks the config; nothing listens until `start`. */
export async function createGateway(options: GatewayOptions): Promise<Gateway> {
  let config = options.config;
  const { store, log, home } = options;
  const problems = securityProblems(config);
  if (problems.length > 0) throw new StartupError(problems.join('\n'));

  const role = options.role ?? 'all';
  const hooks = createHooks();
  // Plugins are set up before the queue exists; their stats read it once it does.
  const current: { queue?: DeliveryQueue } = {};
  const queueStats = {
    get queuedCount() {
      return current.queue?.queuedCount ?? 0;
    },
    get runningCount() {
      return current.queue?.runningCount ?? 0;
    },
  };
  const instances: PluginInstance[] = [];
  for (const loaded of [{ plugin: corePlugin, options: undefined }, ...options.plugins]) {
    const instance = await setupPlugin(loaded, {
      hooks,
      log,
      config,
      home,
      serving: true,
      store,
      queue: queueStats,
    });
    if (instance) instances.push(instance);
  }
  const settings = () => config.platforms.webhook.extra;
  for (const [name, route] of Object.entries(settings().routes)) {
    if (!hooks.deliver.get(route.deliver)?.isUsed()) {
      throw new StartupError(
        `route "${name}" delivers to "${route.deliver}", but no such target is installed (platforms.webhook.extra.routes.${name}.deliver)`,
      );
    }
  }

  const getConfig = () => config;
  const resolveRoute = createRouteResolver(getConfig, store);
  const attemptDeps = { store, hooks, config: getConfig, resolveRoute, home, log };
  // The embedded pool shares this process with the receiver, which goes first under load.
  let pressure: IntakePressure | undefined;
  let deliveryQueue: DeliveryQueue;
  if (store.createQueue) {
    deliveryQueue = store.createQueue({ ...attemptDeps, role });
  } else {
    const pool = new WorkerPool({
      ...attemptDeps,
      intakeSaturated: () => pressure?.active ?? false,
    });
    pressure = new IntakePressure(() => pool.wake());
    deliveryQueue = pool;
  }
  current.queue = deliveryQueue;
  const rateLimiter: RateLimiter = store.rateLimiter ?? new SlidingWindowRateLimiter();
  const app = createReceiver({
    hooks,
    config: getConfig,
    resolveRoute,
    store,
    rateLimiter,
    onAccepted: (record) => {
      pressure?.noteAccept();
      Promise.resolve(deliveryQueue.enqueue(record)).catch((error: unknown) => {
        log.error(
          { route: record.route, delivery_id: record.deliveryId, err: errorMessage(error) },
          'could not enqueue',
        );
      });
    },
    log,
  });
  const handle = app.callback();
  // Check for timed-out requests every second (Node's default is 30 s), so a slow client is
  // dropped close to request_timeout_s.
  const server = http.createServer(
    { connectionsCheckingInterval: 1_000 },
    (req, res) => void handle(req, res),
  );
  const timers: NodeJS.Timeout[] = [];

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
    queue: deliveryQueue,
    get config() {
      return config;
    },
    async start() {
      if (config.agent.runner === 'dry-run') {
        log.warn('no agent is configured: each answer is the rendered prompt (set agent.runner)');
      }
      for (const instance of instances) await instance.start?.();
      // The embedded pool is the only queue of its journal, so a receiver-only role makes no sense there.
      if (role !== 'receiver' || !store.createQueue) await deliveryQueue.start();
      pressure?.start();
      await prune();
      const pruneTimer = setInterval(() => void prune(), 60_000);
      pruneTimer.unref();
      timers.push(pruneTimer);
      if (role === 'worker') return { host: settings().host, port: 0, listening: false };

      const requestTimeoutMs = settings().request_timeout_s * 1000;
      server.requestTimeout = requestTimeoutMs;
      server.headersTimeout = Math.min(requestTimeoutMs, 20_000);
      server.keepAliveTimeout = 5_000;
      await new Promise<void>((resolve, reject) => {
        const onError = (error: NodeJS.ErrnoException) => {
          server.off('listening', onListening);
          if (error.code === 'EADDRINUSE') {
            reject(
              new StartupError(
                `port ${settings().port} is in use; set platforms.webhook.extra.port`,
              ),
            );
          } else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND') {
            reject(
              new StartupError(`cannot bind ${settings().host}; set platforms.webhook.extra.host`),
            );
          } else if (error.code === 'EACCES') {
            reject(
              new StartupError(
                `no permission to bind port ${settings().port}; set platforms.webhook.extra.port`,
              ),
            );
          } else reject(error);
        };
        const onListening = () => {
          server.off('error', onError);
          resolve();
        };
        server.once('error', onError);
        server.once('listening', onListening);
        server.listen(settings().port, settings().host);
      });
      const address = server.address() as AddressInfo;
      return { host: settings().host, port: address.port, listening: true };
    },
    async stop() {
      for (const timer of timers) clearInterval(timer);
      pressure?.stop();
      const closed = server.listening
        ? new Promise<void>((resolve) => server.close(() => resolve()))
        : Promise.resolve();
      server.closeIdleConnections();
      await deliveryQueue.stop(settings().shutdown_timeout_s * 1000);
      server.closeAllConnections();
      await closed;
      for (const instance of instances) {
        try {
          await instance.stop?.();
        } catch (error) {
          log.error({ err: errorMessage(error) }, 'plugin stop failed');
        }
      }
      await store.close();
    },
    reload(next) {
      const nextProblems = securityProblems(next);
      if (nextProblems.length > 0) throw new StartupError(nextProblems.join('\n'));
      for (const [name, route] of Object.entries(next.platforms.webhook.extra.routes)) {
        if (!hooks.deliver.get(route.deliver)?.isUsed()) {
          throw new StartupError(
            `route "${name}" delivers to "${route.deliver}", but no such target is installed`,
          );
        }
      }
      config = next;
    },
  };
}
