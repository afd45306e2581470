/** `webhook-gateway config validate|schema`: check a config as the gateway would; print its schema. */
import { errorMessage } from '@webhook-gateway/core';
import {
  configJsonSchema,
  loadConfig,
  configSlicesOf,
  resolveHome,
  type LoadedPlugin,
} from '@webhook-gateway/core/runtime';
import { builtinPlugins, loadPlugins } from '../../builtin-plugins.js';
import type { Command } from 'commander';
import { z } from 'zod';
import { formatProblem } from '../../config-problems.js';
import { addHomeOptions } from '../../home-options.js';
import { validateConfigFile } from './validate.js';

const validateOptionsSchema = z.object({
  home: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
  json: z.boolean().default(false),
});

/** The OK line: which file, and the routes it serves. */
function okLine(file: string, exists: boolean, routes: string[]): string {
  const served = routes.length > 0 ? routes.join(', ') : '(none)';
  return exists
    ? `config OK: ${file} — routes: ${served}`
    : `config OK: no file at ${file}; the embedded defaults apply — routes: ${served}`;
}

async function validate(raw: unknown): Promise<void> {
  const options = validateOptionsSchema.parse(raw);
  const result = await validateConfigFile(options);
  const routes = Object.keys(result.config?.platforms.webhook.extra.routes ?? {});
  if (options.json) {
    process.stdout.write(
      `${JSON.stringify({ file: result.file, ok: result.problems.length === 0, routes, problems: result.problems, warnings: result.warnings }, null, 2)}\n`,
    );
    if (result.problems.length > 0) process.exitCode = 1;
    return;
  }
  for (const warning of result.warnings) {
    process.stderr.write(
      `warning: ${warning.keyPath ? `${warning.keyPath}: ` : ''}${warning.message}\n`,
    );
  }
  if (result.problems.length === 0) {
    process.stdout.write(`${okLine(result.file, result.exists, routes)}\n`);
  } else {
    for (const problem of result.problems)
      process.stderr.write(`invalid config: ${formatProblem(problem)}\n`);
  }
  if (result.problems.length > 0) process.exitCode = 1;
}

const schemaOptionsSchema = z.object({
  home: z.string().min(1).optional(),
  config: z.string().min(1).optional(),
});

/** The schema of core, the built-ins and the plugins the config lists (when it loads). */
async function printSchema(raw: unknown): Promise<void> {
  const options = schemaOptionsSchema.parse(raw);
  let plugins: LoadedPlugin[];
  try {
    const home = resolveHome(options.home);
    plugins = (await loadConfig({ home, configFile: options.config, loadPlugins })).plugins;
  } catch (error) {
    // The schema is what helps fix a broken config: print it with the built-ins' settings.
    process.stderr.write(
      `the config did not load (${errorMessage(error).split('\n')[0]}); the schema has the built-in plugins' settings only\n`,
    );
    plugins = builtinPlugins();
  }
  const slices = configSlicesOf(plugins.map((loaded) => loaded.plugin));
  process.stdout.write(`${JSON.stringify(configJsonSchema(slices), null, 2)}\n`);
}

export function registerConfigCommands(program: Command): void {
  const config = program.command('config').description('check the config, print its JSON Schema');

  addHomeOptions(
    config
      .command('validate')
      .description('check the config as the gateway would at start (exit 1 on any problem)'),
  )
    .option('--json', 'print the result as JSON')
    .action(async (options: unknown) => {
      await validate(options);
    });

  addHomeOptions(
    config
      .command('schema')
      .description(
        "print the JSON Schema of config.yaml (for editors), with the settings of the config's plugins",
      ),
  ).action(async (options: unknown) => {
    await printSchema(options);
  });
}
