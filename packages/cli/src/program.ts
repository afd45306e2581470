/** The `webhook-gateway` command line. */
import { createRequire } from 'node:module';
import { Command, Option } from 'commander';
import { registerConfigCommands } from './commands/config/command.js';
import { registerDeliveriesCommands } from './commands/deliveries/command.js';
import { runGateway, type GatewayCommandOptions } from './commands/gateway/command.js';
import { registerInitCommand } from './commands/init/command.js';
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

  const homeOption = new Option(
    '--home <dir>',
    'gateway home (default: $WEBHOOK_GATEWAY_HOME or ~/.webhook-gateway)',
  );
  const configOption = new Option('--config <file>', 'config file (default: <home>/config.yaml)');

  program
    .command('gateway')
    .description('start the gateway')
    .addOption(homeOption)
    .addOption(configOption)
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

  registerDeliveriesCommands(program);
  registerWebhookCommands(program);
  registerConfigCommands(program);
  registerInitCommand(program);
  return program;
}
