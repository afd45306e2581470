/**
 * A whole gateway with this plugin on a memory store, for the tests in which the real `gh` talks
 * to the TLS fake forge: each test gets its own home (gh's own empty config under it), trusts the
 * fake's certificate, and has a runner whose answer the test file gives.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  definePlugin,
  parseConfig,
  silentLogger,
  type DeliveryRecord,
  type LineComment,
  type Logger,
  type RunRequest,
} from '@webhook-gateway/core';
import { createGateway, MemoryStore, type Gateway } from '@webhook-gateway/core/runtime';
import { waitFor } from '@webhook-gateway/core/testing';
import { afterEach, beforeEach } from 'vitest';
import plugin from '../index.js';
import { isolateEnv } from './env.js';

interface GhGatewayStart {
  /** The route the returned URL posts to. */
  route: string;
  /** `platforms.webhook.extra`: on 127.0.0.1, a free port, two attempts 10 ms apart unless given. */
  extra: Record<string, unknown>;
  /** `platforms.forge`. */
  forge: Record<string, unknown>;
  /** Where the gateway logs (nowhere unless given). */
  log?: Logger;
}

export interface GhGateway {
  /** This test's home. */
  readonly home: string;
  /** This test's journal. */
  readonly store: MemoryStore;
  /** Starts the gateway; resolves with the URL of `/webhooks/<route>`. */
  start(options: GhGatewayStart): Promise<string>;
  /** Stops the gateway before the test ends (the log is complete after). */
  stop(): Promise<void>;
  /** Waits until `count` deliveries are journaled and none is queued or running. */
  finished(count: number, timeoutMs?: number): Promise<DeliveryRecord[]>;
}

/**
 * Registers the set-up and clean-up of each test of the calling file. `certFile` is the fake
 * forge's certificate (read once it has started); the agent's runner answers `answer(request)`.
 */
export function useGhGateway(options: {
  certFile: () => string;
  answer: (request: RunRequest) => string;
  /** The runner's line comments next to its answer (none unless given). */
  lineComments?: (request: RunRequest) => LineComment[];
  /** Awaited before the runner answers: a slow agent, held until the test lets it go. */
  hold?: (request: RunRequest) => Promise<void>;
}): GhGateway {
  const runner = definePlugin({
    name: 'test-echo-runner',
    setup({ hooks }) {
      hooks.run.for('echo').tapPromise('test-echo-runner', async (request) => {
        await options.hold?.(request);
        const lineComments = options.lineComments?.(request) ?? [];
        return {
          answer: options.answer(request),
          ...(lineComments.length > 0 ? { lineComments } : {}),
        };
      });
    },
  });
  let home = '';
  let store = new MemoryStore();
  let gateway: Gateway | undefined;
  let restoreEnv: () => void = () => undefined;

  beforeEach(() => {
    restoreEnv = isolateEnv();
    home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-gh-gateway-'));
    // The real gh: its own empty config, trusting the fake's certificate.
    process.env.GH_CONFIG_DIR = path.join(home, 'gh-config');
    process.env.SSL_CERT_FILE = options.certFile();
    store = new MemoryStore();
  });

  afterEach(async () => {
    await gateway?.stop();
    gateway = undefined;
    fs.rmSync(home, { recursive: true, force: true });
    restoreEnv();
  });

  return {
    get home() {
      return home;
    },
    get store() {
      return store;
    },
    async start({ route, extra, forge, log }) {
      const config = parseConfig(
        {
          agent: { runner: 'echo' },
          platforms: {
            webhook: {
              extra: {
                host: '127.0.0.1',
                port: 0,
                max_attempts: 2,
                retry_backoff_ms: 10,
                ...extra,
              },
            },
            forge,
          },
        },
        {},
        [plugin],
      );
      gateway = await createGateway({
        config,
        home,
        store,
        log: log ?? silentLogger(),
        plugins: [
          { plugin, options: undefined },
          { plugin: runner, options: undefined },
        ],
      });
      const { port } = await gateway.start();
      return `http://127.0.0.1:${port}/webhooks/${route}`;
    },
    async stop() {
      await gateway?.stop();
      gateway = undefined;
    },
    finished(count, timeoutMs = 30_000) {
      let seen = 'none journaled';
      return waitFor(
        async () => {
          const records = await store.list({ limit: 1000 });
          const open = records.filter((r) => r.status === 'queued' || r.status === 'running');
          seen = `${open.length} of ${records.length} still open`;
          return records.length >= count && open.length === 0 && records;
        },
        `${count} deliveries to finish`,
        { timeoutMs, describe: () => seen },
      );
    },
  };
}
