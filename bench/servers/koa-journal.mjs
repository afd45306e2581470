#!/usr/bin/env node
/**
 * The floor of the gateway's own design: what Koa and the journal cost by themselves, with none
 * of the gateway's pipeline (no hooks, no logs, no template, no worker pool). The receive path is
 * the Koa row's (`koa.mjs`, the way the gateway reads bodies: `raw-body`) plus the gateway's
 * SQLite store: each delivery is journaled (de-duplicated, committed) before its 202, then its
 * attempt writes the journal as a `dry-run` attempt does (markRunning, the prompt, the answer,
 * markDelivered). The gateway cannot cost less per request than this without writing less.
 * Prints `Listening on 127.0.0.1:<port>` when ready; the journal goes to `JOURNAL_DIR` (a new
 * temporary folder by default), removed at exit.
 */
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { readWithRawBody, verifiedBody } from '../lib/koa-receive.mjs';

// Koa and the router as core depends on them; the store as the CLI runs it.
const requireFromCore = createRequire(new URL('../../packages/core/package.json', import.meta.url));
const Koa = requireFromCore('koa');
const Router = requireFromCore('@koa/router');
const { openSqliteStore } = await import('../../packages/store-sqlite/dist/index.js');

const secret = process.env.BENCH_SECRET ?? '';
const WINDOW_MS = 3_600_000;

const dir = process.env.JOURNAL_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'wg-floor-'));
const store = openSqliteStore({ path: path.join(dir, 'state.db'), backgroundCheckpoints: true });

/** The journal writes of one `dry-run` attempt with the `log` target, as an attempt makes them. */
async function attempt(/** @type {string} */ id) {
  const record = await store.markRunning(id, Date.now());
  if (!record) return;
  const prompt = `Review PR #${record.payload.number}: ${record.payload.pull_request?.title}`;
  const saved = store.saveProgress(id, { prompt });
  await store.saveProgress(id, { answer: prompt, agent: { runner: 'dry-run' } });
  await store.markDelivered(id, Date.now());
  await saved;
}

/** @param {any} ctx */
async function receive(ctx) {
  const body = await verifiedBody(ctx, readWithRawBody, secret);
  if (!body) return;
  const payloadJson = body.toString('utf8');
  let payload;
  try {
    payload = JSON.parse(payloadJson);
  } catch {
    ctx.status = 400;
    ctx.body = { error: 'Invalid JSON' };
    return;
  }
  const receivedAt = Date.now();
  const result = await store.accept(
    {
      route: ctx.params.route,
      event: ctx.get('x-github-event'),
      action: typeof payload.action === 'string' ? payload.action : null,
      deliveryId: ctx.get('x-github-delivery'),
      receivedAt,
      payload,
      payloadJson,
      headers: { 'x-github-event': ctx.get('x-github-event') },
      orderKey: `${ctx.params.route}|${payload.repository?.full_name}|${payload.number}`,
      maxAttempts: 5,
    },
    WINDOW_MS,
  );
  if (!result.accepted) {
    ctx.status = 200;
    ctx.body = { status: 'duplicate' };
    return;
  }
  ctx.status = 202;
  ctx.body = { status: 'accepted' };
  void attempt(result.record.id);
}

const app = new Koa();
const router = new Router();
router.post('/webhooks/:route', receive);
app.use(router.routes());

const server = http.createServer(app.callback());
server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  process.stdout.write(`Listening on 127.0.0.1:${address.port}\n`);
});
process.on('SIGTERM', () =>
  server.close(async () => {
    await store.close();
    if (!process.env.JOURNAL_DIR) fs.rmSync(dir, { recursive: true, force: true });
    process.exit(0);
  }),
);
