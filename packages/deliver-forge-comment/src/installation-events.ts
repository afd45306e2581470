/**
 * The App's `installation` and `installation_repositories` events: the forge sends them to the
 * App's webhook when the App is installed, removed or given repositories. They are logged and
 * answered as ignored: there is nothing for an agent to do.
 */
import {
  lookupPath,
  type FilterRequest,
  type FilterVerdict,
  type Logger,
} from '@webhook-gateway/core';

const INSTALLATION_EVENTS = new Set(['installation', 'installation_repositories']);

/** The names in a payload's list of repositories (`repositories_added`, …). */
function repositoryNames(value: unknown): string[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((repo: unknown) => {
    const name =
      typeof repo === 'object' && repo !== null
        ? (repo as { full_name?: unknown }).full_name
        : undefined;
    return typeof name === 'string' ? [name] : [];
  });
}

/** `{ reason: 'installation' }` (after logging it) for an installation event, else `undefined`. */
export function installationEvent(
  request: Pick<FilterRequest, 'route' | 'event' | 'action' | 'payload'>,
  log: Logger,
): FilterVerdict | undefined {
  if (!INSTALLATION_EVENTS.has(request.event)) return undefined;
  const { payload } = request;
  const added = repositoryNames(payload.repositories_added ?? payload.repositories);
  const removed = repositoryNames(payload.repositories_removed);
  log.info(
    {
      route: request.route,
      event: request.event,
      action: request.action,
      installation_id: lookupPath(payload, 'installation.id'),
      account: lookupPath(payload, 'installation.account.login'),
      ...(added.length > 0 ? { repositories_added: added } : {}),
      ...(removed.length > 0 ? { repositories_removed: removed } : {}),
    },
    'the App installation changed',
  );
  return { reason: 'installation' };
}
