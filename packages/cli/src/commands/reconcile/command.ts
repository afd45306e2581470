/**
 * `webhook-gateway reconcile [--route R] [--since 24h] [--dry-run] [--json]`: one pass over the
 * routes that name their forge hook (`reconcile:`), asking the forge to redeliver what never
 * reached the journal. With `platforms.forge.app`, `--route R` reads the App's log for R when the
 * App's webhook points at R, whether or not R has `reconcile:`. Works beside a running gateway
 * (the journal is shared).
 */
import { CommanderError, Option, type Command } from 'commander';
import { ConfigError, settingsIn } from '@webhook-gateway/core';
import forgeCommentPlugin from '@webhook-gateway/deliver-forge-comment';
import {
  appRouteCandidate,
  reconcileConfigProblems,
  reconciledRoutes,
} from '@webhook-gateway/reconcile';
import { runReconcilePass } from '@webhook-gateway/reconcile/pass';
import { addHomeOptions } from '../../home-options.js';
import { OptionsError } from '../deliveries/options.js';
import { loadContext } from '../../context.js';
import { openStore } from '../../open-store.js';
import { formatReconcile, reconcileExitCode, reconcileJson } from './format.js';
import { DEFAULT_SINCE, parseReconcileOptions } from './options.js';

async function reconcile(rawOptions: unknown): Promise<void> {
  const options = parseReconcileOptions(rawOptions);
  const context = await loadContext(options);
  // The same rules the gateway checks at start (hook_id: auto needs extra.public_url).
  const problems = reconcileConfigProblems(context.config);
  if (problems.length > 0) throw new ConfigError(problems);
  const routes = reconciledRoutes(context.config).map((entry) => entry.route);
  // With the App, a route without reconcile: is read as the App's (the pass checks that the
  // App's webhook points at it).
  const asApp =
    options.route !== undefined &&
    !routes.includes(options.route) &&
    appRouteCandidate(context.config, options.route) !== undefined;
  if (options.route !== undefined && !routes.includes(options.route) && !asApp) {
    throw new OptionsError(
      `--route ${options.route}: no route of that name names its forge hook (routes with reconcile: ${routes.join(', ') || 'none'})`,
    );
  }
  if (routes.length === 0 && !asApp) {
    process.stdout.write(
      'no route names its forge hook: add reconcile: to a route (docs/reconcile.md)\n',
    );
    return;
  }
  if (context.config.store.kind === 'memory') {
    throw new Error(
      'store.kind is "memory": the journal lives only inside the gateway process, so a separate reconcile cannot tell what it holds; use sqlite or redis',
    );
  }
  const store = await openStore(context.config.store, context);
  try {
    const result = await runReconcilePass({
      config: context.config,
      forges: settingsIn(forgeCommentPlugin, context.config),
      store,
      home: context.home,
      window: { sinceMs: Date.now() - options.since },
      ...(options.route === undefined ? {} : { routes: [options.route] }),
      dryRun: options.dryRun,
    });
    if (options.json)
      process.stdout.write(`${JSON.stringify(reconcileJson(result, options.dryRun), null, 2)}\n`);
    else process.stdout.write(`${formatReconcile(result, options.dryRun)}\n`);
    // 1 when something that needed redelivery was not asked for (the table says why).
    process.exitCode = reconcileExitCode(result);
  } finally {
    await store.close();
  }
}

/** Adds `reconcile`. */
export function registerReconcileCommand(program: Command): void {
  addHomeOptions(
    program
      .command('reconcile')
      .description(
        'ask the forge to redeliver what its delivery log shows never reached the journal',
      )
      .addOption(new Option('--route <route>', 'only this route'))
      .addOption(
        new Option(
          '--since <duration>',
          `how far back to read the forge's log: 90m, 24h, 3d`,
        ).default(DEFAULT_SINCE),
      ),
  )
    .option('--dry-run', 'list what would be redelivered; ask for nothing')
    .option('--json', 'print JSON for scripts')
    .action(async (options: unknown) => {
      try {
        await reconcile(options);
      } catch (error) {
        if (!(error instanceof OptionsError)) throw error;
        process.stderr.write(`error: ${error.message}\n`);
        throw new CommanderError(2, 'webhook-gateway.usage', error.message);
      }
    });
}
