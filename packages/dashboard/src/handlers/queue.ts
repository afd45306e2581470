/** `/dashboard/queue`: running attempts and queued deliveries with their standing, and its live part. */
import { readQueueStandings } from '@webhook-gateway/core';
import type { AccessHandler } from '../access.js';
import { sendHtml } from '../answers.js';
import { queuePage, queueTables } from '../pages/queue-page.js';
import type { HandlerDeps } from './handler-deps.js';

export function queueHandlers({
  gate,
  store,
  config,
  now,
  refreshMs,
}: Pick<HandlerDeps, 'gate' | 'store' | 'config' | 'now' | 'refreshMs'>): {
  /** The page. */
  page: AccessHandler;
  /** Its tables alone, which the page reloads (`/dashboard/fragments/queue`). */
  tables: AccessHandler;
} {
  return {
    page: async (ctx, access) => {
      const read = await readQueueStandings(store, config, now());
      sendHtml(ctx, 200, queuePage({ read, refreshMs, ...gate.csrfOf(access) }));
    },
    tables: async (ctx) => {
      sendHtml(ctx, 200, queueTables(await readQueueStandings(store, config, now())));
    },
  };
}
