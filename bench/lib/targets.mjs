/**
 * The receivers compared on the same signed deliveries: this gateway as an operator runs it, the
 * bare `node:http` ceiling, `@octokit/webhooks`' Node middleware, Koa with its router doing
 * only the ceiling's work (what the framework the gateway is built on costs by itself), and Koa
 * with the gateway's SQLite journal and nothing else of the gateway (what its design costs at
 * least). The start-up scenario also starts `STARTUP_REFERENCES`, which serve no deliveries
 * worth measuring.
 */
import { gatewayConfig, ROUTE } from './gateway-config.mjs';
import { BENCH_SECRET } from './payload.mjs';
import { makeHome, removeHome, startGateway, startServer } from './proc.mjs';

/**
 * @typedef {import('./proc.mjs').Started & { home?: string }} Running
 * @typedef {{ id: string, label: string, path: string, start: () => Promise<Running> }} Target
 */

/** @type {Target[]} */
export const TARGETS = [
  {
    id: 'gateway',
    label: 'webhook-gateway (SQLite journal, `log` target, `dry-run` agent)',
    path: `/webhooks/${ROUTE}`,
    async start() {
      const home = makeHome();
      try {
        const started = await startGateway(home, gatewayConfig());
        return {
          ...started,
          home,
          async stop() {
            await started.stop();
            removeHome(home);
          },
        };
      } catch (error) {
        removeHome(home);
        throw error;
      }
    },
  },
  {
    id: 'bare',
    label: 'bare `node:http` (HMAC + `JSON.parse`): the ceiling',
    path: '/webhooks/bench',
    start: () => startServer('bare-http.mjs', { BENCH_SECRET }),
  },
  {
    id: 'octokit',
    label: '`@octokit/webhooks` `createNodeMiddleware`',
    path: '/webhooks/bench',
    start: () => startServer('octokit.mjs', { BENCH_SECRET }),
  },
  {
    id: 'koa',
    label: 'Koa + `@koa/router` doing only what the ceiling does',
    path: '/webhooks/bench',
    start: () => startServer('koa.mjs', { BENCH_SECRET }),
  },
  {
    id: 'koa-journal',
    label:
      "Koa + the journal alone: each delivery committed before its 202, then its attempt's journal writes (the floor of this design)",
    path: '/webhooks/bench',
    start: () => startServer('koa-journal.mjs', { BENCH_SECRET }),
  },
];

/**
 * Start-up only: the libraries the gateway cannot listen without, loaded and nothing else (what
 * the stack alone costs over the bare receiver).
 * @type {Target[]}
 */
const STARTUP_REFERENCES = [
  {
    id: 'libraries',
    label:
      'the libraries alone (Koa, router, raw-body, zod, pino, better-sqlite3, commander, tapable, cosmiconfig, yaml)',
    path: '/webhooks/bench',
    start: () => startServer('libraries.mjs'),
  },
];

/** Every receiver the start-up scenario starts, in its order. */
export const STARTUP_TARGETS = [...TARGETS, ...STARTUP_REFERENCES];
