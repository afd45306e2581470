/**
 * `webhook-gateway import hermes <config.yaml> [<webhook_subscriptions.json>]`: Hermes Agent's
 * webhook routes, subscriptions and delivery platforms written into this gateway's home, with a
 * report of each key mapped and each key with no equivalent (and what to do instead).
 */
import path from 'node:path';
import { CommanderError, type Command } from 'commander';
import { ConfigError, errorMessage } from '@webhook-gateway/core';
import { loadConfig, resolveConfigPath, resolveHome } from '@webhook-gateway/core/runtime';
import { z } from 'zod';
import { loadPlugins } from '../../builtin-plugins.js';
import { addHomeOptions } from '../../home-options.js';
import { HermesFileError, readHermesConfig, readHermesSubscriptions } from './hermes-files.js';
import { planHermesImport } from './import-plan.js';
import { formatImportReport } from './import-report.js';
import { writeImport } from './home-writer.js';

const optionsSchema = z.object({
  home: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
  dryRun: z.boolean().default(false),
  json: z.boolean().default(false),
});

/** The config problems the gateway would stop on, as lines to fix before starting it. */
async function startProblems(home: string, configFile: string): Promise<string[]> {
  try {
    await loadConfig({ home, configFile, loadPlugins });
    return [];
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    return [errorMessage(error)];
  }
}

async function importHermes(
  configArgument: string,
  subscriptionsArgument: string | undefined,
  raw: unknown,
): Promise<void> {
  const options = optionsSchema.parse(raw);
  const hermesConfigFile = path.resolve(configArgument);
  const hermesConfig = readHermesConfig(hermesConfigFile);
  const subscriptions =
    subscriptionsArgument === undefined
      ? undefined
      : readHermesSubscriptions(path.resolve(subscriptionsArgument));
  const home = resolveHome(options.home);
  const configFile = resolveConfigPath(home, options.config);

  const plan = planHermesImport({
    config: hermesConfig,
    configFile: hermesConfigFile,
    subscriptions,
  });
  const written = await writeImport(plan, { home, configFile, dryRun: options.dryRun });
  const problems = options.dryRun ? [] : await startProblems(home, configFile);
  const report = {
    from: { config: hermesConfigFile, subscriptions: subscriptionsArgument },
    to: configFile,
    dryRun: options.dryRun,
    notes: [...plan.notes, ...written.notes],
    routes: written.routesWritten,
    subscriptions: written.subscriptionsWritten,
    files: written.filesCopied,
    secretsWritten: written.secretsWritten,
    problems,
  };
  process.stdout.write(
    options.json ? `${JSON.stringify(report, null, 2)}\n` : `${formatImportReport(report)}\n`,
  );
}

/** Adds `import hermes`. */
export function registerImportCommands(program: Command): void {
  const command = program
    .command('import')
    .description("bring another gateway's config into this home");
  addHomeOptions(
    command
      .command('hermes')
      .description(
        "write Hermes Agent's webhook routes, subscriptions and delivery platforms into this home, reporting each key",
      )
      .argument('<config.yaml>', "Hermes' config file (~/.hermes/config.yaml)")
      .argument(
        '[webhook_subscriptions.json]',
        "Hermes' subscriptions (~/.hermes/webhook_subscriptions.json)",
      ),
  )
    .option('--dry-run', 'report what would be written, and write nothing')
    .option('--json', 'print the report as JSON')
    .action(async (config: string, subscriptions: string | undefined, options: unknown) => {
      try {
        await importHermes(config, subscriptions, options);
      } catch (error) {
        if (!(error instanceof HermesFileError)) throw error;
        process.stderr.write(`error: ${error.message}\n`);
        throw new CommanderError(2, 'webhook-gateway.import', error.message);
      }
    });
}
