/** `webhook-gateway plugin init <name>`: a new plugin package that passes `npm test` as written. */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Command } from 'commander';
import { z } from 'zod';
import { pluginPackageFiles, type PluginVersions } from './package-files.js';
import { PLUGIN_KINDS } from './sources.js';

/** npm's rule for a new package name: lower case, an optional scope, no spaces. */
const PACKAGE_NAME = /^(@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

const initOptionsSchema = z.object({
  name: z
    .string()
    .regex(PACKAGE_NAME, 'must be an npm package name, e.g. @acme/webhook-gateway-deliver-pager'),
  kind: z.enum(PLUGIN_KINDS).default('target'),
  dir: z.string().min(1).optional(),
});

/** vitest's range for the test a new plugin has (the version this repository tests with). */
const VITEST_RANGE = '^4.1.12';

/** The ranges the running CLI itself depends on, so a new plugin matches it. */
function cliVersions(): PluginVersions {
  const require = createRequire(import.meta.url);
  const manifest = require('../../../package.json') as { dependencies: Record<string, string> };
  const { dependencies } = manifest;
  return {
    core: dependencies['@webhook-gateway/core'] ?? '*',
    zod: dependencies.zod ?? '^4.0.0',
    vitest: VITEST_RANGE,
  };
}

function pluginInit(raw: unknown): void {
  const options = initOptionsSchema.parse(raw);
  const dir = path.resolve(options.dir ?? options.name.split('/').pop() ?? options.name);
  if (fs.existsSync(dir) && fs.readdirSync(dir).length > 0) {
    throw new Error(`${dir} exists and is not empty; choose another folder with --dir`);
  }
  const files = pluginPackageFiles(options.kind, options.name, cliVersions());
  for (const [relative, text] of Object.entries(files)) {
    const file = path.join(dir, relative);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    process.stdout.write(`wrote ${file}\n`);
  }
  process.stdout.write(
    [
      '',
      'Next:',
      `  cd ${path.relative(process.cwd(), dir) || '.'}`,
      '  npm install',
      '  npm test',
      '',
    ].join('\n'),
  );
}

export function registerPluginCommands(program: Command): void {
  const plugin = program.command('plugin').description('write plugins of your own');
  plugin
    .command('init')
    .description('write a new plugin package (package.json, the plugin, its test, a README)')
    .argument('<name>', 'its npm package name, e.g. @acme/webhook-gateway-deliver-pager')
    .option('--kind <kind>', `what it provides: ${PLUGIN_KINDS.join(', ')}`, 'target')
    .option('--dir <dir>', 'the folder to write (default: the last part of the name)')
    .action((name: string, options: Record<string, unknown>) => {
      pluginInit({ ...options, name });
    });
}
