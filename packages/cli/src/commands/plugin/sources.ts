/**
 * The plugin module and its test that `plugin init` writes, one pair per kind (plain ESM
 * JavaScript, so `npm test` runs with no build step). Pure text, unit-tested.
 */

export const PLUGIN_KINDS = ['target', 'scheme', 'runner', 'store'] as const;
export type PluginKind = (typeof PLUGIN_KINDS)[number];

/** What the templates are filled with. */
export interface PluginNames {
  /** The package name, which is also the plugin's name. */
  packageName: string;
  /** The target, scheme, runner or store kind it provides (`pager`). */
  key: string;
  /** Its slice under `platforms:` (`pager`; a `-` becomes `_`). */
  slice: string;
}

const header = (n: PluginNames, what: string): string => `/**
 * ${n.packageName}: ${what}
 */
`;

function targetPlugin(n: PluginNames): string {
  return `${header(
    n,
    `a webhook-gateway delivery target, \`${n.key}\`. A route delivers to it with
 * \`deliver: ${n.key}\`; its settings are \`platforms.${n.slice}\` in config.yaml.`,
  )}import { definePlugin, settingsIn } from '@webhook-gateway/core';
import { z } from 'zod';

const NAME = '${n.packageName}';

const plugin = definePlugin({
  name: NAME,
  provides: { targets: ['${n.key}'] },
  // Validated with the config at start (a bad value names platforms.${n.slice}.<key>), and listed
  // by \`webhook-gateway config schema\`.
  platforms: {
    ${n.slice}: z.strictObject({
      /** Where each answer is posted. */
      url: z.url(),
      timeout_s: z.number().positive().default(10),
    }),
  },
  setup({ hooks }) {
    hooks.deliver.for('${n.key}').tapPromise(NAME, async ({ answer, delivery, config, signal }) => {
      // Read from the attempt's config, so a reload of platforms.${n.slice} applies to the next one.
      const { url, timeout_s } = settingsIn(plugin, config).${n.slice};
      const response = await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ route: delivery.route, delivery_id: delivery.deliveryId, text: answer }),
        signal: AbortSignal.any([signal, AbortSignal.timeout(timeout_s * 1000)]),
      });
      // Throwing fails the attempt: the gateway retries it with backoff, up to max_attempts.
      if (!response.ok) throw new Error(\`${n.key} answered \${response.status}\`);
    });
  },
});

export default plugin;
`;
}

function targetTest(n: PluginNames): string {
  return `import http from 'node:http';
import { postPullRequest, startGateway, waitForDelivery } from '@webhook-gateway/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from './index.js';

const stops = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

/** A stand-in for the service the target posts to: a real HTTP server on 127.0.0.1. */
async function startService() {
  const received = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      received.push(JSON.parse(body));
      res.end('ok');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(() => new Promise((resolve) => server.close(resolve)));
  return { url: \`http://127.0.0.1:\${server.address().port}/hook\`, received };
}

describe('${n.packageName}', () => {
  it('posts the answer to platforms.${n.slice}.url', async () => {
    const service = await startService();
    const { gateway, store, url } = await startGateway({
      plugin,
      answer: 'Looks good to me.',
      platforms: { ${n.slice}: { url: service.url } },
      route: { deliver: '${n.key}' },
    });
    stops.push(() => gateway.stop());
    expect((await postPullRequest(url, { number: 7 })).status).toBe(202);
    expect((await waitForDelivery(store)).status).toBe('delivered');
    expect(service.received).toEqual([
      expect.objectContaining({ route: 'review', text: 'Looks good to me.' }),
    ]);
  });

  it('refuses a config whose url is not a URL, naming the key', async () => {
    await expect(
      startGateway({ plugin, platforms: { ${n.slice}: { url: 'nowhere' } }, route: { deliver: '${n.key}' } }),
    ).rejects.toThrow('platforms.${n.slice}.url');
  });
});
`;
}

function schemePlugin(n: PluginNames): string {
  return `${header(
    n,
    `a webhook-gateway auth scheme, \`${n.key}\`: a request that carries its header is
 * accepted when the header equals the route's secret. Its settings are \`platforms.${n.slice}\`.`,
  )}import { timingSafeEqual } from 'node:crypto';
import { definePlugin } from '@webhook-gateway/core';
import { z } from 'zod';

const NAME = '${n.packageName}';

/** Compares in constant time, so the answer's timing does not give the secret away. */
function sameSecret(given, secret) {
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
}

export default definePlugin({
  name: NAME,
  provides: { schemes: ['${n.key}'] },
  platforms: {
    ${n.slice}: z.strictObject({
      /** The request header that carries the token (lower case). */
      header: z.string().toLowerCase().default('x-${n.key}-token'),
    }).prefault({}), // every key has a default, so the slice may be left out
  },
  setup({ hooks, settings }) {
    hooks.authenticate.for('${n.key}').tapPromise(NAME, async ({ headers, secrets }) => {
      // Read at each request, so a config reload applies.
      const { header } = settings().${n.slice};
      const token = headers[header];
      // Not our header: leave the request to the other schemes.
      if (typeof token !== 'string') return undefined;
      return secrets.some((secret) => sameSecret(token, secret))
        ? { ok: true }
        : { ok: false, reason: \`\${header} does not match the route's secret\` };
    });
  },
});
`;
}

function schemeTest(n: PluginNames): string {
  return `import { startGateway } from '@webhook-gateway/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from './index.js';

let running;
afterEach(async () => {
  await running?.gateway.stop();
  running = undefined;
});

function post(url, headers) {
  return fetch(\`\${url}/webhooks/review\`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forge-event': 'push', ...headers },
    body: '{"ref":"main"}',
  });
}

describe('${n.packageName}', () => {
  it('accepts a request whose header equals the route’s secret, and refuses another', async () => {
    running = await startGateway({ plugin, route: { secret: 'route-secret-1234', deliver: 'log' } });
    expect((await post(running.url, { 'x-${n.key}-token': 'route-secret-1234' })).status).toBe(202);
    expect((await post(running.url, { 'x-${n.key}-token': 'another-secret' })).status).toBe(401);
  });

  it('reads the header named in platforms.${n.slice}.header', async () => {
    running = await startGateway({
      plugin,
      platforms: { ${n.slice}: { header: 'X-Token' } },
      route: { secret: 'route-secret-1234', deliver: 'log' },
    });
    expect((await post(running.url, { 'x-token': 'route-secret-1234' })).status).toBe(202);
  });
});
`;
}

function runnerPlugin(n: PluginNames): string {
  return `${header(
    n,
    `a webhook-gateway agent runner, \`${n.key}\`: \`agent.runner: ${n.key}\` (globally or on a
 * route) sends it each rendered prompt. Its options come from \`plugins: [{ name, options }]\`.`,
  )}import { definePlugin } from '@webhook-gateway/core';
import { z } from 'zod';

const NAME = '${n.packageName}';

export default definePlugin({
  name: NAME,
  provides: { runners: ['${n.key}'] },
  // Validated before setup; an error names the plugin and options.<key>.
  options: z.strictObject({
    /** Put before every answer. */
    prefix: z.string().default(''),
  }),
  setup({ hooks }, options) {
    hooks.run.for('${n.key}').tapPromise(NAME, async ({ prompt, signal }) => {
      signal.throwIfAborted();
      // Call your agent here; the gateway delivers what this returns to the route's target.
      return { answer: \`\${options.prefix}\${prompt}\` };
    });
  },
});
`;
}

function runnerTest(n: PluginNames): string {
  return `import { postPullRequest, startGateway, waitForDelivery } from '@webhook-gateway/core/testing';
import { afterEach, describe, expect, it } from 'vitest';
import plugin from './index.js';

let running;
afterEach(async () => {
  await running?.gateway.stop();
  running = undefined;
});

describe('${n.packageName}', () => {
  it('answers the rendered prompt of a route whose agent.runner names it', async () => {
    running = await startGateway({
      plugin,
      options: { prefix: 'echo: ' },
      route: { deliver: 'log', prompt: 'Review PR #{number}', agent: { runner: '${n.key}' } },
    });
    expect((await postPullRequest(running.url, { number: 7 })).status).toBe(202);
    const delivery = await waitForDelivery(running.store);
    expect(delivery.status).toBe('delivered');
    expect(delivery.answer).toBe('echo: Review PR #7');
  });

  it('refuses options of the wrong type, naming the key', async () => {
    await expect(startGateway({ plugin, options: { prefix: 1 } })).rejects.toThrow('options.prefix');
  });
});
`;
}

function storePlugin(n: PluginNames): string {
  return `${header(
    n,
    `a webhook-gateway store, \`store.kind: ${n.key}\`. It starts as core's memory
 * store: replace \`open${pascal(n.key)}Store\` with yours, and keep the contract tests passing.`,
  )}import { definePlugin } from '@webhook-gateway/core';
import { MemoryStore } from '@webhook-gateway/core/runtime';

const NAME = '${n.packageName}';

/** Opens the store for \`store:\` in config (\`store.path\`, \`store.url\` are yours to read). */
export async function open${pascal(n.key)}Store(settings) {
  void settings;
  return new MemoryStore();
}

export default definePlugin({
  name: NAME,
  provides: { stores: ['${n.key}'] },
  stores: { '${n.key}': (settings) => open${pascal(n.key)}Store(settings) },
  setup() {},
});
`;
}

function storeTest(n: PluginNames): string {
  return `import { storeContract } from '@webhook-gateway/core/testing';
import { describe, expect, it } from 'vitest';
import plugin from './index.js';

const open = () => plugin.stores['${n.key}']({ kind: '${n.key}', fsync: false }, { home: '.', longRunning: false });
// Say false if your store lets idempotency keys expire by themselves (as Redis does).
const subject = { open, prunesExpiredKeys: true };

describe('${n.packageName}', () => {
  it('provides store.kind ${n.key}', () => {
    expect(plugin.provides.stores).toEqual(['${n.key}']);
  });

  // The checks every store passes: accept and de-duplication, attempts, replay, prune, subscriptions.
  for (const check of storeContract) it(check.name, () => check.run(subject));
});
`;
}

function pascal(key: string): string {
  return key
    .split(/[-_]/)
    .map((part) => part.charAt(0).toUpperCase() + part.slice(1))
    .join('');
}

/** The plugin module (`src/index.js`) and its test (`src/index.test.js`) for a kind. */
export function pluginSources(
  kind: PluginKind,
  names: PluginNames,
): { plugin: string; test: string } {
  switch (kind) {
    case 'target':
      return { plugin: targetPlugin(names), test: targetTest(names) };
    case 'scheme':
      return { plugin: schemePlugin(names), test: schemeTest(names) };
    case 'runner':
      return { plugin: runnerPlugin(names), test: runnerTest(names) };
    case 'store':
      return { plugin: storePlugin(names), test: storeTest(names) };
  }
}
