/**
 * The overview page's charts in Debian's Chromium (playwright-core), against the real CLI on a
 * journal seeded with known deliveries: each chart carries the series and sums it should, the
 * 24 h / 7 days switch is a plain link, and the strict CSP has nothing to block.
 *
 * Without /usr/bin/chromium these tests skip on a workstation and fail in CI (`CI` set).
 */
import path from 'node:path';
import type { DeliveryRecord } from '@webhook-gateway/core';
import { openSqliteStore } from '@webhook-gateway/store-sqlite';
import { type Browser, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUrlOf, cleanupHomes, makeHome, type StartedGateway } from '../support/gateway.js';
import { startRecordingGateway } from '../support/recording-gateway.js';
import { newDeliveryId, sendForge } from '../support/requests.js';
import { browserSuiteSkipped, launchChromium } from '../support/chromium.js';

const skipWithoutChromium = browserSuiteSkipped('overview chart browser tests');

const SECRET = 'charts-secret-0123456789';
const ADMIN_TOKEN = 'charts-admin-token-3e2f1a0b9c8d7e6f';
const HOUR = 3_600_000;

/** A journaled delivery to seed: when it arrived, how it ended, how long it ran, its tokens. */
interface Seed {
  route: string;
  hoursAgo: number;
  end: 'delivered' | 'failed' | 'denied' | 'over_budget';
  runMs?: number;
  tokens?: number;
  /** What the run cost in EUR (as `agent.prices` would have recorded it). */
  eur?: number;
  /** The key of a queued delivery this one supersedes (it is accepted first, never run). */
  supersedes?: string;
}

/*
 * Windows: the 24 h chart starts 23 h before the current hour, so 22 h ago is inside it and 30 h
 * ago only in the 7 days. Tokens are charted by day, so only their sums per route are asserted.
 */
const SEEDS: Seed[] = [
  { route: 'reviews', hoursAgo: 3, end: 'delivered', runMs: 2000, tokens: 1000, eur: 0.25 },
  { route: 'reviews', hoursAgo: 3, end: 'delivered', runMs: 4000, tokens: 3000 },
  {
    route: 'reviews',
    hoursAgo: 5,
    end: 'delivered',
    runMs: 8000,
    tokens: 2000,
    supersedes: 'pr-9',
  },
  { route: 'reviews', hoursAgo: 2, end: 'denied' },
  { route: 'reviews', hoursAgo: 48, end: 'failed', runMs: 6000, tokens: 500, eur: 0.5 },
  { route: 'triage', hoursAgo: 1, end: 'over_budget' },
  { route: 'triage', hoursAgo: 30, end: 'delivered', runMs: 1000, tokens: 200, eur: 0.125 },
];

/** Writes the seeds into the journal the gateway will open, as its worker would have. */
async function seedJournal(home: string): Promise<void> {
  const store = openSqliteStore({ path: path.join(home, 'state.db') });
  const now = Date.now();
  try {
    for (const [index, seed] of SEEDS.entries()) {
      const receivedAt = now - seed.hoursAgo * HOUR;
      const delivery = {
        route: seed.route,
        event: 'pull_request',
        action: 'opened',
        deliveryId: `seed-${index}`,
        receivedAt,
        payload: { action: 'opened', number: index },
        headers: {},
        orderKey: seed.supersedes ?? null,
        maxAttempts: 1,
      };
      if (seed.supersedes) {
        await store.accept({ ...delivery, deliveryId: `seed-${index}-older` }, HOUR);
      }
      const accepted = await store.accept({ ...delivery, supersede: true }, HOUR);
      if (!accepted.accepted) throw new Error(`seed ${index} was not accepted`);
      const { id } = accepted.record;
      const startedAt = receivedAt + 100;
      await store.markRunning(id, startedAt);
      if (seed.end === 'denied' || seed.end === 'over_budget') {
        await store.markRefused(id, seed.end, 'seeded', startedAt);
        continue;
      }
      const tokens = seed.tokens ?? 0;
      await store.saveProgress(id, {
        agent: {
          runner: 'openai',
          usage: { promptTokens: tokens - 10, completionTokens: 10, totalTokens: tokens },
          ...(seed.eur === undefined ? {} : { cost: { amount: seed.eur, currency: 'EUR' } }),
        },
      });
      const finishedAt = startedAt + (seed.runMs ?? 0);
      if (seed.end === 'failed') await store.markFailed(id, 'seeded failure', finishedAt);
      else await store.markDelivered(id, finishedAt);
    }
    const statuses = (await store.list({ limit: 100 })).map((row: DeliveryRecord) => row.status);
    expect(statuses.filter((status) => status === 'superseded')).toHaveLength(1);
  } finally {
    await store.close();
  }
}

describe.skipIf(skipWithoutChromium)('the overview charts in Chromium', () => {
  let gateway: StartedGateway;
  let browser: Browser;
  let page: Page;
  let adminUrl: string;
  /** What Chromium reported the page's Content-Security-Policy refused. */
  const refusedByCsp: string[] = [];

  /** Each series of a chart with the sum of its bars' values. */
  async function seriesSums(chart: string): Promise<Record<string, number>> {
    const bars = await page.locator(`#${chart} rect[data-series]`).all();
    const sums: Record<string, number> = {};
    for (const bar of bars) {
      const series = (await bar.getAttribute('data-series')) ?? '';
      sums[series] = (sums[series] ?? 0) + Number(await bar.getAttribute('data-value'));
    }
    return sums;
  }

  /** The legend's series, in order. */
  const legend = (chart: string) =>
    page
      .locator(`#${chart} .legend li`)
      .all()
      .then((items) => Promise.all(items.map((item) => item.getAttribute('data-series'))));

  /** Each category of a grouped chart with its bars' values by series. */
  async function groups(chart: string): Promise<Record<string, Record<string, number>>> {
    const result: Record<string, Record<string, number>> = {};
    for (const group of await page.locator(`#${chart} g[data-category]`).all()) {
      const name = (await group.getAttribute('data-category')) ?? '';
      result[name] = {};
      for (const bar of await group.locator('rect[data-series]').all()) {
        result[name][(await bar.getAttribute('data-series')) ?? ''] = Number(
          await bar.getAttribute('data-value'),
        );
      }
    }
    return result;
  }

  beforeAll(async () => {
    const home = makeHome();
    await seedJournal(home);
    gateway = await startRecordingGateway(
      {
        secret: SECRET,
        admin: { host: '127.0.0.1', port: 0, token: ADMIN_TOKEN },
        routes: { reviews: { events: ['pull_request'] }, triage: { events: ['issues'] } },
      },
      { home },
    );
    adminUrl = await adminUrlOf(gateway);
    // Two events the route does not take: answered `ignored`, counted by the running gateway.
    for (let n = 0; n < 2; n++) {
      const sent = await sendForge(gateway.url, 'reviews', {
        body: JSON.stringify({ action: 'created' }),
        secret: SECRET,
        event: 'issue_comment',
        deliveryId: newDeliveryId(),
      });
      expect(sent.status).toBe(200);
    }

    browser = await launchChromium();
    const context = await browser.newContext({
      extraHTTPHeaders: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refusedByCsp.push(message.text());
    });
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    cleanupHomes();
  });

  it('charts the last 24 h by outcome, with the ignored requests of the running gateway', async () => {
    await page.goto(`${adminUrl}/dashboard/overview`);
    await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
    expect(await legend('chart-outcomes')).toEqual([
      'delivered',
      'failed',
      'ignored',
      'superseded',
      'denied',
      'over_budget',
      'silent',
      'skipped',
    ]);
    expect(await seriesSums('chart-outcomes')).toEqual({
      delivered: 3,
      ignored: 2,
      superseded: 1,
      denied: 1,
      over_budget: 1,
    });
    const picture = page.getByRole('img', { name: /Deliveries per hour by outcome, last 24 h/ });
    expect(await picture.getAttribute('aria-label')).toContain('delivered 3, failed 0, ignored 2');
    expect(await page.locator('#chart-outcomes g[data-category]').count()).toBe(24);
  });

  it('gives agent time p50 and p95 per route for the runs of the window', async () => {
    expect(await legend('chart-agent-time')).toEqual(['p50', 'p95']);
    // reviews ran 2, 4 and 8 s in the last 24 h; triage did not run.
    expect(await groups('chart-agent-time')).toEqual({
      'reviews (3 runs)': { p50: 4000, p95: 8000 },
    });
  });

  it('sums tokens and money per route over the days, one money chart per currency', async () => {
    expect(await seriesSums('chart-tokens')).toEqual({ reviews: 6500, triage: 200 });
    expect(await legend('chart-tokens')).toEqual(['reviews', 'triage']);
    // Rows without a cost (no `agent.prices` then) add nothing; no other currency was recorded.
    expect(await page.locator('[id^="chart-money"]').count()).toBe(1);
    expect(await seriesSums('chart-money-EUR')).toEqual({ reviews: 0.75, triage: 0.125 });
  });

  it('switches to 7 days by a plain link', async () => {
    await page.getByRole('link', { name: 'Last 7 days' }).click();
    await page.waitForURL(/window=7d/);
    expect(await page.getByRole('link', { name: 'Last 7 days' }).getAttribute('aria-current')).toBe(
      'page',
    );
    expect(await page.locator('#chart-outcomes g[data-category]').count()).toBe(168);
    expect(await seriesSums('chart-outcomes')).toEqual({
      delivered: 4,
      failed: 1,
      ignored: 2,
      superseded: 1,
      denied: 1,
      over_budget: 1,
    });
    expect(await groups('chart-agent-time')).toEqual({
      'reviews (4 runs)': { p50: 4000, p95: 8000 },
      'triage (1 run)': { p50: 1000, p95: 1000 },
    });
  });

  it('shows the numbers as a table on request, and the CSP blocked nothing', async () => {
    const numbers = page.locator('#chart-agent-time details');
    await numbers.locator('summary').click();
    const rows = numbers.locator('tbody tr');
    expect(await rows.count()).toBe(2);
    expect(await rows.first().textContent()).toContain('reviews (4 runs)');
    expect(refusedByCsp).toEqual([]);
  });
});
