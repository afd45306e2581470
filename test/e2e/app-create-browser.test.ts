/**
 * `webhook-gateway app create` end to end: the built CLI serves its one-button page, Debian's
 * Chromium (playwright-core) presses the button, and the TLS fake forge takes the manifest's form
 * POST and plays the forge's redirect back with a code. The test then reads what the CLI wrote:
 * config.yaml (init's comments kept, the App and its route set), app.pem (mode 0600), and the
 * install URL it printed; `config validate` and `app status` then run on that home.
 *
 * Without /usr/bin/chromium these tests skip on a workstation and fail in CI (`CI` set), where
 * .ci/run installs it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { type Browser, type BrowserContext } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { appKeyPair } from '../../packages/deliver-forge-comment/src/test-support/app-key.js';
import {
  startFakeForgeApi,
  type FakeForgeApi,
} from '../../packages/deliver-forge-comment/src/test-support/fake-forge-api.js';
import { cleanupHomes, cliPath, makeHome, runCli, waitFor } from '../support/gateway.js';
import { browserSuiteSkipped, launchChromium } from '../support/chromium.js';

const skipWithoutChromium = browserSuiteSkipped('app create browser tests');

const APP_ID = 31337;
const CODE = 'manifest-code-77';
const WEBHOOK_SECRET = 'whsec-made-by-the-fake-forge-0123456789';
const PUBLIC_URL = 'https://hooks.example.com';

let forge: FakeForgeApi;
let browser: Browser;
let context: BrowserContext;
const children: ChildProcess[] = [];

/** The CLI trusts the fake's certificate (undici reads Node's CA store) and no ambient token. */
function cliEnv(): Record<string, string | undefined> {
  return { NODE_EXTRA_CA_CERTS: forge.certFile, GH_TOKEN: undefined, GITHUB_TOKEN: undefined };
}

interface RunningCreate {
  /** The page, as the CLI printed it. */
  url: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

/** Starts `app create` as an operator would and waits for the page's URL. */
async function startCreate(args: string[]): Promise<RunningCreate> {
  const child = spawn(process.execPath, [cliPath, 'app', 'create', ...args], {
    env: { ...process.env, ...cliEnv() },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const url = await waitFor(() => {
    if (child.exitCode !== null) {
      throw new Error(`app create exited with ${child.exitCode}: ${stderr}`);
    }
    return /^Open (http:\/\/127\.0\.0\.1:\d+\/) in a browser/m.exec(stdout)?.[1];
  }, 'the page URL on stdout');
  return { url, stdout: () => stdout, stderr: () => stderr, exited };
}

/** A home made by `init`: the commented config.yaml an operator starts from. */
async function initHome(): Promise<string> {
  const home = makeHome();
  const init = await runCli(['init', '--home', home]);
  expect(init.code).toBe(0);
  return home;
}

const mode = (file: string) => fs.statSync(file).mode & 0o777;

interface WrittenConfig {
  platforms: {
    forge: { app: Record<string, unknown>; api_url?: string };
    webhook: { extra: { public_url?: string; routes: Record<string, Record<string, unknown>> } };
  };
}

beforeAll(async () => {
  forge = await startFakeForgeApi({
    app: {
      id: APP_ID,
      slug: 'wg-review',
      publicKey: appKeyPair().publicKey,
      installations: [
        { id: 90, account: 'acme', repositories: ['acme/alpha', 'acme/beta'] },
        {
          id: 91,
          account: 'octo',
          accountType: 'User',
          repositorySelection: 'all',
          repositories: ['octo/dots'],
        },
      ],
      conversion: { code: CODE, pem: appKeyPair().privateKey, webhook_secret: WEBHOOK_SECRET },
    },
  });
  if (skipWithoutChromium) return;
  browser = await launchChromium();
  // The fake forge's certificate is self-signed.
  context = await browser.newContext({ ignoreHTTPSErrors: true });
  context.setDefaultTimeout(15_000);
});

afterEach(() => {
  for (const child of children.splice(0)) {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  }
});

afterAll(async () => {
  await browser?.close();
  await forge.close();
  cleanupHomes();
});

describe.skipIf(skipWithoutChromium)('app create in Chromium', () => {
  let home: string;
  let initText: string;

  it('makes the App from the manifest and saves its ID, key and webhook secret in the home', async () => {
    home = await initHome();
    initText = fs.readFileSync(path.join(home, 'config.yaml'), 'utf8');
    const githubUrl = `https://${forge.host}`;
    const run = await startCreate([
      '--home',
      home,
      '--org',
      'acme',
      '--public-url',
      PUBLIC_URL,
      '--github-url',
      githubUrl,
      '--route',
      'github-app',
    ]);
    const page = await context.newPage();

    // A redirect that did not come from this page's form (no matching state) is refused, and
    // the flow goes on.
    const forged = await page.goto(`${run.url}callback?code=${CODE}&state=forged`);
    expect(forged?.status()).toBe(400);
    expect(await page.locator('#problem').textContent()).toContain('refused');
    await waitFor(
      () => (run.stderr().includes('with a state this run did not make') ? true : undefined),
      'the refusal on stderr',
    );

    await page.goto(run.url);
    expect(await page.locator('body').textContent()).toContain(`${PUBLIC_URL}/webhooks/github-app`);
    await page.locator('#create-app').click();
    const install = page.locator('#install');
    const installUrl = await install.getAttribute('href');
    expect(installUrl).toBe(`${githubUrl}/apps/wg-review/installations/new`);
    expect(await run.exited).toBe(0);

    // The forge got the manifest by the form, for the organisation, with the page's state.
    expect(forge.app?.manifests).toHaveLength(1);
    const posted = forge.app?.manifests[0];
    expect(posted?.org).toBe('acme');
    expect(posted?.state).toMatch(/^[0-9a-f]{32}$/);
    expect(posted?.manifest).toEqual({
      name: 'webhook-gateway-hooks',
      url: PUBLIC_URL,
      hook_attributes: { url: `${PUBLIC_URL}/webhooks/github-app`, active: true },
      redirect_url: `${run.url}callback`,
      public: false,
      default_events: ['pull_request', 'issue_comment', 'pull_request_review_comment'],
      default_permissions: {
        contents: 'read',
        pull_requests: 'write',
        issues: 'write',
        checks: 'write',
        metadata: 'read',
      },
    });

    // What it wrote.
    const keyFile = path.join(home, 'app.pem');
    expect(fs.readFileSync(keyFile, 'utf8')).toBe(appKeyPair().privateKey);
    expect(mode(keyFile)).toBe(0o600);
    const configFile = path.join(home, 'config.yaml');
    expect(mode(configFile)).toBe(0o600);
    const text = fs.readFileSync(configFile, 'utf8');
    const comments = (t: string) => t.split('\n').filter((line) => line.trim().startsWith('#'));
    expect(comments(text).map((line) => line.trim())).toEqual(
      expect.arrayContaining(comments(initText).map((line) => line.trim())),
    );
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./config.schema.json');
    const written = parse(text) as WrittenConfig;
    expect(written.platforms.forge.app).toEqual({ app_id: APP_ID, private_key_file: 'app.pem' });
    expect(written.platforms.forge.api_url).toBe(forge.apiUrl);
    expect(written.platforms.webhook.extra.public_url).toBe(PUBLIC_URL);
    expect(written.platforms.webhook.extra.routes['github-app']).toMatchObject({
      secret: WEBHOOK_SECRET,
      events: ['pull_request'],
      deliver: 'forge_comment',
    });
    const before = parse(initText) as WrittenConfig;
    expect(written.platforms.webhook.extra.routes['pull-requests']).toEqual(
      before.platforms.webhook.extra.routes['pull-requests'],
    );

    // What it printed: the install URL, never the secret or the key.
    expect(run.stdout()).toContain(
      `Created the GitHub App "webhook-gateway-hooks" (app_id ${APP_ID})`,
    );
    expect(run.stdout().trimEnd().split('\n').at(-1)).toBe(`  ${installUrl}`);
    for (const output of [run.stdout(), run.stderr()]) {
      expect(output).not.toContain(WEBHOOK_SECRET);
      expect(output).not.toContain('PRIVATE KEY');
    }

    // The gateway takes what was written: the key checks out, the route has its secret.
    const validate = await runCli(['config', 'validate', '--home', home], { env: cliEnv() });
    expect(validate.stderr).toBe('');
    expect(validate.code).toBe(0);
  });

  it('shows the App’s installations and that its webhook reaches the route', async () => {
    const status = await runCli(['app', 'status', '--home', home], { env: cliEnv() });
    expect(status.stderr).toBe('');
    expect(status.code).toBe(0);
    expect(status.stdout).toContain(
      `App: wg-review (wg-review, app_id ${APP_ID}) at ${forge.apiUrl}`,
    );
    expect(status.stdout).toMatch(/^ {2}acme +Organization +90 +2 \(selected\)$/m);
    expect(status.stdout).toMatch(/^ {2}octo +User +91 +1 \(all\)$/m);
    expect(status.stdout).toContain(`Webhook: ${PUBLIC_URL}/webhooks/github-app (active)`);
    expect(status.stdout).toContain('it reaches route "github-app" of this gateway');
    expect(status.stdout).not.toContain(WEBHOOK_SECRET);

    const json = await runCli(['app', 'status', '--home', home, '--json'], { env: cliEnv() });
    expect(JSON.parse(json.stdout)).toMatchObject({
      app: { id: APP_ID, slug: 'wg-review' },
      installations: [
        { account: 'acme', repository_selection: 'selected', repositories: 2 },
        { account: 'octo', repository_selection: 'all', repositories: 1 },
      ],
      webhook: { active: true, route: 'github-app', reaches_gateway: true },
    });
  });

  it('says so, with exit 1, when the App’s webhook points elsewhere', async () => {
    forge.app?.setHookConfig({
      url: 'https://old.example.com/hook',
      content_type: 'json',
      insecure_ssl: '0',
    });
    const status = await runCli(['app', 'status', '--home', home], { env: cliEnv() });
    expect(status.code).toBe(1);
    expect(status.stdout).toContain('Webhook: https://old.example.com/hook (active)');
    expect(status.stdout).toContain(
      `it does not reach this gateway: its routes are at ${PUBLIC_URL}/webhooks/pull-requests, ${PUBLIC_URL}/webhooks/merge-requests, ${PUBLIC_URL}/webhooks/github-app`,
    );
  });

  it('fails naming the endpoint, and writes nothing, when the code is refused', async () => {
    // The fake's code was used above; the forge's codes are good once.
    const fresh = await initHome();
    const before = fs.readFileSync(path.join(fresh, 'config.yaml'), 'utf8');
    const run = await startCreate([
      '--home',
      fresh,
      '--public-url',
      PUBLIC_URL,
      '--github-url',
      `https://${forge.host}`,
    ]);
    const page = await context.newPage();
    await page.goto(run.url);
    await page.locator('#create-app').click();
    expect(await page.locator('#problem').textContent()).toContain('could not be exchanged');
    expect(await run.exited).toBe(1);
    expect(run.stderr()).toContain(
      `the forge made the App, but its code could not be exchanged: POST ${forge.apiUrl}/app-manifests/{code}/conversions: HTTP 404: Not Found`,
    );
    expect(run.stderr()).not.toContain(CODE);
    expect(fs.readFileSync(path.join(fresh, 'config.yaml'), 'utf8')).toBe(before);
    expect(fs.existsSync(path.join(fresh, 'app.pem'))).toBe(false);
    // A personal App: the form went to the user's new-App page.
    expect(forge.app?.manifests.at(-1)?.org).toBeUndefined();
  });
});

describe('app status without an App', () => {
  it('exits 1 saying platforms.forge.app is not configured', async () => {
    const home = await initHome();
    const status = await runCli(['app', 'status', '--home', home], { env: cliEnv() });
    expect(status.code).toBe(1);
    expect(status.stdout).toBe('');
    expect(status.stderr).toBe(
      `platforms.forge.app is not configured in ${path.join(home, 'config.yaml')}: there is no App to show; create one with webhook-gateway app create, or set it (docs/github-app.md)\n`,
    );
  });
});
