/** `webhook-gateway deliveries`: (not written yet). */
import type { Command } from 'commander';

export function registerDeliveriesCommands(_program: Command): void {
  // registered by the issue that delivers these commands
}
