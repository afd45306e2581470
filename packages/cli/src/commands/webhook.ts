/** `webhook-gateway webhook`: (not written yet). */
import type { Command } from 'commander';

export function registerWebhookCommands(_program: Command): void {
  // registered by the issue that delivers these commands
}
