/** The `webhook-gateway` command line. */
import { createRequire } from 'node:module';
import { Command } from 'commander';
import { registerConfigCommands } from './commands/config/command.js';
import { registerDeliveriesCommands } from './commands/deliveries/command.js';
import { registerGatewayCommand } from './commands/gateway/command.js';
import { registerInitCommand } from './commands/init/command.js';
import { registerReconcileCommand } from './commands/reconcile/command.js';
import { registerPluginCommands } from './commands/plugin/command.js';
import { registerWebhookCommands } from './commands/webhook/command.js';

const require = createRequire(import.meta.url);
const { version } = require('../package.json') as { version: string };

export function createProgram(): Command {
  const program = new Command('webhook-gateway')
    .description('Receives forge webhooks, runs an AI agent on each and delivers the answer.')
    .version(version, '-v, --version', 'print the version')
    .showHelpAfterError('(run with --help for usage)')
    .configureHelp({ sortSubcommands: true })
    .exitOverride();

  registerGatewayCommand(program);
  registerDeliveriesCommands(program);
  registerWebhookCommands(program);
  registerConfigCommands(program);
  registerInitCommand(program);
  registerReconcileCommand(program);
  registerPluginCommands(program);
  return program;
}
