#!/usr/bin/env node
// Makes docs/images/dashboard-overview.png (7 days) and dashboard-overview-24h.png: seeds a
// journal with a week of deliveries on three routes (a fixed pseudo-random sequence, so the
// pictures only change when the dashboard does), starts the built CLI on it, sends a few
// requests it ignores, and screenshots the overview page in Debian's Chromium.
// Run after `npm run build`: node docs/images/screenshot-overview.mjs
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
// By path, as the CLI is started by path: the built store of this checkout.
import { openSqliteStore } from '../../packages/store-sqlite/dist/index.js';
import { postForgeDelivery, startBuiltGateway } from './screenshot-gateway.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SECRET = 'screenshot-secret-0123456789';
const TOKEN = 'screenshot-admin-token-0123456789';
const HOUR = 3_600_000;

/** mulberry32: a small seeded generator, so every run seeds the same week. */
function generator(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}
const random = generator(17);
/** A duration around `medianMs` with a long tail, as agent runs have. */
const skewed = (medianMs) =>
  Math.round(medianMs * Math.exp((random() - 0.5) * 1.4 + random() ** 4 * 1.6));

/** Each route: deliveries an hour at the busiest time, agent time, tokens, and how runs end. */
const ROUTES = {
  'pr-review': { event: 'pull_request', peak: 5, runMs: 38_000, tokens: 21_000 },
  'review-command': { event: 'issue_comment', peak: 2, runMs: 26_000, tokens: 9_000 },
  triage: { event: 'issues', peak: 1.5, runMs: 7_000, tokens: 2_400 },
};

/** Busier in the European and American working day, quieter at the weekend. */
function rateAt(time, peak) {
  const date = new Date(time);
  const hour = date.getUTCHours();
  const day = date.getUTCDay();
  const daytime = Math.max(0, Math.sin(((hour - 6) / 16) * Math.PI));
  const weekend = day === 0 || day === 6 ? 0.35 : 1;
  return peak * (0.08 + daytime) * weekend;
}

const pullRequest = JSON.parse(
  fs.readFileSync(path.join(root, 'test/fixtures/forge/pull_request_opened.json'), 'utf8'),
);

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-screenshot-'));
const store = openSqliteStore({ path: path.join(home, 'state.db') });
const now = Date.now();
const firstHour = Math.floor(now / HOUR) * HOUR - 167 * HOUR;
let serial = 0;
for (let hour = firstHour; hour <= now; hour += HOUR) {
  for (const [route, shape] of Object.entries(ROUTES)) {
    const expected = rateAt(hour, shape.peak);
    const count = Math.floor(expected + random());
    for (let n = 0; n < count; n++) {
      const receivedAt = hour + Math.floor(random() * HOUR);
      if (receivedAt > now - 60_000) continue;
      await seed(route, shape, receivedAt);
    }
  }
}
await store.close();

async function seed(route, shape, receivedAt) {
  serial++;
  const number = 100 + (serial % 60);
  const payload = {
    ...pullRequest,
    number,
    pull_request: {
      ...pullRequest.pull_request,
      number,
      html_url: `https://github.com/Codertocat/Hello-World/pull/${number}`,
    },
  };
  const delivery = {
    route,
    event: shape.event,
    action: 'opened',
    deliveryId: `seed-${serial}`,
    receivedAt,
    payload,
    headers: { 'x-forge-event': shape.event },
    orderKey: `${route}|Codertocat/Hello-World|${number}`,
    maxAttempts: 3,
    supersede: route === 'pr-review',
  };
  const accepted = await store.accept(delivery, HOUR);
  if (!accepted.accepted) return;
  let { id } = accepted.record;
  const roll = random();
  if (route === 'pr-review' && roll < 0.06) {
    // A second push before this one ran: the newer delivery supersedes it and runs instead.
    const newer = await store.accept(
      { ...delivery, deliveryId: `seed-${serial}-push`, receivedAt: receivedAt + 20_000 },
      HOUR,
    );
    if (!newer.accepted) return;
    id = newer.record.id;
    receivedAt += 20_000;
  }
  const startedAt = receivedAt + 200 + Math.floor(random() * 1500);
  if (route === 'review-command' && roll < 0.16) {
    await store.markRunning(id, startedAt);
    await store.markRefused(id, 'denied', 'permission: read', startedAt + 300);
    return;
  }
  if (route === 'pr-review' && roll > 0.97) {
    await store.markRunning(id, startedAt);
    await store.markRefused(id, 'over_budget', 'runs_per_day 200 reached', startedAt);
    return;
  }
  const runMs = skewed(shape.runMs);
  const totalTokens = Math.round(shape.tokens * (0.5 + random()));
  const completionTokens = Math.round(totalTokens * 0.12);
  const promptTokens = totalTokens - completionTokens;
  await store.markRunning(id, startedAt);
  await store.saveProgress(id, {
    agent: {
      runner: 'openai',
      model: 'review-model',
      turns: 3,
      usage: { promptTokens, completionTokens, totalTokens },
      // Prices of 3 and 15 USD per million prompt and completion tokens.
      cost: {
        amount: Math.round(promptTokens * 0.3 + completionTokens * 1.5) / 100_000,
        currency: 'USD',
      },
    },
  });
  if (roll > 0.94) {
    await store.markFailed(id, 'forge answered 502', startedAt + runMs);
  } else {
    await store.markDelivered(id, startedAt + runMs);
  }
}
console.log(`seeded ${serial} deliveries`);

fs.writeFileSync(
  path.join(home, 'config.yaml'),
  JSON.stringify({
    agent: { runner: 'openai', base_url: 'http://127.0.0.1:9/v1', model: 'review-model' },
    platforms: {
      webhook: {
        extra: {
          host: '127.0.0.1',
          port: 0,
          secret: SECRET,
          admin: { host: '127.0.0.1', port: 0, token: TOKEN },
          routes: Object.fromEntries(
            Object.entries(ROUTES).map(([route, shape]) => [route, { events: [shape.event] }]),
          ),
        },
      },
    },
  }),
);
const { child, url, adminUrl } = await startBuiltGateway(home);
let week;
let day;
try {
  // Events the routes do not take: answered `ignored`, counted by the running gateway only.
  for (let n = 0; n < 3; n++) {
    const body = JSON.stringify({ action: 'closed', number: n });
    await postForgeDelivery(url, {
      route: 'pr-review',
      event: 'pull_request_review',
      deliveryId: `ignored-${n}`,
      body,
      secret: SECRET,
    });
  }

  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 } });
  await page.goto(`${adminUrl}/dashboard/overview?window=7d`);
  await page.getByLabel('Admin token').fill(TOKEN);
  await page.keyboard.press('Enter');
  await page.getByRole('heading', { name: 'Overview', level: 1 }).waitFor();
  week = path.join(root, 'docs/images/dashboard-overview.png');
  await page.screenshot({ path: week, fullPage: true });
  await page.getByRole('link', { name: 'Last 24 h' }).click();
  await page.waitForURL(/window=24h/);
  day = path.join(root, 'docs/images/dashboard-overview-24h.png');
  await page.locator('#chart-outcomes').screenshot({ path: day });
  await browser.close();
} finally {
  child.kill('SIGTERM');
  fs.rmSync(home, { recursive: true, force: true });
}
console.log(week);
console.log(day);
