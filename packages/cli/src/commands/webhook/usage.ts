/** Usage errors found after commander parsed the line: one line on stderr, exit 2. */
import { CommanderError } from 'commander';

/** Prints `message` as one line and ends the command with exit code 2 (bin.ts maps it). */
export function failUsage(message: string): never {
  process.stderr.write(`${message}\n`);
  throw new CommanderError(2, 'webhook-gateway.usage', message);
}
