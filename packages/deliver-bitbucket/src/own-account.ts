/**
 * The loop guard's Bitbucket accounts: every name of the token's account, asked once per token,
 * with that Bitbucket's `bot` beside it, so comments that account wrote are ignored with reason
 * `self` even without the gateway's marker. Cloud's token is asked `GET /user`; Bitbucket does not
 * say who an access token's bot user is: then `bot` alone names it. Data Center's token is named
 * by the `X-AUSERNAME` header of its answers, access tokens' bot users too
 * (`data-center-account-calls.ts`), and `data_center.bot` counts beside it.
 */
import { errorMessage, isOwnComment, type FilterRequest, type Logger } from '@webhook-gateway/core';
import type { HttpTargetOptions } from '@webhook-gateway/target-kit';
import { cloudTokenAccount, type AccountCallContext } from './account-calls.js';
import { dataCenterTokenAccount } from './data-center-account-calls.js';
import { isCloudPayload } from './sender.js';
import {
  bitbucketConnection,
  dataCenterConnection,
  type BitbucketConnection,
  type BitbucketSettings,
} from './settings.js';

/** One Bitbucket's way of asking who its token is, and the words its log lines use. */
export interface AccountSource {
  platform: string;
  botKey: string;
  /** Who `bot` is, in the warning when the token's account is not told. */
  botIs: string;
  ask(context: AccountCallContext): Promise<string[]>;
}

export const CLOUD: AccountSource = {
  platform: 'bitbucket',
  botKey: 'platforms.bitbucket.bot',
  botIs: 'its account (for an access token: its bot user)',
  ask: cloudTokenAccount,
};

export const DATA_CENTER: AccountSource = {
  platform: 'bitbucket data center',
  botKey: 'platforms.bitbucket.data_center.bot',
  botIs: "the token's user name",
  ask: dataCenterTokenAccount,
};

/**
 * Who wrote the gateway's own comments, for its finding threads: `bot` when set, else the token's
 * account names; an account the forge will not tell is an error naming the `bot` key to set.
 */
export async function commentAuthorNames(
  source: AccountSource,
  context: AccountCallContext,
  bot: string | undefined,
): Promise<string[]> {
  if (bot !== undefined) return [bot];
  try {
    return await source.ask(context);
  } catch (error) {
    throw new Error(
      `cannot tell the gateway's own comments: set ${source.botKey} (${errorMessage(error)})`,
    );
  }
}

/** The accounts, asked at most once per connection; a failed ask is logged, not repeated. */
export class BitbucketOwnAccounts {
  private readonly asked = new Map<string, Promise<string[]>>();
  constructor(
    private readonly options: HttpTargetOptions,
    private readonly log: Logger,
  ) {}

  /** Cloud's token's names, when Bitbucket told them, and `bot`, when set. */
  async names(settings: BitbucketSettings): Promise<string[]> {
    const found = bitbucketConnection(settings);
    const told = found.ok ? await this.account(CLOUD, found.connection, settings.bot) : [];
    return [...new Set([...told, settings.bot])].filter((name) => name !== undefined);
  }

  /** Data Center's token's user name, when it told it, and `data_center.bot`, when set. */
  async dataCenterNames(settings: BitbucketSettings): Promise<string[]> {
    const bot = settings.data_center?.bot;
    const found = dataCenterConnection(settings);
    const told = found.ok ? await this.account(DATA_CENTER, found.connection, bot) : [];
    return [...new Set([...told, bot])].filter((name) => name !== undefined);
  }

  /** True when the gateway wrote the comment: its marker, or the account of its Bitbucket. */
  async isOwn(request: FilterRequest, settings: BitbucketSettings): Promise<boolean> {
    const bitbucket = isCloudPayload(request.payload)
      ? await this.names(settings)
      : await this.dataCenterNames(settings);
    return isOwnComment(request.event, request.payload, { bitbucket }, 'bitbucket');
  }

  private account(
    source: AccountSource,
    connection: BitbucketConnection,
    bot: string | undefined,
  ): Promise<string[]> {
    const key = `${connection.apiBase} ${connection.token}`;
    let asked = this.asked.get(key);
    if (!asked) {
      asked = this.ask(source, connection, bot);
      this.asked.set(key, asked);
    }
    return asked;
  }

  private async ask(
    source: AccountSource,
    connection: BitbucketConnection,
    bot: string | undefined,
  ): Promise<string[]> {
    const { platform } = source;
    try {
      const names = await source.ask({
        connection,
        options: this.options,
        signal: AbortSignal.timeout(this.options.check_timeout_s * 1000),
        log: this.log,
        target: 'loop guard',
      });
      this.log.info(
        { platform, account: names.join(', ') },
        'comments by this account are ignored',
      );
      return names;
    } catch (error) {
      // Cloud's access token: Bitbucket will not say who its bot user is; `bot` names it.
      // Data Center: no `X-AUSERNAME` (a proxy dropped it?); `data_center.bot` names it.
      this.log[bot === undefined ? 'warn' : 'info'](
        { platform, err: String(error), ...(bot ? { account: bot } : {}) },
        bot === undefined
          ? `could not ask ${platform} who the gateway is; set ${source.botKey} to ${source.botIs} so the loop guard knows its comments without the marker`
          : `${platform} did not say who the token is; comments by ${source.botKey} are ignored`,
      );
      return [];
    }
  }
}
