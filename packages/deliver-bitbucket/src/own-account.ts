/**
 * The loop guard's Bitbucket Cloud account: every name of `platforms.bitbucket.token`'s account
 * (`GET /user`, asked once per token), with `platforms.bitbucket.bot` beside it, so comments that
 * account wrote are ignored with reason `self` even without the gateway's marker. Bitbucket does
 * not say who an access token's bot user is: then `bot` alone names it.
 */
import { isOwnComment, type FilterRequest, type Logger } from '@webhook-gateway/core';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { cloudTokenAccount } from './account-calls.js';
import {
  bitbucketConnection,
  type BitbucketConnection,
  type BitbucketSettings,
} from './settings.js';

/** The accounts, asked at most once per connection; a failed ask is logged, not repeated. */
export class BitbucketOwnAccounts {
  private readonly asked = new Map<string, Promise<string[]>>();
  constructor(
    private readonly options: HttpTargetOptions,
    private readonly log: Logger,
  ) {}

  /** The token's names, when Bitbucket told them, and `bot`, when set. */
  async names(settings: BitbucketSettings): Promise<string[]> {
    const found = bitbucketConnection(settings);
    const told = found.ok ? await this.account(found.connection, settings.bot) : [];
    return [...new Set([...told, settings.bot])].filter((name) => name !== undefined);
  }

  /** True when the gateway wrote the Cloud comment: its marker, or its account. */
  async isOwn(request: FilterRequest, settings: BitbucketSettings): Promise<boolean> {
    const bitbucket = await this.names(settings);
    return isOwnComment(request.event, request.payload, { bitbucket }, 'bitbucket');
  }

  private account(connection: BitbucketConnection, bot: string | undefined): Promise<string[]> {
    const key = `${connection.apiBase} ${connection.token}`;
    let asked = this.asked.get(key);
    if (!asked) {
      asked = this.ask(connection, bot);
      this.asked.set(key, asked);
    }
    return asked;
  }

  private async ask(connection: BitbucketConnection, bot: string | undefined): Promise<string[]> {
    try {
      const names = await cloudTokenAccount({
        connection,
        options: this.options,
        signal: AbortSignal.timeout(this.options.check_timeout_s * 1000),
        log: this.log,
        target: 'loop guard',
      });
      this.log.info(
        { platform: 'bitbucket', account: names.join(', ') },
        'comments by this account are ignored',
      );
      return names;
    } catch (error) {
      // An access token's bot user: Bitbucket will not say who it is; `bot` names it.
      this.log[bot === undefined ? 'warn' : 'info'](
        { platform: 'bitbucket', err: String(error), ...(bot ? { account: bot } : {}) },
        bot === undefined
          ? 'could not ask bitbucket who the gateway is; set platforms.bitbucket.bot to its account (an access token: its bot user) so the loop guard knows its comments without the marker'
          : 'bitbucket did not say who the token is; comments by platforms.bitbucket.bot are ignored',
      );
      return [];
    }
  }
}
