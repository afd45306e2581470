/**
 * A GitHub-API-compatible fake of the forge's hook endpoints, over TLS on 127.0.0.1, for the real
 * `gh` (GH_HOST=127.0.0.1:<port> makes gh call `https://<host>/api/v3/...`) and for the GitHub
 * App's client. It keeps each hook's delivery log, lists it newest first over `Link`-cursor pages,
 * and on `POST …/deliveries/{id}/attempts` answers 202 and then, as the forge does, signs the
 * stored payload with the hook's secret and POSTs it to the hook's URL, logging the new attempt.
 * Started with `app`, it also is the App's forge: `/app/hook/config`, `/app/hook/deliveries` and
 * `…/attempts` answer only a live JWT the App's key signed (anything else is 401).
 */
import { createHmac, randomUUID } from 'node:crypto';
import type http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { appJwtProblem, type FakeAppIdentity } from './app-jwt.js';
import { loopbackCertificate } from './tls.js';

interface FakeHook {
  /** `repos/octo/repo` or `orgs/acme`. */
  owner: string;
  id: number;
  url: string;
  secret: string;
}

interface FakeDelivery {
  id: number;
  guid: string;
  delivered_at: string;
  redelivery: boolean;
  duration: number;
  status: string;
  status_code: number;
  event: string;
  action: string | null;
  installation_id: number | null;
  repository_id: number;
  throttled_at: null;
}

interface StoredDelivery extends FakeDelivery {
  hookKey: string;
  body: string;
}

/** A hook: a repository's or organization's (`owner` and `id`), or the App's own webhook. */
type HookRef = Pick<FakeHook, 'owner' | 'id'> | 'app';

export interface FakeForgeApi {
  /** `127.0.0.1:<port>`: `GH_HOST` and `platforms.forge.host`. */
  readonly host: string;
  /** The certificate file for `SSL_CERT_FILE`. */
  readonly caFile: string;
  /** The token gh must send (`GH_ENTERPRISE_TOKEN`, `platforms.forge.token`). */
  readonly token: string;
  /** Deliveries per page at most, whatever `per_page` asks (to force several pages). */
  pageSize: number;
  /** `https://127.0.0.1:<port>/api/v3`: `platforms.forge.api_url`. */
  readonly apiUrl: string;
  addHook(hook: FakeHook): void;
  /** The App's webhook (`GET /app/hook/config` answers its URL); needs `app` at start. */
  setAppHook(hook: Pick<FakeHook, 'url' | 'secret'>): void;
  /**
   * Sends an event to the hook's URL now, as the forge does, and logs the attempt (status 0 when
   * nothing answered). Resolves with the logged attempt.
   */
  deliver(
    hook: HookRef,
    event: {
      guid?: string;
      event: string;
      payload: object;
      at?: Date;
      /** Log the attempt with this status without sending it (the gateway was down: 0, a proxy: 502). */
      failedWith?: number;
      /** Send it, but log this status (the forge gave up waiting after the gateway journaled it). */
      loggedAs?: number;
    },
  ): Promise<FakeDelivery>;
  /** The delivery ids each `POST …/attempts` named, in order. */
  redeliveryRequests(): number[];
  /** Every request gh made: method and path. */
  requests(): string[];
  /** Every request to an App endpoint, with whether its JWT was accepted. */
  appRequests(): { request: string; accepted: boolean }[];
  /**
   * After `after` more API calls go through, the next `count` answer 403 with
   * `Retry-After: retryAfterS` (GitHub's secondary rate limit).
   */
  rateLimit(count: number, retryAfterS: number, after?: number): void;
  /** Redelivery POSTs to the gateway still on their way. */
  settled(): Promise<void>;
  close(): Promise<void>;
}

/** The hook's path in the API, which is also its key here: `repos/o/r/hooks/12`, `app/hook`. */
const hookKeyOf = (hook: HookRef) =>
  hook === 'app' ? 'app/hook' : `${hook.owner}/hooks/${hook.id}`;

/** `repos/o/r/hooks/12`, `orgs/acme/hooks/9` or `app/hook`, first in a path. */
const HOOK_PATH = String.raw`((?:repos\/[^/]+\/[^/]+|orgs\/[^/]+)\/hooks\/\d+|app\/hook)`;

export async function startFakeForgeApi(
  options: { token?: string; app?: FakeAppIdentity } = {},
): Promise<FakeForgeApi> {
  const tls = await loopbackCertificate();
  const token = options.token ?? 'ghp_fake_reconcile_token';
  const hooks = new Map<string, FakeHook>();
  const log: StoredDelivery[] = [];
  const redeliveries: number[] = [];
  const requests: string[] = [];
  const appRequests: { request: string; accepted: boolean }[] = [];
  const inFlight = new Set<Promise<unknown>>();
  let nextId = 1000;
  let rateLimited = { count: 0, retryAfterS: 0, after: 0 };
  let port = 0;

  async function send(
    hook: FakeHook,
    stored: Omit<StoredDelivery, 'status_code' | 'status' | 'duration'>,
  ) {
    const started = Date.now();
    let statusCode = 0;
    try {
      const signature = createHmac('sha256', hook.secret).update(stored.body).digest('hex');
      const response = await fetch(hook.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'GitHub-Hookshot/fake',
          'x-github-event': stored.event,
          'x-github-delivery': stored.guid,
          'x-github-hook-id': String(hook.id),
          'x-hub-signature-256': `sha256=${signature}`,
        },
        body: stored.body,
        signal: AbortSignal.timeout(10_000),
      });
      await response.arrayBuffer();
      statusCode = response.status;
    } catch {
      statusCode = 0; // refused or timed out: GitHub logs no status code
    }
    const entry: StoredDelivery = {
      ...stored,
      status_code: statusCode,
      status:
        statusCode === 0
          ? 'Invalid HTTP Response: connection refused'
          : statusCode < 300
            ? 'OK'
            : `Invalid HTTP Response: ${statusCode}`,
      duration: (Date.now() - started) / 1000,
    };
    log.push(entry);
    return entry;
  }

  function publicView(entry: StoredDelivery): FakeDelivery {
    const { hookKey: _hookKey, body: _body, ...view } = entry;
    return view;
  }

  function json(
    res: http.ServerResponse,
    status: number,
    value: unknown,
    headers: Record<string, string> = {},
  ) {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', ...headers });
    res.end(JSON.stringify(value));
  }

  const server = https.createServer({ key: tls.key, cert: tls.cert }, (req, res) => {
    const url = new URL(req.url ?? '/', `https://127.0.0.1:${port}`);
    const method = req.method ?? 'GET';
    requests.push(`${method} ${url.pathname}${url.search}`);
    req.resume();
    const path = url.pathname.replace(/^\/api\/v3\//, '');
    if (path.startsWith('app/')) {
      // The App's endpoints take the App's JWT (`Bearer`), never a token.
      const refused = options.app
        ? appJwtProblem(req.headers.authorization, options.app)
        : 'Not Found';
      appRequests.push({ request: `${method} ${url.pathname}`, accepted: !refused });
      if (refused) return json(res, options.app ? 401 : 404, { message: refused });
    } else if (req.headers.authorization !== `token ${token}`) {
      json(res, 401, {
        message: 'Bad credentials',
        documentation_url: 'https://docs.github.com/rest',
      });
      return;
    }
    if (rateLimited.count > 0 && rateLimited.after > 0) rateLimited.after--;
    else if (rateLimited.count > 0) {
      rateLimited.count--;
      json(
        res,
        403,
        { message: 'You have exceeded a secondary rate limit.' },
        { 'retry-after': String(rateLimited.retryAfterS) },
      );
      return;
    }
    if (path === 'app/hook/config' && method === 'GET') {
      const hook = hooks.get(hookKeyOf('app'));
      json(res, 200, { content_type: 'json', insecure_ssl: '0', url: hook?.url ?? '' });
      return;
    }
    let match = /^((?:repos\/[^/]+\/[^/]+)|(?:orgs\/[^/]+))\/hooks$/.exec(path);
    if (match && method === 'GET') {
      const owner = match[1] ?? '';
      const page = Number(url.searchParams.get('page') ?? '1');
      const perPage = Number(url.searchParams.get('per_page') ?? '30');
      const all = [...hooks.values()].filter((h) => h.owner === owner);
      const items = all.slice((page - 1) * perPage, page * perPage);
      json(
        res,
        200,
        items.map((h) => ({
          id: h.id,
          name: 'web',
          active: true,
          config: { url: h.url, content_type: 'json', insecure_ssl: '0' },
        })),
      );
      return;
    }
    match = new RegExp(`^${HOOK_PATH}/deliveries$`).exec(path);
    if (match && method === 'GET') {
      const hookKey = match[1] ?? '';
      if (!hooks.has(hookKey)) return json(res, 404, { message: 'Not Found' });
      const perPage = Math.min(Number(url.searchParams.get('per_page') ?? '30'), fake.pageSize);
      const newestFirst = log
        .filter((d) => d.hookKey === hookKey)
        .sort((a, b) => b.delivered_at.localeCompare(a.delivered_at) || b.id - a.id);
      const cursor = url.searchParams.get('cursor');
      const start = cursor ? newestFirst.findIndex((d) => `v1_${d.id}` === cursor) + 1 : 0;
      const page = newestFirst.slice(start, start + perPage);
      const headers: Record<string, string> = {};
      const last = page.at(-1);
      if (last && start + perPage < newestFirst.length) {
        const next = new URL(url.href);
        next.searchParams.set('cursor', `v1_${last.id}`);
        headers.link = `<${next.href}>; rel="next"`;
      }
      json(res, 200, page.map(publicView), headers);
      return;
    }
    match = new RegExp(`^${HOOK_PATH}/deliveries/(\\d+)/attempts$`).exec(path);
    if (match && method === 'POST') {
      const hookKey = match[1] ?? '';
      const hook = hooks.get(hookKey);
      const original = log.find((d) => d.hookKey === hookKey && d.id === Number(match?.[2]));
      if (!hook || !original) return json(res, 404, { message: 'Not Found' });
      redeliveries.push(original.id);
      json(res, 202, {});
      const attempt = send(hook, {
        ...original,
        id: nextId++,
        redelivery: true,
        delivered_at: new Date().toISOString(),
      });
      inFlight.add(attempt);
      void attempt.finally(() => inFlight.delete(attempt));
      return;
    }
    json(res, 404, { message: 'Not Found', documentation_url: 'https://docs.github.com/rest' });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;

  const fake: FakeForgeApi = {
    host: `127.0.0.1:${port}`,
    caFile: tls.caFile,
    token,
    apiUrl: `https://127.0.0.1:${port}/api/v3`,
    pageSize: 100,
    addHook(hook) {
      hooks.set(hookKeyOf(hook), hook);
    },
    setAppHook(hook) {
      if (!options.app) throw new Error('the fake forge was started without an App');
      hooks.set(hookKeyOf('app'), { ...hook, owner: 'app', id: 0 });
    },
    async deliver(hookRef, event) {
      const hookKey = hookKeyOf(hookRef);
      const hook = hooks.get(hookKey);
      if (!hook) throw new Error(`the fake forge has no hook ${hookKey}`);
      const payload = event.payload as { action?: unknown; installation?: { id?: unknown } };
      const installationId = payload.installation?.id;
      const stored = {
        id: nextId++,
        hookKey,
        guid: event.guid ?? randomUUID(),
        delivered_at: (event.at ?? new Date()).toISOString(),
        redelivery: false,
        event: event.event,
        action: typeof payload.action === 'string' ? payload.action : null,
        installation_id: typeof installationId === 'number' ? installationId : null,
        repository_id: 1,
        throttled_at: null,
        body: JSON.stringify(event.payload),
      };
      if (event.failedWith !== undefined) {
        const entry = { ...stored, status_code: event.failedWith, status: 'failed', duration: 10 };
        log.push(entry);
        return publicView(entry);
      }
      const entry = await send(hook, stored);
      if (event.loggedAs !== undefined) entry.status_code = event.loggedAs;
      return publicView(entry);
    },
    redeliveryRequests: () => [...redeliveries],
    requests: () => [...requests],
    appRequests: () => [...appRequests],
    rateLimit(count, retryAfterS, after = 0) {
      rateLimited = { count, retryAfterS, after };
    },
    async settled() {
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
    async close() {
      await fake.settled();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      tls.cleanup();
    },
  };
  return fake;
}
