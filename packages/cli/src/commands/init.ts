/** `webhook-gateway init`: (not written yet). */
import type { Command } from 'commander';

export function registerInitCommand(_program: Command): void {
  // registered by the issue that delivers these commands
}
