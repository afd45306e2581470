/**
 * Installed as a user installs it, outside this repository: every public package packed with
 * `npm pack`, the tarballs installed into a fresh project (the Redis store left out, as a default
 * install does), `npx webhook-gateway init`, the gateway started, a signed delivery delivered; then a
 * plugin written by `plugin init`, packed and installed beside the CLI, loads and delivers.
 * The Dockerfile runs the same steps (npm pack, then npm install of the tarballs).
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parse, stringify } from 'yaml';
import { readLogLines, startGateway, waitFor, type StartedGateway } from '../support/gateway.js';
import { packPackages, type PackedPackage } from '../support/pack-packages.js';
import { fixture, sendForge } from '../support/requests.js';

const run = promisify(execFile);

// npm builds better-sqlite3 from source here (a few minutes on a busy machine); the rest is quick.
const INSTALL_TIMEOUT_MS = 15 * 60_000;

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'wg-packs-')));
const project = path.join(work, 'project');
/** The gateway's home, outside the project, as `~/.webhook-gateway` is. */
const home = path.join(work, 'home');
const bin = path.join(project, 'node_modules', '.bin', 'webhook-gateway');
let packed: PackedPackage[] = [];
const running: StartedGateway[] = [];

/** Runs a command as a user would in `cwd`; rejects with its output on a non-zero exit. */
async function sh(cwd: string, command: string, args: string[]): Promise<string> {
  const { stdout } = await run(command, args, {
    cwd,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, FORCE_COLOR: '0', NO_COLOR: '1' },
  });
  return stdout;
}

function npmInstall(cwd: string, specs: string[]): Promise<string> {
  return sh(cwd, 'npm', ['install', '--prefer-offline', '--no-audit', '--no-fund', ...specs]);
}

/** The parts of the config `init` writes that these tests read or change. */
interface InitConfig {
  plugins?: string[];
  store?: { kind: string; url: string };
  platforms: {
    pager?: { url: string };
    webhook: {
      extra: {
        port: number;
        secret: string;
        routes: Record<string, { deliver: string; prompt?: string }>;
      };
    };
  };
}

/** The config `init` wrote, with `change` applied and port 0 (a free port). */
function editConfig(change: (config: InitConfig) => void): InitConfig {
  const file = path.join(home, 'config.yaml');
  const config = parse(fs.readFileSync(file, 'utf8')) as InitConfig;
  config.platforms.webhook.extra.port = 0;
  change(config);
  fs.writeFileSync(file, stringify(config), { mode: 0o600 });
  return config;
}

async function waitForDelivered(deliveryId: string): Promise<Record<string, unknown>> {
  return waitFor(
    () =>
      readLogLines(home).find(
        (line) => line.delivery_id === deliveryId && line.msg === 'delivered',
      ),
    `delivery ${deliveryId} delivered`,
    { timeoutMs: 60_000 },
  );
}

beforeAll(async () => {
  packed = await packPackages(path.join(work, 'packs'));
  fs.mkdirSync(project);
  // What `npm init -y` writes: a CommonJS project.
  fs.writeFileSync(
    path.join(project, 'package.json'),
    `${JSON.stringify({ name: 'gateway-user', version: '1.0.0', private: true }, null, 2)}\n`,
  );
  const defaults = packed.filter((entry) => entry.name !== '@webhook-gateway/store-redis');
  await npmInstall(
    project,
    defaults.map((entry) => entry.tarball),
  );
}, INSTALL_TIMEOUT_MS);

afterAll(async () => {
  for (const gateway of running.splice(0)) await gateway.stop();
  fs.rmSync(work, { recursive: true, force: true });
});

describe('installed from the packed tarballs', () => {
  it('packs every public package', () => {
    expect(packed.map((entry) => entry.name).sort()).toEqual([
      '@webhook-gateway/agent',
      '@webhook-gateway/auth-altforge',
      '@webhook-gateway/auth-bitbucket',
      '@webhook-gateway/auth-forge',
      '@webhook-gateway/auth-generic',
      '@webhook-gateway/auth-gitea',
      '@webhook-gateway/auth-linear',
      '@webhook-gateway/auth-standard-webhooks',
      '@webhook-gateway/cli',
      '@webhook-gateway/core',
      '@webhook-gateway/dashboard',
      '@webhook-gateway/deliver-bitbucket',
      '@webhook-gateway/deliver-forge-comment',
      '@webhook-gateway/deliver-gitea',
      '@webhook-gateway/deliver-messenger',
      '@webhook-gateway/deliver-sms',
      '@webhook-gateway/deliver-webhook',
      '@webhook-gateway/reconcile',
      '@webhook-gateway/review-kit',
      '@webhook-gateway/store-redis',
      '@webhook-gateway/store-sqlite',
      '@webhook-gateway/target-kit',
      '@webhook-gateway/tracing',
    ]);
  });

  it('leaves the Redis store and its dependencies out of a default install', () => {
    const modules = path.join(project, 'node_modules');
    expect(fs.existsSync(path.join(modules, '@webhook-gateway', 'store-redis'))).toBe(false);
    expect(fs.existsSync(path.join(modules, 'bullmq'))).toBe(false);
    expect(fs.existsSync(path.join(modules, 'ioredis'))).toBe(false);
  });

  it('inits a home, starts, and delivers a signed delivery', { timeout: 120_000 }, async () => {
    const init = await sh(project, 'npx', ['webhook-gateway', 'init', '--home', home]);
    expect(init).toContain(path.join(home, 'config.yaml'));
    // init's prompt names the prepared review context, which the gateway reads from the forge
    // through gh before the run; this project has no forge to ask (reviews-context.test.ts
    // covers that part against the fake forge).
    const config = editConfig((config) => {
      const route = config.platforms.webhook.extra.routes['pull-requests'];
      if (route) route.prompt = 'Review pull request #{number}.';
    });
    const secret = config.platforms.webhook.extra.secret;
    const gateway = await startGateway({ home, bin, timeoutMs: 60_000 });
    running.push(gateway);
    const sent = await sendForge(gateway.url, 'pull-requests', {
      body: fixture('forge/pull_request_opened.json'),
      secret,
      event: 'pull_request',
      deliveryId: 'packs-1',
    });
    expect(sent.status).toBe(202);
    await waitForDelivered('packs-1');
    await gateway.stop();
  });

  it('says what to install for store.kind redis', { timeout: 120_000 }, async () => {
    editConfig((config) => {
      config.store = { kind: 'redis', url: 'redis://127.0.0.1:1' };
    });
    const failure = await run(bin, ['gateway', '--home', home], { encoding: 'utf8' }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect('code' in failure && failure.code).toBe(1);
    expect(failure.stderr).toContain(
      `store.kind "redis" needs the package @webhook-gateway/store-redis, which is not installed (looked up from ${home} (the config file's directory), then from ${path.join(project, 'node_modules', '@webhook-gateway', 'cli')} (beside the CLI, in the project ${project})); install it with: cd ${project} && npm install @webhook-gateway/store-redis`,
    );
    editConfig((config) => {
      delete config.store;
    });
  });

  it(
    'loads a plugin written by plugin init, packed and installed beside the CLI',
    { timeout: 300_000 },
    async () => {
      const pluginDir = path.join(work, 'pager');
      await sh(work, 'npx', [
        '--prefix',
        project,
        'webhook-gateway',
        'plugin',
        'init',
        '@acme/webhook-gateway-deliver-pager',
        '--dir',
        pluginDir,
      ]);
      const [tarball] = JSON.parse(
        await sh(pluginDir, 'npm', ['pack', '--json', '--pack-destination', work]),
      ) as { filename: string }[];
      await npmInstall(project, [path.join(work, tarball?.filename ?? '')]);
      // One copy of core: the plugin's peer dependency is the CLI's.
      expect(
        fs.existsSync(
          path.join(
            project,
            'node_modules',
            '@acme',
            'webhook-gateway-deliver-pager',
            'node_modules',
          ),
        ),
      ).toBe(false);

      const pages: unknown[] = [];
      const pager = http.createServer((req, res) => {
        let body = '';
        req.on('data', (chunk: Buffer) => (body += chunk.toString()));
        req.on('end', () => {
          pages.push(JSON.parse(body));
          res.end('ok');
        });
      });
      await new Promise<void>((resolve) => pager.listen(0, '127.0.0.1', resolve));
      try {
        const config = editConfig((config) => {
          config.plugins = ['@acme/webhook-gateway-deliver-pager'];
          config.platforms.pager = {
            url: `http://127.0.0.1:${(pager.address() as AddressInfo).port}/hook`,
          };
          const route = config.platforms.webhook.extra.routes['pull-requests'];
          if (route) route.deliver = 'pager';
        });
        const gateway = await startGateway({ home, bin, timeoutMs: 60_000 });
        running.push(gateway);
        const sent = await sendForge(gateway.url, 'pull-requests', {
          body: fixture('forge/pull_request_opened.json'),
          secret: config.platforms.webhook.extra.secret,
          event: 'pull_request',
          deliveryId: 'packs-pager-1',
        });
        expect(sent.status).toBe(202);
        await waitForDelivered('packs-pager-1');
        expect(pages).toEqual([
          expect.objectContaining({ route: 'pull-requests', delivery_id: 'packs-pager-1' }),
        ]);
        await gateway.stop();
      } finally {
        await new Promise((resolve) => pager.close(resolve));
      }
    },
  );
});
