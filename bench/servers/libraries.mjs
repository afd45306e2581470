#!/usr/bin/env node
/**
 * What the gateway's libraries cost to start, without the gateway: before listening it loads only
 * what the gateway cannot listen without — Koa, `@koa/router`, `raw-body`, zod, pino (writing to
 * a file), better-sqlite3 (opening a WAL database), commander, tapable, cosmiconfig and yaml — and
 * does nothing else with them. Then a Koa app with one route answers 202. Only the start-up
 * scenario runs it: the gap between it and the bare receiver is the stack's own start-up cost,
 * the gap between it and the gateway is the gateway's.
 * Prints `Listening on 127.0.0.1:<port>` when ready.
 */
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

// Each library as the package that depends on it resolves it (the versions the gateway runs).
const requireFrom = (/** @type {string} */ pkg) =>
  createRequire(new URL(`../../packages/${pkg}/package.json`, import.meta.url));
const fromCore = requireFrom('core');
const Koa = fromCore('koa');
const Router = fromCore('@koa/router');
fromCore('raw-body');
const pino = fromCore('pino');
fromCore('tapable');
fromCore('cosmiconfig');
fromCore('yaml');
requireFrom('cli')('commander');
const Database = requireFrom('store-sqlite')('better-sqlite3');

const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-bench-libraries-'));
process.once('SIGTERM', () => {
  fs.rmSync(home, { recursive: true, force: true });
  process.exit(0);
});

const log = pino(pino.destination({ dest: path.join(home, 'server.log'), sync: false }));
const db = new Database(path.join(home, 'state.db'));
db.pragma('journal_mode = WAL');
// zod in use, as every config is: one schema built.
z.strictObject({ port: z.number() });

const app = new Koa();
const router = new Router();
router.post('/webhooks/bench', (/** @type {{ status: number, body: unknown }} */ ctx) => {
  ctx.status = 202;
  ctx.body = { status: 'accepted' };
});
app.use(router.routes());

const server = http.createServer(app.callback());
server.listen(0, '127.0.0.1', () => {
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  log.info({ port: address.port }, 'listening');
  process.stdout.write(`Listening on 127.0.0.1:${address.port}\n`);
});
