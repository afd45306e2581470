#!/usr/bin/env node
// Regenerates docs/images/dashboard*.png: starts the built CLI on loopback with a fake
// chat-completions server, sends a few deliveries, and photographs the dashboard in Chromium.
// Run from the repository root after a build: node packages/dashboard/scripts/screenshot.mjs
import { spawn } from 'node:child_process';
import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium } from 'playwright-core';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const images = path.join(root, 'docs/images');
const SECRET = 'screenshot-secret-0123456789';
const ADMIN_TOKEN = 'screenshot-admin-token-0123456789abcdef';

/** A model that reads the diff with one terminal call, then answers (failing for "flaky"). */
function startFakeChat() {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8').on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const { messages } = JSON.parse(body);
      const afterTool = messages.at(-1).role === 'tool';
      const message = afterTool
        ? {
            role: 'assistant',
            content: 'Reviewed: the README change reads well. One nit on line 3.',
          }
        : {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_1',
                type: 'function',
                function: {
                  name: 'terminal',
                  arguments: '{"command":"echo diff --git a/README.md"}',
                },
              },
            ],
          };
      res.writeHead(200, { 'Content-Type': 'application/json' });
      res.end(
        JSON.stringify({
          choices: [{ message, finish_reason: afterTool ? 'stop' : 'tool_calls' }],
          usage: { prompt_tokens: 812, completion_tokens: 96, total_tokens: 908 },
        }),
      );
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

function sign(body) {
  return `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
}

async function send(baseUrl, route, fixture, event, deliveryId) {
  const body = fs.readFileSync(path.join(root, 'test/fixtures/forge', `${fixture}.json`));
  const response = await fetch(`${baseUrl}/webhooks/${route}`, {
    method: 'POST',
    body,
    headers: {
      'Content-Type': 'application/json',
      'X-Forge-Event': event,
      'X-Forge-Signature-256': sign(body),
      'X-Forge-Delivery': deliveryId,
      'User-Agent': 'GitHub-Hookshot/5a3e2f1',
    },
  });
  if (response.status !== 202)
    throw new Error(`${route}: ${response.status} ${await response.text()}`);
}

async function waitFor(check, what) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const chat = await startFakeChat();
const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-screenshot-'));
const config = `
platforms:
  webhook:
    extra:
      host: 127.0.0.1
      port: 0
      secret: ${SECRET}
      max_attempts: 2
      retry_backoff_ms: 200
      admin: { host: 127.0.0.1, port: 0, token: ${ADMIN_TOKEN} }
      routes:
        reviews:
          events: [pull_request]
          prompt: "Review PR #{number} in {repository.full_name}: {pull_request.title}"
          agent: { runner: openai, base_url: "http://127.0.0.1:${chat.address().port}/v1", model: qwen2.5-coder }
        pushes:
          events: [push]
          agent: { runner: command, command: [${JSON.stringify(process.execPath)}, -e, "process.stdin.resume(); process.stdin.on('end', () => console.log('ok'))"] }
        triage:
          events: [issues]
          agent: { runner: command, command: [${JSON.stringify(process.execPath)}, -e, "console.error('model server unreachable'); process.exit(2)"] }
`;
fs.writeFileSync(path.join(home, 'config.yaml'), config);
const child = spawn(
  process.execPath,
  [path.join(root, 'packages/cli/dist/bin.js'), 'gateway', '--home', home],
  {
    stdio: ['ignore', 'pipe', 'inherit'],
  },
);
let browser;
try {
  let stdout = '';
  child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
  const port = await waitFor(() => /Listening on [^:]+:(\d+)/.exec(stdout)?.[1], 'the gateway');
  const baseUrl = `http://127.0.0.1:${port}`;
  const logFile = path.join(home, 'logs/gateway.log');
  const adminPort = await waitFor(
    () =>
      fs.existsSync(logFile) &&
      fs
        .readFileSync(logFile, 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line))
        .find((line) => line.msg === 'admin listening')?.port,
    'the admin listener',
  );
  const adminUrl = `http://127.0.0.1:${adminPort}`;

  await send(baseUrl, 'reviews', 'pull_request_opened', 'pull_request', 'a1f3c2e0-0001');
  await send(baseUrl, 'pushes', 'push', 'push', 'b7d2e9a4-0002');
  await send(baseUrl, 'reviews', 'pull_request_synchronize', 'pull_request', 'c4e8f1b2-0003');
  await send(baseUrl, 'triage', 'issues_opened', 'issues', 'd9a0b3c5-0004');
  await send(baseUrl, 'reviews', 'pull_request_labeled', 'pull_request', 'e2b6c7d8-0005');
  await waitFor(async () => {
    const rows = await fetch(`${adminUrl}/dashboard/fragments/deliveries`, {
      headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    const text = await rows.text();
    return !text.includes('status-queued') && !text.includes('status-running');
  }, 'the deliveries to finish');

  browser = await chromium.launch({
    executablePath: '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const context = await browser.newContext({
    viewport: { width: 1280, height: 640 },
    deviceScaleFactor: 1,
  });
  const page = await context.newPage();
  await page.goto(`${adminUrl}/dashboard/login`);
  await page.getByLabel('Admin token').fill(ADMIN_TOKEN);
  await page.keyboard.press('Enter');
  await page.locator('#deliveries').waitFor();
  fs.mkdirSync(images, { recursive: true });
  await page.screenshot({ path: path.join(images, 'dashboard.png') });

  await page.getByRole('link', { name: 'a1f3c2e0-0001' }).click();
  await page.locator('#attempts').waitFor();
  await page.setViewportSize({ width: 1280, height: 1100 });
  await page.screenshot({ path: path.join(images, 'dashboard-delivery.png') });

  await page.getByRole('link', { name: 'Routes' }).click();
  await page.locator('#routes').waitFor();
  await page.setViewportSize({ width: 1280, height: 420 });
  await page.screenshot({ path: path.join(images, 'dashboard-routes.png') });

  const phone = await browser.newContext({
    viewport: { width: 390, height: 844 },
    deviceScaleFactor: 1,
    storageState: await context.storageState(),
  });
  const small = await phone.newPage();
  await small.goto(`${adminUrl}/dashboard`);
  await small.locator('#deliveries').waitFor();
  await small.screenshot({ path: path.join(images, 'dashboard-phone.png') });
  console.log(`wrote ${path.relative(root, images)}/dashboard*.png`);
} finally {
  await browser?.close();
  child.kill('SIGTERM');
  await new Promise((resolve) => child.once('exit', resolve));
  chat.close();
  fs.rmSync(home, { recursive: true, force: true });
}
