/**
 * The dashboard's queue page in Debian's Chromium (playwright-core) against the real CLI, under
 * a slow agent (a `command` agent that waits for a gate file): behind the login, it shows the
 * running attempt and each queued delivery's place as they come and go, without a page load and
 * under the dashboard's Content-Security-Policy.
 *
 * Without /usr/bin/chromium these tests skip on a workstation and fail in CI (`CI` set).
 */
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { browserSuiteSkipped, launchChromium } from '../support/chromium.js';
import {
  adminUrlOf,
  cleanupHomes,
  makeHome,
  startGateway,
  waitFor,
  type StartedGateway,
} from '../support/gateway.js';
import { appendingAgent } from '../support/journal-agents.js';
import { listDeliveries } from '../support/journal-read.js';
import { pullRequestBody } from '../support/journal-stream.js';
import { sendForge } from '../support/requests.js';

const skipWithoutChromium = browserSuiteSkipped('dashboard queue browser tests');

const SECRET = 'queue-browser-secret-0123456789';
const ADMIN_TOKEN = 'queue-browser-admin-token-5d4c3b2a1f0e';

describe.skipIf(skipWithoutChromium)('the queue page in Chromium', () => {
  let gateway: StartedGateway;
  let browser: Browser;
  let page: Page;
  let adminUrl: string;
  let gate: string;
  const violations: string[] = [];

  async function send(deliveryId: string, pr: number): Promise<void> {
    const sent = await sendForge(gateway.url, 'serial', {
      body: pullRequestBody(pr),
      secret: SECRET,
      event: 'pull_request',
      deliveryId,
    });
    expect(sent.status).toBe(202);
  }

  beforeAll(async () => {
    const home = makeHome();
    gate = path.join(home, 'gate');
    gateway = await startGateway({
      home,
      config: {
        agent: appendingAgent(path.join(home, 'runs.txt'), {
          sleepS: 0.2,
          gate: { idPattern: 'gated-*', file: gate },
        }),
        platforms: {
          webhook: {
            extra: {
              secret: SECRET,
              admin: { host: '127.0.0.1', port: 0, token: ADMIN_TOKEN },
              routes: { serial: { concurrency: 1 } },
            },
          },
        },
      },
    });
    adminUrl = await adminUrlOf(gateway);
    // One quick run gives the route its run time, so the queued ones get an expected start.
    await send('warm-1', 1);
    await waitFor(
      async () =>
        (await listDeliveries(home)).some(
          (row) => row.deliveryId === 'warm-1' && row.status === 'delivered',
        ) || undefined,
      'the first delivery delivered',
    );
    browser = await launchChromium();
    const context = await browser.newContext();
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
  });

  afterAll(async () => {
    if (gate) fs.writeFileSync(gate, '');
    await browser?.close();
    await gateway?.stop();
    cleanupHomes();
  });

  it('logs in and shows places and reasons as deliveries queue and run, without a reload', async () => {
    await page.goto(`${adminUrl}/dashboard/queue`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/login');
    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Queue', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard/queue');
    expect(await page.locator('#queued tbody').textContent()).toContain('Nothing is queued.');

    const loads: string[] = [];
    page.on('load', () => loads.push(page.url()));
    for (const [index, id] of ['gated-a', 'gated-b', 'gated-c'].entries())
      await send(id, 10 + index);

    // gated-a runs (the gate holds it); the other two wait for the route's one slot.
    await page.locator('#running tbody tr[data-running-id]').waitFor();
    const second = page.locator('#queued tbody tr[data-position="2"]');
    await second.waitFor();
    expect(await second.textContent()).toContain('gated-c');
    expect(await second.locator('td[data-label="Place"]').textContent()).toMatch(
      /^\s*2nd, (under a minute|about \d+ min)\s*$/,
    );
    expect(await second.locator('td[data-label="Waiting for"]').textContent()).toContain(
      "route concurrency: 1 of the route's attempts running",
    );
    const first = page.locator('#queued tbody tr[data-position="1"]');
    expect(await first.textContent()).toContain('gated-b');

    // Once the gate opens, everything runs: the page empties itself.
    fs.writeFileSync(gate, '');
    await page.locator('#queued tbody').filter({ hasText: 'Nothing is queued.' }).waitFor();
    await page.locator('#running tbody').filter({ hasText: 'Nothing is running.' }).waitFor();
    expect(loads).toEqual([]);
    expect(violations).toEqual([]);
  });
});
