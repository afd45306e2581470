/** The `webhook-gateway` command line. */
import { createRequire } from 'node:module';
import { Command } from 'commander';

const require = createRequire(import.meta.url);
const { version } = require('../package.json') as { version: string };

type Register = (program: Command) => void;

/**
 * Each top-level command's module, imported only when needed: `webhook-gateway gateway` then
 * never loads (nor compiles) the modules of `deliveries`, `webhook`, `reconcile` and the rest,
 * which is a good part of its start-up.
 */
const COMMANDS: Readonly<Record<string, () => Promise<Register>>> = {
  gateway: async () => (await import('./commands/gateway/command.js')).registerGatewayCommand,
  deliveries: async () =>
    (await import('./commands/deliveries/command.js')).registerDeliveriesCommands,
  webhook: async () => (await import('./commands/webhook/command.js')).registerWebhookCommands,
  config: async () => (await import('./commands/config/command.js')).registerConfigCommands,
  init: async () => (await import('./commands/init/command.js')).registerInitCommand,
  reconcile: async () => (await import('./commands/reconcile/command.js')).registerReconcileCommand,
  plugin: async () => (await import('./commands/plugin/command.js')).registerPluginCommands,
  filters: async () => (await import('./commands/filters/command.js')).registerFiltersCommands,
  import: async () => (await import('./commands/import/command.js')).registerImportCommands,
  app: async () => (await import('./commands/app/command.js')).registerAppCommands,
  pause: async () => (await import('./commands/pause/command.js')).registerPauseCommand,
  resume: async () => (await import('./commands/pause/command.js')).registerResumeCommand,
  drain: async () => (await import('./commands/drain/command.js')).registerDrainCommand,
};

/**
 * The program with the command `name` (the first argument) registered, or with every command
 * when `name` is not one of them (no argument, `--help`, `--version`, a typo): help lists them
 * all and commander suggests the nearest.
 */
export async function createProgram(name?: string): Promise<Command> {
  const program = new Command('webhook-gateway')
    .description('Receives forge webhooks, runs an AI agent on each and delivers the answer.')
    .version(version, '-v, --version', 'print the version')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: true })
    .exitOverride();

  const named = Object.entries(COMMANDS).filter(([command]) => command === name);
  const loaders = (named.length > 0 ? named : Object.entries(COMMANDS)).map(([, load]) => load);
  const registers = await Promise.all(loaders.map((load) => load()));
  for (const register of registers) register(program);
  return program;
}
