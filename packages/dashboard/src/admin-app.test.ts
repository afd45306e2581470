/** The admin listener's answers over real loopback HTTP, with an in-memory journal. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '@webhook-gateway/core';
import { configSchema, MemoryStore } from '@webhook-gateway/core/runtime';
import { createAdminApp } from './admin-app.js';
import { listenAdmin, type AdminServer } from './admin-server.js';
import { IgnoredTally } from './ignored-tally.js';
import { createGatewayMetrics } from './metrics.js';
import { dashboardOptionsSchema } from './options.js';

const TOKEN = 'unit-admin-token-0123456789';
const bearer = { Authorization: `Bearer ${TOKEN}` };

let server: AdminServer;
let baseUrl: string;
let journalId: string;
const store = new MemoryStore();

beforeAll(async () => {
  const config = configSchema.parse({
    platforms: { webhook: { extra: { secret: 'x'.repeat(16), routes: { reviews: {} } } } },
  });
  const accepted = await store.accept(
    {
      route: 'reviews',
      event: 'pull_request',
      action: 'opened',
      deliveryId: 'delivery-<1>',
      receivedAt: Date.now(),
      payload: { action: 'opened' },
      headers: {},
      orderKey: null,
      maxAttempts: 3,
    },
    60_000,
  );
  if (!accepted.accepted) throw new Error('not accepted');
  journalId = accepted.record.id;
  const app = createAdminApp({
    token: TOKEN,
    store,
    metrics: createGatewayMetrics({
      queue: { queuedCount: 0, runningCount: 0 },
      configuredRoutes: [],
      defaultMetrics: false,
    }),
    ignored: new IgnoredTally(),
    config,
    options: dashboardOptionsSchema.parse({}),
    log: silentLogger(),
  });
  server = await listenAdmin({ host: '127.0.0.1', port: 0, token: TOKEN }, app);
  baseUrl = `http://127.0.0.1:${server.port}`;
});

afterAll(async () => {
  await server.close();
  await store.close();
});

function request(path: string, init: RequestInit = {}): Promise<Response> {
  return fetch(`${baseUrl}${path}`, { redirect: 'manual', ...init });
}

const FORM = { 'Content-Type': 'application/x-www-form-urlencoded' };

/** Logs in through the form; resolves with the `Set-Cookie` header of the answer. */
async function logIn(body = `token=${TOKEN}`): Promise<string> {
  const response = await request('/dashboard/login', { method: 'POST', headers: FORM, body });
  expect(response.status).toBe(303);
  return response.headers.get('set-cookie') ?? '';
}

/** `name=value` of a `Set-Cookie` header, as a browser sends it back. */
const cookiePair = (setCookie: string) => setCookie.split(';')[0] ?? '';

describe('the admin app', () => {
  it('binds a free port when asked for port 0', () => {
    expect(server.port).toBeGreaterThan(0);
  });

  it('answers 405 with the allowed methods to a wrong method', async () => {
    const response = await request('/metrics', { method: 'DELETE', headers: bearer });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it('answers HEAD like GET, without a body', async () => {
    const response = await request('/dashboard', { method: 'HEAD', headers: bearer });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });

  it('answers 405 to OPTIONS and names POST on a form path', async () => {
    const options = await request('/metrics', { method: 'OPTIONS', headers: bearer });
    expect(options.status).toBe(405);
    expect(options.headers.get('allow')).toBe('GET, HEAD');
    const replay = await request(`/dashboard/deliveries/${journalId}/replay`, { headers: bearer });
    expect(replay.status).toBe(405);
    expect(replay.headers.get('allow')).toBe('POST');
    expect((await request('/dashboard/logout')).headers.get('allow')).toBe('POST');
  });

  it('serves exact paths only', async () => {
    expect((await request('/metrics', { headers: bearer })).status).toBe(200);
    expect((await request('/metrics/', { headers: bearer })).status).toBe(404);
    expect((await request('/METRICS', { headers: bearer })).status).toBe(404);
    expect((await request('/dashboard/', { headers: bearer })).status).toBe(200);
  });

  it('answers an unknown path with a 404 page, or as a page or fragment without the token', async () => {
    const known = await request('/dashboard/nothing-here', { headers: bearer });
    expect(known.status).toBe(404);
    expect(known.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(await known.text()).toContain('<h1>Not found</h1>');
    const page = await request('/dashboard/nothing-here?a=1');
    expect(page.status).toBe(303);
    expect(page.headers.get('location')).toBe(
      `/dashboard/login?next=${encodeURIComponent('/dashboard/nothing-here?a=1')}`,
    );
    const other = await request('/nothing-here', { method: 'POST' });
    expect(other.status).toBe(401);
    expect(other.headers.get('www-authenticate')).toBe('Bearer realm="webhook-gateway admin"');
  });

  it('puts the security headers on every answer', async () => {
    const answers = [
      await request('/dashboard', { headers: bearer }),
      await request('/dashboard'),
      await request('/metrics'),
      await request('/metrics', { method: 'DELETE' }),
      await request('/dashboard/deliveries/%E0%A4%A'),
      await request('/dashboard/login', { method: 'POST', headers: FORM, body: 'token=x' }),
      await request('/dashboard/assets/dashboard.css'),
    ];
    for (const response of answers) {
      const policy = response.headers.get('content-security-policy') ?? '';
      expect(policy).toContain("default-src 'none'");
      expect(policy).toContain("frame-ancestors 'none'");
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('referrer-policy')).toBe('same-origin');
      expect(response.headers.get('x-frame-options')).toBe('DENY');
    }
    expect(answers.map((response) => response.headers.get('cache-control'))).toEqual([
      ...Array<string>(6).fill('no-store'),
      'no-cache',
    ]);
  });

  it('refuses an oversized form with 413 before reading it all', async () => {
    const response = await request('/dashboard/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `token=${'a'.repeat(20_000)}`,
    });
    expect(response.status).toBe(413);
    expect(response.headers.get('connection')).toBe('close');
    expect(await response.text()).toBe('Payload too large\n');
  });

  it('refuses a form that grows too large while streaming, without a Content-Length', async () => {
    const chunk = new TextEncoder().encode('a'.repeat(4096));
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ < 8) controller.enqueue(chunk);
        else controller.close();
      },
    });
    const response = await request('/dashboard/login', {
      method: 'POST',
      headers: FORM,
      body,
      duplex: 'half',
    });
    expect(response.status).toBe(413);
  });

  it('answers a form body it cannot read with a 4xx, not as its own failure', async () => {
    const post = (encoding: string) =>
      request('/dashboard/login', {
        method: 'POST',
        headers: { ...FORM, 'Content-Encoding': encoding },
        body: `token=${TOKEN}`,
      });
    const unknown = await post('compress');
    expect(unknown.status).toBe(415);
    expect(await unknown.text()).toContain('Unsupported Content-Encoding: compress');
    const garbled = await post('gzip');
    expect(garbled.status).toBe(400);
    expect(await garbled.text()).toMatch(/^Bad request: could not read the form: /);
  });

  it('logs in with a session cookie that lasts session_ttl_h and opens the pages', async () => {
    const setCookie = await logIn();
    expect(setCookie).toMatch(/^wg_admin_session=[^;]+; /);
    expect(setCookie).toContain('Max-Age=43200');
    expect(setCookie).toContain('Path=/dashboard');
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    const page = await request('/dashboard', { headers: { Cookie: cookiePair(setCookie) } });
    expect(page.status).toBe(200);
  });

  it('finds the session cookie among others, and only by its exact name', async () => {
    const session = cookiePair(await logIn());
    const among = await request('/dashboard', { headers: { Cookie: `a=1; ${session}; b=2` } });
    expect(among.status).toBe(200);
    const suffixed = await request('/dashboard', { headers: { Cookie: `x${session}` } });
    expect(suffixed.status).toBe(303);
    expect((await request('/dashboard')).status).toBe(303);
  });

  it('reads a form field given twice by its last value, and any body as a form', async () => {
    expect((await logIn(`token=wrong&token=${TOKEN}`)).length).toBeGreaterThan(0);
    const wrongLast = await request('/dashboard/login', {
      method: 'POST',
      headers: FORM,
      body: `token=${TOKEN}&token=wrong`,
    });
    expect(wrongLast.status).toBe(401);
    const plain = await request('/dashboard/login', {
      method: 'POST',
      headers: { 'Content-Type': 'text/plain' },
      body: `token=${TOKEN}`,
    });
    expect(plain.status).toBe(303);
  });

  it('clears the cookie on log out, with or without a live session', async () => {
    const response = await request('/dashboard/logout', { method: 'POST' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard/login');
    expect(response.headers.get('set-cookie')).toMatch(/^wg_admin_session=; .*Max-Age=0/);
    const stale = await request('/dashboard/logout', {
      method: 'POST',
      headers: { ...FORM, Cookie: cookiePair(await logIn()) },
      body: 'csrf=not-the-token',
    });
    expect(stale.status).toBe(403);
    expect(stale.headers.get('set-cookie')).toBeNull();
  });

  it('answers 400 to a malformed path and a filter it does not know', async () => {
    expect((await request('/dashboard/deliveries/%E0%A4%A', { headers: bearer })).status).toBe(400);
    expect((await request('/dashboard?status=exploded', { headers: bearer })).status).toBe(400);
    // The path is checked before the token.
    expect((await request('/dashboard/deliveries/%E0%A4%A')).status).toBe(400);
  });

  it('serves the overview for 24 h or 7 days, behind the token', async () => {
    const day = await request('/dashboard/overview', { headers: bearer });
    expect(day.status).toBe(200);
    expect(await day.text()).toContain('Deliveries per hour by outcome, last 24 h');
    const week = await request('/dashboard/overview?window=7d', { headers: bearer });
    expect(await week.text()).toContain('Deliveries per hour by outcome, last 7 days');
    expect((await request('/dashboard/overview?window=1y', { headers: bearer })).status).toBe(400);
    const anonymous = await request('/dashboard/overview?window=7d');
    expect(anonymous.status).toBe(303);
    expect(anonymous.headers.get('location')).toBe(
      `/dashboard/login?next=${encodeURIComponent('/dashboard/overview?window=7d')}`,
    );
  });

  it('answers 404 naming the id of a delivery that is not in the journal', async () => {
    const response = await request('/dashboard/deliveries/no-such-row', { headers: bearer });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain('no-such-row');
  });

  it('escapes a delivery id in the table', async () => {
    const rows = await (
      await request('/dashboard/fragments/deliveries', { headers: bearer })
    ).text();
    expect(rows).toContain('delivery-&lt;1&gt;');
    expect(rows).toContain(`/dashboard/deliveries/${journalId}`);
  });

  it('refuses to replay a delivery that has not finished', async () => {
    const response = await request(`/dashboard/deliveries/${journalId}/replay`, {
      method: 'POST',
      headers: bearer,
    });
    expect(response.status).toBe(409);
    expect(await response.text()).toContain('is queued');
  });

  it('queues a finished delivery again on a replay', async () => {
    await store.markRunning(journalId, Date.now());
    await store.markDelivered(journalId, Date.now());
    const before = await store.get(journalId);
    const response = await request(`/dashboard/deliveries/${journalId}/replay`, {
      method: 'POST',
      headers: bearer,
    });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/dashboard/deliveries/${journalId}?replayed=1`);
    const after = await store.get(journalId);
    expect(after?.status).toBe('queued');
    expect(after?.seq).toBeGreaterThan(before?.seq ?? Infinity);
  });

  it('serves its stylesheet and script without the token, and nothing else', async () => {
    expect((await request('/dashboard/assets/dashboard.css')).status).toBe(200);
    expect((await request('/dashboard/assets/dashboard.js')).status).toBe(200);
    expect((await request('/dashboard/assets/other.js')).status).toBe(303);
  });
});
