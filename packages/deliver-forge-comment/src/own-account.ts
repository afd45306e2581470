/**
 * The gateway's own forge accounts, asked once at start (`gh api user`, `glab api user`), so the
 * loop guard (core's `isOwnComment`) also knows comments those accounts wrote.
 */
import {
  isOwnComment,
  type FilterRequest,
  type FilterVerdict,
  type Logger,
  type OwnAccounts,
} from '@webhook-gateway/core';
import { z } from 'zod';
import { askForgeApi, type ApiClient } from './forge-api.js';

const forgeUser = z.object({ login: z.string().min(1) });
const altforgeUser = z.object({ username: z.string().min(1) });

/**
 * Asks each platform once. A platform that cannot be asked is logged and left out: the marker
 * in the gateway's own comments still guards against loops.
 */
export async function askOwnAccounts(
  clients: {
    forge?: ApiClient;
    /** With `platforms.forge.app`: the App's bot, `<slug>[bot]` (`GET /app`). */
    forgeApp?: () => Promise<string>;
    /** One per altforge token. */
    altforge?: ApiClient[];
  },
  log: Logger,
): Promise<OwnAccounts> {
  const accounts: OwnAccounts = {};
  if (clients.forge || clients.forgeApp) {
    try {
      accounts.forge = clients.forgeApp
        ? await clients.forgeApp()
        : (await askForgeApi(clients.forge as ApiClient, 'user', forgeUser)).login;
      log.info(
        { platform: 'forge', account: accounts.forge },
        'comments by this account are ignored',
      );
    } catch (error) {
      log.warn(
        { platform: 'forge', err: String(error) },
        'could not ask the forge who the gateway is',
      );
    }
  }
  for (const client of clients.altforge ?? []) {
    try {
      const account = (await askForgeApi(client, 'user', altforgeUser)).username;
      accounts.altforge = [...(accounts.altforge ?? []), account];
      log.info({ platform: 'altforge', account }, 'comments by this account are ignored');
    } catch (error) {
      log.warn(
        { platform: 'altforge', err: String(error) },
        'could not ask the altforge who the gateway is',
      );
    }
  }
  return accounts;
}

/** The `filter` verdict of the loop guard once the accounts are known: `self` for its own comments. */
export function ownCommentVerdict(
  accounts: OwnAccounts,
  request: Pick<FilterRequest, 'event' | 'payload' | 'authScheme'>,
): FilterVerdict | undefined {
  return isOwnComment(request.event, request.payload, accounts, request.authScheme)
    ? { reason: 'self' }
    : undefined;
}
