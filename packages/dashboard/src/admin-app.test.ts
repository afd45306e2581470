/** The admin listener's answers over real loopback HTTP, with an in-memory journal. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, MemoryStore, silentLogger } from '@webhook-gateway/core';
import { createAdminApp } from './admin-app.js';
import { listenAdmin, type AdminServer } from './admin-server.js';
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

  it('refuses an oversized form with 413 before reading it all', async () => {
    const response = await request('/dashboard/login', {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: `token=${'a'.repeat(20_000)}`,
    });
    expect(response.status).toBe(413);
  });

  it('answers 400 to a malformed path and a filter it does not know', async () => {
    expect((await request('/dashboard/deliveries/%E0%A4%A', { headers: bearer })).status).toBe(400);
    expect((await request('/dashboard?status=exploded', { headers: bearer })).status).toBe(400);
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
