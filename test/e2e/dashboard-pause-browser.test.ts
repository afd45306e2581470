/**
 * The routes page's Pause and Resume buttons, driven in Debian's Chromium (playwright-core)
 * against the built CLI: behind the login and the form's CSRF token, kept in the journal, seen by
 * the gateway (`/health`), and a delivery accepted while paused runs once resumed.
 *
 * Without /usr/bin/chromium these tests skip on a workstation and fail in CI (`CI` set).
 */
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSuiteSkipped, launchChromium } from '../support/chromium.js';
import { adminUrlOf, cleanupHomes, runCli, waitFor } from '../support/gateway.js';
import { readJournal } from '../support/journal-read.js';
import { startRecordingGateway, type RecordingGateway } from '../support/recording-gateway.js';
import { fixture, newDeliveryId, sendForge } from '../support/requests.js';

const skipWithoutChromium = browserSuiteSkipped('dashboard pause browser tests');

const SECRET = 'pause-browser-secret-0123456789';
const ADMIN_TOKEN = 'pause-browser-admin-token-5a4b3c2d1e0f';

describe.skipIf(skipWithoutChromium)('pausing from the dashboard in Chromium', () => {
  let gateway: RecordingGateway;
  let browser: Browser;
  let page: Page;
  let adminUrl: string;

  const pausedRoutes = async () =>
    (
      (await (await fetch(`${gateway.url}/health`)).json()) as {
        paused: { route: string | null }[];
      }
    ).paused.map((pause) => pause.route);

  beforeAll(async () => {
    gateway = await startRecordingGateway({
      secret: SECRET,
      admin: { host: '127.0.0.1', port: 0, token: ADMIN_TOKEN },
      routes: { reviews: { events: ['pull_request'] }, pushes: { events: ['push'] } },
    });
    adminUrl = await adminUrlOf(gateway);
    browser = await launchChromium();
    const context = await browser.newContext();
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    await page.goto(`${adminUrl}/dashboard/routes`);
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Routes', level: 1 }).waitFor();
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    cleanupHomes();
  });

  it('pauses a route with a reason; the gateway holds its delivery until Resume', async () => {
    const row = page.locator('#routes tr[data-route="reviews"]');
    await row.getByRole('textbox', { name: 'Why pause reviews' }).fill('provider outage');
    await row.getByRole('button', { name: 'Pause' }).click();
    await page.locator('#pause-result').waitFor();
    expect(await page.locator('#pause-result').textContent()).toContain('Paused');
    expect(await row.locator('[data-state]').textContent()).toMatch(
      /paused since \S+Z — provider outage/,
    );
    expect(await page.locator('#routes tr[data-route="pushes"] [data-state]').textContent()).toBe(
      'active',
    );
    await waitFor(
      async () => (await pausedRoutes()).includes('reviews'),
      '/health to list reviews',
    );
    const listed = await runCli(['deliveries', 'list', '--home', gateway.home]);
    expect(listed.stdout.split('\n')[0]).toMatch(
      /^paused: route reviews since \S+Z — provider outage$/,
    );

    const reviewId = newDeliveryId();
    const sent = await sendForge(gateway.url, 'reviews', {
      body: fixture('forge/pull_request_opened.json'),
      secret: SECRET,
      event: 'pull_request',
      deliveryId: reviewId,
    });
    expect(sent.status).toBe(202);
    // A push on the other route runs meanwhile: the gateway works, only reviews waits.
    const pushId = newDeliveryId();
    await sendForge(gateway.url, 'pushes', {
      body: fixture('forge/push.json'),
      secret: SECRET,
      event: 'push',
      deliveryId: pushId,
    });
    await gateway.agentRun(pushId);
    const waiting = (await readJournal(gateway.home)).find((r) => r.deliveryId === reviewId);
    expect(waiting?.status).toBe('queued');

    await row.getByRole('button', { name: 'Resume' }).click();
    await page.locator('#pause-result').waitFor();
    expect(await page.locator('#pause-result').textContent()).toContain('Resumed');
    expect(await row.locator('[data-state]').textContent()).toBe('active');
    await gateway.agentRun(reviewId);
  });

  it('pauses and resumes every route with the buttons above the table', async () => {
    await page.getByRole('button', { name: 'Pause every route' }).click();
    await page.locator('#pauses [data-state="paused"]').waitFor();
    expect(await page.locator('#pauses').textContent()).toContain('Every route is paused since');
    await waitFor(async () => (await pausedRoutes()).includes(null), '/health to list every route');
    await page.getByRole('button', { name: 'Resume every route' }).click();
    await page.getByRole('button', { name: 'Pause every route' }).waitFor();
    expect(await page.locator('#pause-result').textContent()).toContain('Resumed');
  });

  it('refuses a pause posted with the session cookie but without the CSRF token', async () => {
    const forged = await page.request.post(`${adminUrl}/dashboard/pause`, {
      form: { route: 'reviews' },
      maxRedirects: 0,
    });
    expect(forged.status()).toBe(403);
    // The journal holds no pause (/health lags the journal by up to a second).
    const listed = await runCli(['deliveries', 'list', '--home', gateway.home]);
    expect(listed.stdout).not.toContain('paused:');
  });

  it('refuses a pause of a route that does not exist', async () => {
    const csrf = await page.locator('#pauses input[name="csrf"]').first().getAttribute('value');
    const unknown = await page.request.post(`${adminUrl}/dashboard/pause`, {
      form: { route: 'reveiws', csrf: csrf ?? '' },
      headers: { Origin: adminUrl },
      maxRedirects: 0,
    });
    expect(unknown.status()).toBe(400);
    expect(await unknown.text()).toContain('no route named reveiws');
  });
});
