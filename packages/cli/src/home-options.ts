/** `--home` and `--config`: where a command finds the gateway home and its config file. */
import { Option, type Command } from 'commander';

/** The values of those options as commander hands them to an action. */
export interface HomeOptions {
  home?: string;
  config?: string;
}

/**
 * Adds `--home <dir>` and, unless `config` is false, `--config <file>` to a command; every
 * command that reads the gateway home takes them from here, so they read alike in every --help.
 * `init` takes only `--home`: it writes the config file where the gateway looks by default.
 *
 * @example addHomeOptions(program.command('webhook').command('list')).option('--json', 'print as JSON')
 */
export function addHomeOptions(
  command: Command,
  { config = true }: { config?: boolean } = {},
): Command {
  command.addOption(
    new Option(
      '--home <dir>',
      'gateway home (default: $WEBHOOK_GATEWAY_HOME or ~/.webhook-gateway)',
    ),
  );
  if (config) {
    command.addOption(new Option('--config <file>', 'config file (default: <home>/config.yaml)'));
  }
  return command;
}
