#!/usr/bin/env node
// Makes docs/images/dashboard-deliveries-tokens.png: the built CLI on loopback with a route whose
// agent is a local chat-completions stand-in that reports usage, a daily budget of 2 runs, three
// pull requests (the third refused over_budget), screenshotted in Debian's Chromium.
// Run after `npm run build`: node docs/images/screenshot-deliveries.mjs
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';
import { postForgeDelivery, startBuiltGateway } from './screenshot-gateway.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SECRET = 'screenshot-secret-0123456789';
const TOKEN = 'screenshot-admin-token-0123456789';

// A chat-completions stand-in on loopback: one answer, 1,240 prompt and 310 completion tokens.
const chat = http.createServer((req, res) => {
  req.resume();
  req.on('end', () => {
    res.setHeader('content-type', 'application/json');
    res.end(
      JSON.stringify({
        id: 'chatcmpl-screenshot',
        object: 'chat.completion',
        model: 'review-model',
        choices: [
          {
            index: 0,
            finish_reason: 'stop',
            message: { role: 'assistant', content: 'Looks good.' },
          },
        ],
        usage: { prompt_tokens: 1240, completion_tokens: 310, total_tokens: 1550 },
      }),
    );
  });
});
await new Promise((resolve) => chat.listen(0, '127.0.0.1', resolve));

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-screenshot-'));
fs.writeFileSync(
  path.join(home, 'config.yaml'),
  JSON.stringify({
    agent: {
      runner: 'openai',
      base_url: `http://127.0.0.1:${chat.address().port}/v1`,
      model: 'review-model',
      terminal: { enabled: false },
    },
    platforms: {
      webhook: {
        extra: {
          host: '127.0.0.1',
          port: 0,
          secret: SECRET,
          admin: { host: '127.0.0.1', port: 0, token: TOKEN },
          routes: {
            'pr-review': { events: ['pull_request'], budget: { runs_per_day: 2 } },
          },
        },
      },
    },
  }),
);
const { child, url, adminUrl } = await startBuiltGateway(home);

const fixture = JSON.parse(
  fs.readFileSync(path.join(root, 'test/fixtures/forge/pull_request_opened.json'), 'utf8'),
);
for (const number of [7, 8, 9]) {
  const body = JSON.stringify({
    ...fixture,
    number,
    pull_request: {
      ...fixture.pull_request,
      number,
      html_url: `https://github.com/Codertocat/Hello-World/pull/${number}`,
    },
  });
  await postForgeDelivery(url, {
    route: 'pr-review',
    event: 'pull_request',
    deliveryId: `screenshot-${number}`,
    body,
    secret: SECRET,
  });
  // One at a time, so the budget sees the runs before it.
  await new Promise((resolve) => setTimeout(resolve, 1500));
}

const browser = await chromium.launch({ executablePath: '/usr/bin/chromium' });
const page = await browser.newPage({ viewport: { width: 1440, height: 520 } });
await page.goto(`${adminUrl}/dashboard`);
await page.getByLabel('Admin token').fill(TOKEN);
await page.keyboard.press('Enter');
await page.getByRole('heading', { name: 'Deliveries', level: 1 }).waitFor();
const out = path.join(root, 'docs/images/dashboard-deliveries-tokens.png');
await page.screenshot({ path: out, fullPage: true });
await browser.close();
child.kill('SIGTERM');
chat.close();
fs.rmSync(home, { recursive: true, force: true });
console.log(out);
