/** The human and `--json` output of `webhook-gateway app status`. */
import type { AppInstallationStatus, AppStatus } from '@webhook-gateway/deliver-forge-comment/app';
import { formatTable } from '../../table.js';
import { webhookMatchLine, type WebhookMatch } from './status-check.js';

/** `3 (selected)`, `12 (all)`; `? (…)` when the count could not be read. */
function repositoriesCell(installation: AppInstallationStatus): string {
  const count =
    'count' in installation.repositories ? String(installation.repositories.count) : '?';
  return `${count} (${installation.repositorySelection})`;
}

export function formatAppStatus(status: AppStatus, apiUrl: string, match: WebhookMatch): string {
  const { app, installations, webhook } = status;
  const lines = [`App: ${app.name} (${app.slug}, app_id ${app.id}) at ${apiUrl}`, ''];
  if (installations.length === 0) {
    lines.push('Installations: none (install the App from its page: Install App)');
  } else {
    lines.push(`Installations: ${installations.length}`);
    const rows = installations.map((i) => [
      i.account,
      i.accountType ?? '-',
      String(i.id),
      repositoriesCell(i),
      i.suspended ? 'suspended' : '',
    ]);
    lines.push(
      formatTable(['ACCOUNT', 'TYPE', 'INSTALLATION', 'REPOSITORIES', ''], rows)
        .split('\n')
        .map((line) => `  ${line}`)
        .join('\n'),
    );
    for (const i of installations) {
      if ('error' in i.repositories) {
        lines.push(`  ${i.account}: repositories not counted: ${i.repositories.error}`);
      }
    }
  }
  lines.push('');
  lines.push(
    webhook.url === ''
      ? 'Webhook: none (inactive)'
      : `Webhook: ${webhook.url} (${webhook.active ? 'active' : 'inactive'})`,
  );
  lines.push(`  ${webhookMatchLine(match)}`);
  return lines.join('\n');
}

/** `--json`: the same, for scripts. */
export function appStatusJson(status: AppStatus, apiUrl: string, match: WebhookMatch): object {
  return {
    app: { id: status.app.id, slug: status.app.slug, name: status.app.name, api_url: apiUrl },
    installations: status.installations.map((i) => ({
      id: i.id,
      account: i.account,
      account_type: i.accountType ?? null,
      repository_selection: i.repositorySelection,
      repositories: 'count' in i.repositories ? i.repositories.count : null,
      ...('error' in i.repositories ? { repositories_error: i.repositories.error } : {}),
      suspended: i.suspended,
    })),
    webhook: {
      url: status.webhook.url,
      active: status.webhook.active,
      route: match.kind === 'route' ? match.route : null,
      reaches_gateway: match.kind === 'route',
    },
  };
}

/** 0 when the webhook is active and reaches a route of this gateway, 1 otherwise. */
export function appStatusExitCode(status: AppStatus, match: WebhookMatch): number {
  return status.webhook.active && match.kind === 'route' ? 0 : 1;
}
