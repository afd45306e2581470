/** `webhook-gateway gateway`: load config and plugins, listen, run until a signal. */
import { errorMessage } from '@webhook-gateway/core';
import {
  createGateway,
  createLogger,
  resolveConfigPath,
  type GatewayRole,
  type LogLevel,
} from '@webhook-gateway/core/runtime';
import { Option, type Command } from 'commander';
import { gatewayProblems } from '../../config-check.js';
import { loadContext } from '../../context.js';
import { writePidFile } from '../../gateway-pid.js';
import { addHomeOptions, type HomeOptions } from '../../home-options.js';
import { openStore } from '../../open-store.js';
import { openTracer } from '../../open-tracer.js';
import { createConfigReloader } from './reload-config.js';
import { configWatchEnabled, loadConfigForReload } from './reload-load.js';
import { watchConfigFile } from './reload-watch.js';
import { favourMemoryFootprint } from './v8-footprint.js';

interface GatewayCommandOptions extends HomeOptions {
  logLevel: LogLevel;
  role: GatewayRole;
}

/** The line operators and scripts wait for (`docs/contract.md#the-command-line`). */
export function listeningLine(host: string, port: number, routes: string[]): string {
  return `[webhook] Listening on ${host}:${port} — routes: ${routes.length > 0 ? routes.join(', ') : '(none)'}`;
}

async function runGateway(options: GatewayCommandOptions): Promise<void> {
  favourMemoryFootprint();
  const context = await loadContext(options);
  const logger = createLogger({ home: context.home, level: options.logLevel });
  const { log } = logger;
  // pino flushes its file at exit and throws if the file is not open yet: wait for it.
  await logger.ready;
  const store = await openStore(context.config.store, context, { longRunning: true });
  const { plugins } = context;

  let gateway;
  try {
    const tracer = await openTracer(context.config, log);
    gateway = await createGateway({
      config: context.config,
      home: context.home,
      store,
      log,
      plugins,
      role: options.role,
      ...(tracer ? { tracer } : {}),
    });
  } catch (error) {
    await store.close();
    throw error;
  }
  // SIGHUP or a change of the config file reloads routes, secrets and filters, checked as at
  // start; an invalid file keeps the running config. Set up before listening, so no change made
  // after the listening line is missed.
  const reload = createConfigReloader({
    load: () => loadConfigForReload(context.home, options.config),
    check: (next) => gatewayProblems(next, { home: context.home, plugins }),
    current: () => gateway.config,
    apply: (next) => gateway.reload(next),
    log,
  });
  process.on('SIGHUP', () => void reload('SIGHUP'));
  const configFile = resolveConfigPath(context.home, options.config);
  const watcher = configWatchEnabled()
    ? watchConfigFile(configFile, () => void reload('file change'), {
        onError: (error) =>
          log.warn(
            { file: configFile, err: errorMessage(error) },
            'stopped watching the config file; reload with SIGHUP',
          ),
      })
    : undefined;

  let address;
  try {
    address = await gateway.start();
  } catch (error) {
    watcher?.close();
    await gateway.stop().catch(() => undefined);
    logger.flush();
    throw error;
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
    watcher?.close();
    log.info(
      { signal, running: gateway.queue.runningCount },
      'stopping: draining, no new attempts, letting running ones finish',
    );
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
  // For `webhook-gateway drain`, which sends SIGTERM to the process it names.
  process.once('exit', writePidFile(context.home));
  // Announced once a signal stops it in order: a SIGTERM right after the line would otherwise end
  // the process before its buffered log lines are written.
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
}

/** Adds `gateway`, the long-running command. */
export function registerGatewayCommand(program: Command): void {
  addHomeOptions(program.command('gateway').description('start the gateway'))
    .addOption(
      new Option('--log-level <level>', 'log level')
        .choices(['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'])
        .default('info'),
    )
    .addOption(
      new Option(
        '--role <role>',
        'all: receive and run; receiver: answer HTTP and enqueue; worker: run deliveries',
      )
        .choices(['all', 'receiver', 'worker'])
        .default('all'),
    )
    .action(async (options: GatewayCommandOptions) => {
      await runGateway(options);
    });
}
