/**
 * Installation tokens, cached per installation, repository and permission set until 5 minutes
 * before they expire; deliveries that ask at the same time share one exchange.
 */
import type { AppClient, AppPermissions, InstallationToken } from './app-client.js';

/** A token is replaced this long before its `expires_at`, so no call carries a dying token. */
export const TOKEN_REFRESH_MARGIN_MS = 5 * 60_000;

/** The cache key: the same permissions in any order are one set. */
function tokenKey(installationId: number, repo: string, permissions: AppPermissions): string {
  const sorted = Object.entries(permissions).sort(([a], [b]) => a.localeCompare(b));
  return `${installationId}|${repo}|${JSON.stringify(sorted)}`;
}

export class InstallationTokens {
  private readonly tokens = new Map<string, Promise<InstallationToken>>();

  constructor(
    private readonly client: AppClient,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * A live token for `repo` (the repository's name, without its owner) with `permissions`.
   *
   * @example await tokens.get(42, 'hello', { contents: 'read', pull_requests: 'write' })
   */
  async get(installationId: number, repo: string, permissions: AppPermissions): Promise<string> {
    const key = tokenKey(installationId, repo, permissions);
    const cached = this.tokens.get(key);
    if (cached) {
      const token = await cached.catch(() => undefined);
      if (token && token.expiresAt - TOKEN_REFRESH_MARGIN_MS > this.now()) return token.token;
      // A failed or dying token: the first caller to get here replaces it.
      if (this.tokens.get(key) !== cached) return this.get(installationId, repo, permissions);
    }
    const exchange = this.client.exchange(installationId, [repo], permissions);
    this.tokens.set(key, exchange);
    try {
      return (await exchange).token;
    } catch (error) {
      if (this.tokens.get(key) === exchange) this.tokens.delete(key);
      throw error;
    }
  }
}
