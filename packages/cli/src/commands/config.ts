/** `webhook-gateway config`: (not written yet). */
import type { Command } from 'commander';

export function registerConfigCommands(_program: Command): void {
  // registered by the issue that delivers these commands
}
