/**
 * The admin listener's locks, through the real CLI over plain HTTP: the token is required to
 * start and to see anything, the login cookie is HttpOnly and SameSite=Strict, state-changing
 * forms need the session's CSRF token from this origin, and payload text is never markup.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUrlOf, cleanupHomes, runCli, waitFor } from '../support/gateway.js';
import {
  startRecordingGateway,
  webhookHome,
  type RecordingGateway,
} from '../support/recording-gateway.js';
import { fixture, newDeliveryId, sendForge } from '../support/requests.js';

const SECRET = 'security-secret-0123456789';
const ADMIN_TOKEN = 'security-admin-token-9d8c7b6a5f4e3d2c';
const HOSTILE_TITLE = '<script>window.__pwned = 1</script><img src=x onerror="alert(1)">';

let gateway: RecordingGateway;
let adminUrl: string;
let journalId: string;
let deliveryId: string;

/** `platforms.webhook.extra` with this `admin` block. */
function extraWith(admin: Record<string, unknown>): Record<string, unknown> {
  return { secret: SECRET, admin, routes: { reviews: { events: ['pull_request'] } } };
}

/** Runs `gateway` with an admin block that must keep it from starting; resolves with stderr. */
async function refusedStart(admin: Record<string, unknown>): Promise<string> {
  const result = await runCli(['gateway', '--home', webhookHome(extraWith(admin))]);
  expect(result.code).toBe(1);
  expect(result.stdout).not.toContain('Listening');
  return result.stderr;
}

function get(pathname: string, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(`${adminUrl}${pathname}`, { headers, redirect: 'manual' });
}

function postForm(
  pathname: string,
  form: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return fetch(`${adminUrl}${pathname}`, {
    method: 'POST',
    body: new URLSearchParams(form).toString(),
    headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
    redirect: 'manual',
  });
}

/** Logs in through the form; resolves with the `Cookie` header value of the session. */
async function logIn(): Promise<string> {
  const response = await postForm('/dashboard/login', { token: ADMIN_TOKEN, next: '/dashboard' });
  expect(response.status).toBe(303);
  const setCookie = response.headers.get('set-cookie') ?? '';
  return setCookie.split(';')[0] ?? '';
}

/** The CSRF token the session's pages put in their forms. */
async function csrfOf(cookie: string): Promise<string> {
  const page = await (await get(`/dashboard/deliveries/${journalId}`, { Cookie: cookie })).text();
  const match = /name="csrf" value="([^"]+)"/.exec(page);
  if (!match?.[1]) throw new Error('no CSRF token on the delivery page');
  return match[1];
}

const runsOfDelivery = () => gateway.agentRuns().filter((r) => r.deliveryId === deliveryId);

beforeAll(async () => {
  gateway = await startRecordingGateway(
    extraWith({ host: '127.0.0.1', port: 0, token: ADMIN_TOKEN }),
  );
  adminUrl = await adminUrlOf(gateway);

  const payload = JSON.parse(fixture('forge/pull_request_opened.json').toString('utf8')) as {
    pull_request: { title: string };
  };
  payload.pull_request.title = HOSTILE_TITLE;
  deliveryId = newDeliveryId();
  const sent = await sendForge(gateway.url, 'reviews', {
    body: JSON.stringify(payload),
    secret: SECRET,
    event: 'pull_request',
    deliveryId,
  });
  expect(sent.status).toBe(202);
  await waitFor(() => (runsOfDelivery().length === 1 ? true : undefined), 'the first agent run');
  const table = await (
    await get('/dashboard/fragments/deliveries', { Authorization: `Bearer ${ADMIN_TOKEN}` })
  ).text();
  const link = new RegExp(`href="/dashboard/deliveries/([^"]+)"><code>${deliveryId}<`).exec(table);
  if (!link?.[1]) throw new Error(`delivery ${deliveryId} is not in the table:\n${table}`);
  journalId = link[1];
});

afterAll(async () => {
  await gateway?.stop();
  cleanupHomes();
});

describe('starting the admin listener', () => {
  it('refuses to start without a token, even on loopback, naming the key', async () => {
    const stderr = await refusedStart({ host: '127.0.0.1', port: 0 });
    expect(stderr).toContain('platforms.webhook.extra.admin.token');
    expect(stderr).toContain('is not set');
  });

  it('refuses to start without a token on a public host, saying it is not loopback', async () => {
    const stderr = await refusedStart({ host: '0.0.0.0', port: 0 });
    expect(stderr).toContain('0.0.0.0, which is not a loopback address');
  });

  it('refuses a short token without printing it', async () => {
    const stderr = await refusedStart({ host: '127.0.0.1', port: 0, token: 'tiny-tok' });
    expect(stderr).toContain('too short');
    expect(stderr).not.toContain('tiny-tok');
  });

  it('says which setting to change when the admin port is taken', async () => {
    const blocker = net.createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const { port } = blocker.address() as net.AddressInfo;
    try {
      const stderr = await refusedStart({ host: '127.0.0.1', port, token: ADMIN_TOKEN });
      expect(stderr).toContain(
        `admin port ${port} is in use; set platforms.webhook.extra.admin.port`,
      );
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });
});

describe('without the token', () => {
  it('sends a browser asking for a page to the login form', async () => {
    const response = await get('/dashboard?route=reviews');
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(
      `/dashboard/login?next=${encodeURIComponent('/dashboard?route=reviews')}`,
    );
    expect((await get(`/dashboard/deliveries/${journalId}`)).status).toBe(303);
    expect((await get('/dashboard/routes')).status).toBe(303);
  });

  it('answers 401 to fragments, /metrics and a wrong bearer token', async () => {
    expect((await get('/dashboard/fragments/deliveries')).status).toBe(401);
    expect((await get(`/dashboard/fragments/deliveries/${journalId}`)).status).toBe(401);
    expect((await get('/metrics')).status).toBe(401);
    const wrong = await get('/dashboard', { Authorization: `Bearer ${ADMIN_TOKEN}0` });
    expect(wrong.status).toBe(303);
  });

  it('does not accept a made-up session cookie', async () => {
    const forged = `wg_admin_session=${Date.now()}.AAAAAAAAAAAAAAAAAAAAAAAA.${'A'.repeat(43)}`;
    expect((await get('/dashboard', { Cookie: forged })).status).toBe(303);
  });

  it('cannot replay a delivery', async () => {
    const response = await postForm(`/dashboard/deliveries/${journalId}/replay`, {});
    expect(response.status).toBe(401);
  });
});

describe('logging in', () => {
  it('refuses a wrong token with the form again and no cookie', async () => {
    const response = await postForm('/dashboard/login', { token: 'not-the-admin-token-at-all' });
    expect(response.status).toBe(401);
    expect(response.headers.get('set-cookie')).toBeNull();
    expect(await response.text()).toContain('That is not the admin token');
  });

  it('sets an HttpOnly, SameSite=Strict session cookie that opens the dashboard', async () => {
    const response = await postForm('/dashboard/login', { token: ADMIN_TOKEN, next: '/dashboard' });
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe('/dashboard');
    const setCookie = response.headers.get('set-cookie') ?? '';
    expect(setCookie).toMatch(/^wg_admin_session=[^;]+;/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Strict');
    expect(setCookie).not.toContain(ADMIN_TOKEN);
    const page = await get('/dashboard', { Cookie: setCookie.split(';')[0] ?? '' });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain(deliveryId);
  });

  it('never redirects to another site after logging in', async () => {
    for (const next of ['https://evil.example/', '//evil.example/dashboard', '/\\evil.example']) {
      const response = await postForm('/dashboard/login', { token: ADMIN_TOKEN, next });
      expect(response.headers.get('location')).toBe('/dashboard');
    }
  });

  it('refuses a login form posted from another site', async () => {
    const response = await postForm(
      '/dashboard/login',
      { token: ADMIN_TOKEN },
      { Origin: 'https://evil.example' },
    );
    expect(response.status).toBe(400);
    expect(response.headers.get('set-cookie')).toBeNull();
  });

  it('ends the session in the browser on log out', async () => {
    const cookie = await logIn();
    const response = await postForm(
      '/dashboard/logout',
      { csrf: await csrfOf(cookie) },
      { Cookie: cookie },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('set-cookie')).toMatch(/^wg_admin_session=; .*Max-Age=0/);
  });
});

describe('replaying with a session', () => {
  it('refuses a replay without the CSRF token of the session', async () => {
    const cookie = await logIn();
    const other = await csrfOf(await logIn());
    for (const form of [{}, { csrf: other }] as Record<string, string>[]) {
      const response = await postForm(`/dashboard/deliveries/${journalId}/replay`, form, {
        Cookie: cookie,
      });
      expect(response.status).toBe(403);
    }
  });

  it('refuses a replay posted from another origin even with the CSRF token', async () => {
    const cookie = await logIn();
    const response = await postForm(
      `/dashboard/deliveries/${journalId}/replay`,
      { csrf: await csrfOf(cookie) },
      { Cookie: cookie, Origin: 'http://evil.example' },
    );
    expect(response.status).toBe(403);
    expect(runsOfDelivery()).toHaveLength(1);
  });

  it('replays with the session, its CSRF token and this origin', async () => {
    const cookie = await logIn();
    const response = await postForm(
      `/dashboard/deliveries/${journalId}/replay`,
      { csrf: await csrfOf(cookie) },
      { Cookie: cookie, Origin: adminUrl },
    );
    expect(response.status).toBe(303);
    expect(response.headers.get('location')).toBe(`/dashboard/deliveries/${journalId}?replayed=1`);
    await waitFor(() => (runsOfDelivery().length === 2 ? true : undefined), 'the replayed run');
  });

  it('replays with the bearer token alone, for scripts', async () => {
    const before = runsOfDelivery().length;
    await waitFor(async () => {
      const live = await (
        await get(`/dashboard/fragments/deliveries/${journalId}`, {
          Authorization: `Bearer ${ADMIN_TOKEN}`,
        })
      ).text();
      return live.includes('status-delivered') ? true : undefined;
    }, 'the delivery to finish');
    const response = await postForm(
      `/dashboard/deliveries/${journalId}/replay`,
      {},
      { Authorization: `Bearer ${ADMIN_TOKEN}` },
    );
    expect(response.status).toBe(303);
    await waitFor(
      () => (runsOfDelivery().length === before + 1 ? true : undefined),
      'the run of the bearer replay',
    );
  });
});

describe('what pages let through', () => {
  it('shows attacker-controlled payload text as text, never as markup', async () => {
    const page = await (
      await get(`/dashboard/deliveries/${journalId}`, { Authorization: `Bearer ${ADMIN_TOKEN}` })
    ).text();
    expect(page).toContain('&lt;script&gt;window.__pwned = 1&lt;/script&gt;');
    expect(page).not.toContain('<script>window.__pwned');
    expect(page).not.toContain('<img src=x');
  });

  it('forbids inline script, framing and foreign form targets', async () => {
    const response = await get('/dashboard', { Authorization: `Bearer ${ADMIN_TOKEN}` });
    const policy = response.headers.get('content-security-policy') ?? '';
    expect(policy).toContain("script-src 'self'");
    expect(policy).toContain("form-action 'self'");
    expect(policy).toContain("frame-ancestors 'none'");
    expect(response.headers.get('x-frame-options')).toBe('DENY');
    expect(response.headers.get('cache-control')).toBe('no-store');
  });

  it('never writes the admin token to the log, stdout or stderr', () => {
    const log = fs.readFileSync(path.join(gateway.home, 'logs', 'gateway.log'), 'utf8');
    expect(log).toContain('dashboard login');
    expect(log).not.toContain(ADMIN_TOKEN);
    expect(gateway.stdout()).not.toContain(ADMIN_TOKEN);
    expect(gateway.stderr()).not.toContain(ADMIN_TOKEN);
  });
});
