/**
 * The loop guard's Gitea account: the login of `platforms.gitea.token` (`GET /user`, asked once
 * per instance and token), with `platforms.gitea.bot` beside it, so comments that account wrote
 * are ignored with reason `self` even without the gateway's marker.
 */
import { isOwnComment, type FilterRequest, type Logger } from '@webhook-gateway/core';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { giteaApi } from './gitea-api.js';
import { giteaConnection, type GiteaConnection, type GiteaSettings } from './settings.js';

/** The accounts, asked at most once per connection; a failed ask is logged, not repeated. */
export class GiteaOwnAccounts {
  private readonly logins = new Map<string, Promise<string | undefined>>();
  constructor(
    private readonly options: HttpTargetOptions,
    private readonly log: Logger,
  ) {}

  /** The token's login, when Gitea told it, and `bot`, when set. */
  async names(settings: GiteaSettings): Promise<string[]> {
    const found = giteaConnection(settings);
    const login = found.ok ? await this.login(found.connection) : undefined;
    return [...new Set([login, settings.bot])].filter((name) => name !== undefined);
  }

  /** True when the gateway wrote the comment: its marker, or its account. */
  async isOwn(request: FilterRequest, settings: GiteaSettings): Promise<boolean> {
    const gitea = await this.names(settings);
    return isOwnComment(request.event, request.payload, { gitea }, 'gitea');
  }

  private login(connection: GiteaConnection): Promise<string | undefined> {
    const key = `${connection.apiBase} ${connection.token}`;
    let asked = this.logins.get(key);
    if (!asked) {
      asked = this.ask(connection);
      this.logins.set(key, asked);
    }
    return asked;
  }

  private async ask(connection: GiteaConnection): Promise<string | undefined> {
    try {
      const login = await giteaApi({
        connection,
        options: this.options,
        signal: AbortSignal.timeout(this.options.check_timeout_s * 1000),
        log: this.log,
        target: 'loop guard',
      }).currentUser();
      this.log.info({ platform: 'gitea', account: login }, 'comments by this account are ignored');
      return login;
    } catch (error) {
      // The marker in the gateway's own comments, and `bot`, still guard against loops.
      this.log.warn(
        { platform: 'gitea', err: String(error) },
        'could not ask gitea who the gateway is',
      );
      return undefined;
    }
  }
}
