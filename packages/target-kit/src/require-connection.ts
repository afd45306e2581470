/** A target's connection from its platform's settings, or the error that names the missing key. */

/** The connection, or the first key of the platform's settings that is missing. */
export type FoundConnection<Connection> =
  { ok: true; connection: Connection } | { ok: false; missing: string };

/**
 * The connection; when a key is missing, throws an error not to be retried that names its path
 * (a dynamic subscription may name the target although no route does, so config checks miss it).
 *
 * @example
 * const connection = requireConnection(giteaConnection(settings), target, 'platforms.gitea');
 */
export function requireConnection<Connection>(
  found: FoundConnection<Connection>,
  target: string,
  settingsPath: string,
): Connection {
  if (found.ok) return found.connection;
  throw Object.assign(
    new Error(`${target}: cannot deliver: ${settingsPath}.${found.missing} is not set`),
    { retryable: false },
  );
}
