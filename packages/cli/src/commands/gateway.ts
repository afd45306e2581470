/** `webhook-gateway gateway`: load config and plugins, listen, run until a signal. */
import {
  ConfigError,
  createGateway,
  createLogger,
  errorMessage,
  loadConfig,
  type GatewayRole,
  type LogLevel,
} from '@webhook-gateway/core';
import { loadPlugins } from '../builtin-plugins.js';
import { loadContext, type HomeOptions } from '../context.js';
import { openStore } from '../open-store.js';

export interface GatewayCommandOptions extends HomeOptions {
  logLevel: LogLevel;
  role: GatewayRole;
}

/** The line operators and scripts wait for (DESIGN §9). */
export function listeningLine(host: string, port: number, routes: string[]): string {
  return `[webhook] Listening on ${host}:${port} — routes: ${routes.length > 0 ? routes.join(', ') : '(none)'}`;
}

export async function runGateway(options: GatewayCommandOptions): Promise<void> {
  const context = await loadContext(options);
  const logger = createLogger({ home: context.home, level: options.logLevel });
  const { log } = logger;
  const store = await openStore(context.config.store, context.home);
  const plugins = await loadPlugins(context.config.plugins, context.dir);

  let gateway;
  try {
    gateway = await createGateway({
      config: context.config,
      home: context.home,
      store,
      log,
      plugins,
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  let address;
  try {
    address = await gateway.start();
  } catch (error) {
    await gateway.stop().catch(() => undefined);
    logger.flush();
    throw error;
  }
  const routes = Object.keys(gateway.config.platforms.webhook.extra.routes);
  if (address.listening) {
    log.info(
      { host: address.host, port: address.port, routes, store: store.kind, role: options.role },
      'listening',
    );
    process.stdout.write(`${listeningLine(address.host, address.port, routes)}\n`);
  } else {
    log.info({ store: store.kind, role: options.role }, 'worker started');
    process.stdout.write(`[webhook] Worker started — store: ${store.kind}\n`);
  }

  let stopping = false;
  const stop = (signal: NodeJS.Signals) => {
    if (stopping) {
      log.warn(
        { signal },
        'second signal: exiting now; unfinished work is requeued at the next start',
      );
      logger.flush();
      process.exit(1);
    }
    stopping = true;
    log.info({ signal }, 'stopping: no new deliveries, letting running work finish');
    gateway
      .stop()
      .then(() => {
        log.info('stopped');
        logger.flush();
        process.exit(0);
      })
      .catch((error: unknown) => {
        log.error({ err: errorMessage(error) }, 'stop failed');
        logger.flush();
        process.exit(1);
      });
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);

  // SIGHUP reloads routes, secrets and filters; an invalid file keeps the running config.
  process.on('SIGHUP', () => {
    loadConfig({ home: context.home, configFile: options.config })
      .then((next) => {
        gateway.reload(next.config);
        log.info(
          { routes: Object.keys(next.config.platforms.webhook.extra.routes) },
          'config reloaded',
        );
      })
      .catch((error: unknown) => {
        const problems =
          error instanceof ConfigError
            ? error.problems
            : [{ path: '', message: errorMessage(error) }];
        log.error({ problems }, 'config reload rejected; keeping the running config');
      });
  });
}
