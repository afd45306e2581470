/**
 * The forge's (GitHub's) delivery log of a hook: a repository's or organization's through
 * `gh api`, or the GitHub App's own (`app/hook`, with the App's JWT). Both list
 * `…/deliveries?per_page=100` newest first, the next page's `cursor` in the `Link` header, and
 * redeliver with `POST …/deliveries/{id}/attempts`.
 */
import LinkHeader from 'http-link-header';
import { z } from 'zod';
import type { DeliveryLog, LoggedDelivery } from './delivery-log.js';
import { MAX_PAGES } from './delivery-log.js';
import { ReconcileFailure, type FailureContext } from './failures.js';
import { hookCaller, parseAnswer, type ApiCaller } from './hook-api.js';

const deliverySchema = z.object({
  id: z.number(),
  guid: z.string().min(1),
  delivered_at: z.string(),
  status_code: z.number(),
  event: z.string(),
});

const hookSchema = z.object({ id: z.number(), config: z.object({ url: z.string().optional() }) });

/** `repos/octo/repo` or `orgs/acme`. */
export type ForgeOwner = { repo: string } | { org: string };

function forgeOwnerPath(owner: ForgeOwner): string {
  return 'repo' in owner ? `repos/${owner.repo}` : `orgs/${owner.org}`;
}

/** The right a token needs, as the forge's docs name it. */
export const FORGE_HOOK_RIGHT =
  'admin:repo_hook (admin:org_hook for an organization hook) on a classic token, or "Webhooks: read and write" on a fine-grained one';

/** The `cursor` of the `Link` header's `rel="next"` page, if there is one. */
export function nextCursor(link: string | undefined): string | undefined {
  if (!link) return undefined;
  const next = LinkHeader.parse(link).rel('next')[0];
  if (!next) return undefined;
  try {
    return new URL(next.uri, 'https://forge.invalid/').searchParams.get('cursor') ?? undefined;
  } catch {
    return undefined;
  }
}

/** `repos/octo/repo/hooks/12`: a repository's or organization's hook as the API names it. */
export function forgeHookPath(owner: ForgeOwner, hookId: number): string {
  return `${forgeOwnerPath(owner)}/hooks/${hookId}`;
}

/** The log of `hook` (`repos/octo/repo/hooks/12`, `orgs/acme/hooks/9`, `app/hook`). */
export function forgeDeliveryLog(options: {
  hook: string;
  api: ApiCaller;
  context: Omit<FailureContext, 'hook'>;
  now: () => number;
}): DeliveryLog {
  const { hook } = options;
  const call = hookCaller({ ...options, hook });
  return {
    hook,
    async list(sinceMs) {
      const found: LoggedDelivery[] = [];
      let cursor: string | undefined;
      for (let page = 0; page < MAX_PAGES; page++) {
        const query = cursor === undefined ? '' : `&cursor=${encodeURIComponent(cursor)}`;
        const response = await call('GET', `${hook}/deliveries?per_page=100${query}`);
        const items = parseAnswer(z.array(deliverySchema), response, `${hook}/deliveries`);
        let reachedSince = items.length === 0;
        for (const item of items) {
          const deliveredAt = Date.parse(item.delivered_at);
          if (!Number.isFinite(deliveredAt) || deliveredAt < sinceMs) {
            reachedSince = true;
            continue;
          }
          found.push({
            id: String(item.id),
            guid: item.guid,
            deliveredAt,
            statusCode: item.status_code,
            event: item.event,
          });
        }
        cursor = nextCursor(response.headers.link);
        if (reachedSince || cursor === undefined) break;
      }
      return found;
    },
    async redeliver(delivery) {
      await call('POST', `${hook}/deliveries/${delivery.id}/attempts`);
    },
  };
}

/** The id of the owner's hook whose URL is `url` (`hook_id: auto`). */
export async function findForgeHookId(options: {
  owner: ForgeOwner;
  url: string;
  api: ApiCaller;
  context: Omit<FailureContext, 'hook'>;
  now: () => number;
}): Promise<number> {
  const hooks = `${forgeOwnerPath(options.owner)}/hooks`;
  const call = hookCaller({ ...options, hook: hooks });
  const wanted = withoutTrailingSlash(options.url);
  for (let page = 1; page <= MAX_PAGES; page++) {
    const response = await call('GET', `${hooks}?per_page=100&page=${page}`);
    const items = parseAnswer(z.array(hookSchema), response, hooks);
    const match = items.find((item) => withoutTrailingSlash(item.config.url ?? '') === wanted);
    if (match) return match.id;
    if (items.length < 100) break;
  }
  throw new ReconcileFailure(
    'hook-not-found',
    `no hook of ${forgeOwnerPath(options.owner)} sends to ${options.url}; register one (README, "Registering at the forge"), fix platforms.webhook.extra.public_url, or set ${options.context.keyPath}.hook_id`,
  );
}

export function withoutTrailingSlash(url: string): string {
  return url.replace(/\/+$/, '');
}
