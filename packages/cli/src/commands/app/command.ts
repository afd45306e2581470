/** `webhook-gateway app create|status`: the GitHub App the gateway acts as (docs/github-app.md). */
import { CommanderError, Option, type Command } from 'commander';
import { addHomeOptions } from '../../home-options.js';
import { OptionsError } from '../deliveries/options.js';
import { createApp } from './create.js';
import { DEFAULT_APP_ROUTE } from './create-options.js';
import { appStatus } from './status.js';

/** Runs `action`; a bad option is one line on stderr and exit 2. */
async function withUsageErrors(action: () => Promise<void>): Promise<void> {
  try {
    await action();
  } catch (error) {
    if (!(error instanceof OptionsError)) throw error;
    process.stderr.write(`error: ${error.message}\n`);
    throw new CommanderError(2, 'webhook-gateway.usage', error.message);
  }
}

/** Adds `app create` and `app status`. */
export function registerAppCommands(program: Command): void {
  const app = program
    .command('app')
    .description('create the GitHub App the gateway acts as, and show its installations');

  addHomeOptions(
    app
      .command('create')
      .description(
        'make the GitHub App from a manifest (one button on a local page) and save its ID, key and webhook secret',
      )
      .addOption(new Option('--org <org>', 'make it for this organisation (default: your account)'))
      .addOption(
        new Option(
          '--public-url <url>',
          'where the forge reaches the gateway (default: platforms.webhook.extra.public_url)',
        ),
      )
      .addOption(
        new Option(
          '--github-url <url>',
          'the forge’s web address, e.g. a GitHub Enterprise Server (default: github.com, or the forge of platforms.forge.api_url)',
        ),
      )
      .addOption(
        new Option('--route <name>', 'the route the App’s webhook posts to').default(
          DEFAULT_APP_ROUTE,
        ),
      )
      .addOption(
        new Option('--name <name>', 'the App’s name (the forge asks again before making it)'),
      ),
  )
    .option('--force', 'replace an App already in the config, and its key file')
    .action(async (options: unknown) => withUsageErrors(() => createApp(options)));

  addHomeOptions(
    app
      .command('status')
      .description(
        'list the App’s installations and webhook, and whether the webhook reaches this gateway',
      ),
  )
    .option('--json', 'print JSON for scripts')
    .action(async (options: unknown) => withUsageErrors(() => appStatus(options)));
}
