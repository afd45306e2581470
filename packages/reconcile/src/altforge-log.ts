/**
 * The altforge's (GitLab's) delivery log of a project hook, through `glab api`:
 * `projects/:id/hooks/:hook_id/events` (page by page, `X-Next-Page`), and
 * `POST …/events/:id/resend`, which sends the same body with the same `Idempotency-Key`.
 */
import { z } from 'zod';
import type { DeliveryLog, LoggedDelivery } from './delivery-log.js';
import { MAX_PAGES } from './delivery-log.js';
import type { FailureContext } from './failures.js';
import { hookCaller, parseAnswer, type ApiCaller } from './hook-api.js';

const eventSchema = z.object({
  id: z.number(),
  trigger: z.string().default(''),
  request_headers: z.record(z.string(), z.string()).default({}),
  response_status: z.union([z.string(), z.number()]).default(''),
  created_at: z.string().optional(),
});

/** The right a token needs on the altforge. */
export const ALTFORGE_HOOK_RIGHT = 'the api scope and the Maintainer role on the project';

/** The id the gateway journals an altforge delivery under (in `docs/contract.md#headers`'s order). */
function guidOf(headers: Readonly<Record<string, string>>): string | undefined {
  const lower = Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]));
  return lower['idempotency-key'] ?? lower['x-gitlab-event-uuid'];
}

/** "200" → 200; "internal error" and the like (no answer) → 0. */
function statusCodeOf(status: string | number): number {
  const code = typeof status === 'number' ? status : Number.parseInt(status, 10);
  return Number.isFinite(code) ? code : 0;
}

export function altforgeDeliveryLog(options: {
  project: string;
  hookId: number;
  api: ApiCaller;
  context: Omit<FailureContext, 'hook'>;
  now: () => number;
}): DeliveryLog {
  const hook = `projects/${encodeURIComponent(options.project)}/hooks/${options.hookId}`;
  const call = hookCaller({ ...options, hook });
  return {
    hook,
    async list(sinceMs) {
      const found: LoggedDelivery[] = [];
      let page: string | undefined = '1';
      for (let count = 0; page && count < MAX_PAGES; count++) {
        const response = await call('GET', `${hook}/events?per_page=100&page=${page}`);
        const items = parseAnswer(z.array(eventSchema), response, `${hook}/events`, 'altforge');
        let reachedSince = items.length === 0;
        for (const item of items) {
          const created = item.created_at === undefined ? NaN : Date.parse(item.created_at);
          if (Number.isFinite(created) && created < sinceMs) {
            reachedSince = true;
            continue;
          }
          const guid = guidOf(item.request_headers);
          if (guid === undefined) continue;
          found.push({
            id: String(item.id),
            guid,
            deliveredAt: Number.isFinite(created) ? created : options.now(),
            statusCode: statusCodeOf(item.response_status),
            event: item.trigger,
          });
        }
        page = response.headers['x-next-page'] || undefined;
        if (reachedSince) break;
      }
      return found;
    },
    async redeliver(delivery) {
      await call('POST', `${hook}/events/${delivery.id}/resend`);
    },
  };
}
