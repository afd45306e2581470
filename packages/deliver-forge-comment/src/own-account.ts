/**
 * The loop guard's second half: the gateway's own forge accounts, asked once at start
 * (`gh api user`, `glab api user`), and a filter that ignores comments those accounts wrote.
 */
import {
  commentAuthor,
  isCommentEvent,
  type FilterRequest,
  type FilterVerdict,
  type JsonObject,
  type Logger,
} from '@webhook-gateway/core';
import { z } from 'zod';
import { askForgeApi, type ApiClient } from './forge-api.js';

/** The accounts the gateway posts as, once known. */
export interface OwnAccounts {
  forge?: string;
  /** One per altforge token (`platforms.altforge.token` and `tokens`). */
  altforge?: string[];
}

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

function isAltforgeEvent(event: string, payload: JsonObject): boolean {
  return event === 'Note Hook' || event === 'note' || payload.object_kind === 'note';
}

/** `self` when a comment event was written by the gateway's own account on that platform. */
export function ownCommentVerdict(
  accounts: OwnAccounts,
  request: Pick<FilterRequest, 'event' | 'payload'>,
): FilterVerdict | undefined {
  if (!isCommentEvent(request.event, request.payload)) return undefined;
  const author = commentAuthor(request.event, request.payload);
  const own = isAltforgeEvent(request.event, request.payload)
    ? (accounts.altforge ?? [])
    : [accounts.forge];
  return author !== undefined && own.includes(author) ? { reason: 'self' } : undefined;
}
