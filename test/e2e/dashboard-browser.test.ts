/**
 * The dashboard driven in Debian's Chromium (playwright-core) against the real CLI: the login,
 * filters, live refresh, a delivery's page, a replay whose new attempt appears, the routes page,
 * and use by keyboard and on a phone-sized screen.
 *
 * Without /usr/bin/chromium these tests skip on a workstation and fail in CI (`CI` set), where
 * .ci/run installs it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { type Browser, type BrowserContext, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminUrlOf, cleanupHomes, waitFor } from '../support/gateway.js';
import { startRecordingGateway, type RecordingGateway } from '../support/recording-gateway.js';
import { fixture, newDeliveryId, sendForge } from '../support/requests.js';
import { browserSuiteSkipped, launchChromium } from '../support/chromium.js';

/** The few DOM shapes the in-page functions use: the test project compiles without the DOM lib. */
interface PageElement {
  readonly textContent: string | null;
}
declare const window: { readonly __pwned?: number };
declare const document: {
  readonly activeElement: PageElement | null;
  readonly documentElement: { readonly scrollWidth: number; readonly clientWidth: number };
};
declare function getComputedStyle(
  element: PageElement,
  pseudoElement?: string,
): { readonly outlineStyle: string; readonly outlineWidth: string; readonly content: string };

const skipWithoutChromium = browserSuiteSkipped('dashboard browser tests');

const SECRET = 'browser-secret-0123456789';
const ADMIN_TOKEN = 'browser-admin-token-3e2f1a0b9c8d7e6f';
const HOSTILE_TITLE = 'Fix <img src=x onerror="window.__pwned=1"> parsing';
/** The fake model's final answer. */
const ANSWER = 'Reviewed: 2 files, no blocking issues.';

/**
 * A chat-completions server on loopback: the first turn asks for one `terminal` call, the next
 * answers; 11 prompt and 7 completion tokens per turn.
 */
async function startFakeChatServer(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      const { messages } = JSON.parse(body) as { messages: { role: string }[] };
      const afterTool = messages.at(-1)?.role === 'tool';
      const message = afterTool
        ? { role: 'assistant', content: ANSWER }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: { name: 'terminal', arguments: '{"command":"echo reviewed"}' },
              },
            ],
          };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ message, finish_reason: afterTool ? 'stop' : 'tool_calls' }],
          usage: { prompt_tokens: 11, completion_tokens: 7, total_tokens: 18 },
        }),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/v1`,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

describe.skipIf(skipWithoutChromium)('the dashboard in Chromium', () => {
  let gateway: RecordingGateway;
  let chat: Awaited<ReturnType<typeof startFakeChatServer>>;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let adminUrl: string;
  const reviewId = newDeliveryId();
  const pushId = newDeliveryId();

  const pushRuns = () => gateway.agentRuns().filter((r) => r.route === 'pushes');

  /** The delivery ids the table shows, top to bottom. */
  const tableIds = (on: Page = page) =>
    on
      .locator('#deliveries tbody tr[data-delivery-id]')
      .all()
      .then((rows) => Promise.all(rows.map((row) => row.getAttribute('data-delivery-id'))));

  async function sendPush(deliveryId: string): Promise<void> {
    const sent = await sendForge(gateway.url, 'pushes', {
      body: fixture('forge/push.json'),
      secret: SECRET,
      event: 'push',
      deliveryId,
    });
    expect(sent.status).toBe(202);
  }

  beforeAll(async () => {
    chat = await startFakeChatServer();
    gateway = await startRecordingGateway({
      secret: SECRET,
      admin: { host: '127.0.0.1', port: 0, token: ADMIN_TOKEN },
      routes: {
        reviews: {
          events: ['pull_request'],
          prompt: 'Review PR #{number}: {pull_request.title}',
          agent: {
            runner: 'openai',
            base_url: chat.url,
            model: 'fake-model',
            // 22 prompt and 14 completion tokens: 0.022 + 0.028 EUR.
            prices: { prompt_per_1k: 1, completion_per_1k: 2, currency: 'EUR' },
          },
        },
        pushes: { events: ['push'] },
      },
    });
    adminUrl = await adminUrlOf(gateway);

    const payload = JSON.parse(fixture('forge/pull_request_opened.json').toString('utf8')) as {
      pull_request: { title: string };
    };
    payload.pull_request.title = HOSTILE_TITLE;
    const sent = await sendForge(gateway.url, 'reviews', {
      body: JSON.stringify(payload),
      secret: SECRET,
      event: 'pull_request',
      deliveryId: reviewId,
    });
    expect(sent.status).toBe(202);
    await sendPush(pushId);
    await waitFor(async () => {
      const rows = await fetch(`${adminUrl}/dashboard/fragments/deliveries?status=delivered`, {
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const text = await rows.text();
      return text.includes(reviewId) && text.includes(pushId) ? true : undefined;
    }, 'both deliveries to be delivered');

    browser = await launchChromium();
    context = await browser.newContext();
    // Shorter than the test timeout, so a failed wait names the element it waited for.
    context.setDefaultTimeout(15_000);
    page = await context.newPage();
  });

  afterAll(async () => {
    await browser?.close();
    await gateway?.stop();
    await chat?.close();
    cleanupHomes();
  });

  it('sends a visitor without the token to the login form', async () => {
    const response = await page.goto(`${adminUrl}/dashboard/routes`);
    expect(new URL(page.url()).pathname).toBe('/dashboard/login');
    expect(response?.status()).toBe(200);
    await page.getByRole('heading', { name: 'Log in to the dashboard' }).waitFor();
    expect(await page.locator('#deliveries').count()).toBe(0);
  });

  it('refuses a wrong token, then logs in with the right one using the keyboard', async () => {
    await page.goto(`${adminUrl}/dashboard`);
    await page.getByLabel('Admin token').fill('certainly-not-the-admin-token');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toContain('not the admin token');

    await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { name: 'Deliveries', level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe('/dashboard');
    expect(await tableIds()).toEqual([pushId, reviewId]);
    const [cookie] = await context.cookies();
    expect(cookie).toMatchObject({ name: 'wg_admin_session', httpOnly: true, sameSite: 'Strict' });
  });

  it('filters the deliveries by route and by status', async () => {
    await page.getByLabel('Route').selectOption('pushes');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/route=pushes/);
    expect(await tableIds()).toEqual([pushId]);

    await page.getByLabel('Status').selectOption('failed');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.waitForURL(/status=failed/);
    expect(await tableIds()).toEqual([]);
    expect(await page.locator('#deliveries tbody').textContent()).toContain('No deliveries match');

    await page.getByRole('link', { name: 'Clear filters' }).click();
    await page.waitForURL(`${adminUrl}/dashboard`);
    expect(await tableIds()).toEqual([pushId, reviewId]);
  });

  it('shows a new delivery in the open table without a reload', async () => {
    await page.goto(`${adminUrl}/dashboard`);
    const loads: string[] = [];
    const onLoad = () => loads.push(page.url());
    page.on('load', onLoad);
    try {
      const newPushId = newDeliveryId();
      await sendPush(newPushId);
      await page.locator(`#deliveries tr[data-delivery-id="${newPushId}"]`).waitFor();
      expect(await tableIds()).toEqual([newPushId, pushId, reviewId]);
      expect(loads).toEqual([]);
    } finally {
      page.off('load', onLoad);
    }
  });

  it('opens a delivery with its headers, payload, prompt, answer, tool calls and tokens', async () => {
    await page.goto(`${adminUrl}/dashboard`);
    await page.getByRole('link', { name: reviewId }).click();
    await page.getByRole('heading', { name: `Delivery ${reviewId}` }).waitFor();
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('x-forge-event');
    expect(text).toContain(HOSTILE_TITLE);
    expect(text).toContain(`Review PR #`);
    expect(text).toContain(ANSWER);
    expect(text).toContain('fake-model');
    expect(text).toContain('36 (prompt 22, completion 14)');
    expect(text).toMatch(/Cost\s*0\.05 EUR/);
    expect(await page.locator('#tool-calls tbody tr').count()).toBe(1);
    expect(await page.locator('#tool-calls').textContent()).toContain('echo reviewed');
    expect(await page.locator('#attempts tbody tr').count()).toBe(1);
    // The payload's markup stayed text: no element was made of it, no handler ran.
    expect(await page.locator('main img').count()).toBe(0);
    expect(await page.evaluate(() => window.__pwned)).toBeUndefined();
  });

  it('replays the delivery and shows the new attempt as it happens', async () => {
    const replayButton = page.getByRole('button', { name: 'Replay' });
    await replayButton.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('status').filter({ hasText: 'Replay queued' }).waitFor();
    expect(new URL(page.url()).search).toBe('?replayed=1');
    // The live refresh brings the second attempt in once the gateway's pool has run it.
    const second = page.locator('#attempts tbody tr[data-attempt="2"]');
    await second.waitFor();
    await page
      .locator('#attempts tbody tr[data-attempt="2"] td[data-label="Result"]')
      .filter({ hasText: 'ok' })
      .waitFor();
    expect(await page.locator('#attempts tbody tr').count()).toBe(2);
    // Offered again once the replay has finished.
    await page.getByRole('button', { name: 'Replay' }).waitFor();
  });

  it("shows each route's deliveries of the last 24 h", async () => {
    await page.getByRole('link', { name: 'Routes' }).click();
    await page.getByRole('heading', { name: 'Routes', level: 1 }).waitFor();
    const count = (route: string, key: string) =>
      page.locator(`#routes tr[data-route="${route}"] td[data-count="${key}"]`).textContent();
    expect(await count('reviews', 'received')).toBe('1');
    expect(await count('pushes', 'received')).toBe('2');
    // The routes page does not refresh itself: look again until the second push is delivered.
    await waitFor(async () => {
      await page.reload();
      return (await count('pushes', 'delivered')) === '2' ? true : undefined;
    }, 'both pushes delivered');
    expect(await count('reviews', 'failed')).toBe('0');
    expect(pushRuns()).toHaveLength(2);
  });

  it('offers a skip link first and shows where the keyboard focus is', async () => {
    await page.goto(`${adminUrl}/dashboard`);
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const element = document.activeElement;
      if (!element) return undefined;
      const style = getComputedStyle(element);
      return { text: element.textContent, outline: style.outlineStyle, width: style.outlineWidth };
    });
    expect(focused).toEqual({ text: 'Skip to content', outline: 'solid', width: '3px' });
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Deliveries');
  });

  it('fits a phone screen without sideways scrolling', async () => {
    const phone = await browser.newContext({
      viewport: { width: 360, height: 740 },
      storageState: await context.storageState(),
    });
    try {
      const small = await phone.newPage();
      const journalLink = await page.getByRole('link', { name: reviewId }).getAttribute('href');
      for (const pathname of [
        '/dashboard',
        journalLink ?? '',
        '/dashboard/routes',
        '/dashboard/overview',
      ]) {
        await small.goto(`${adminUrl}${pathname}`);
        await small.locator('main h1').waitFor();
        const overflow = await small.evaluate(
          () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
        );
        expect(overflow, pathname).toBeLessThanOrEqual(0);
      }
      await small.goto(`${adminUrl}/dashboard`);
      // Tables become labelled cards: each cell names its column, the header row is out of view.
      const firstCell = small.locator('#deliveries tbody td').first();
      expect(
        await firstCell.evaluate((td: PageElement) => getComputedStyle(td, '::before').content),
      ).toBe('"Received"');
      const header = await small.locator('#deliveries thead').boundingBox();
      expect((header?.x ?? 0) + (header?.width ?? 0)).toBeLessThanOrEqual(0);
    } finally {
      await phone.close();
    }
  });
});
