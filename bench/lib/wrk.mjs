/**
 * Saturation load with wrk (Debian's `wrk`, a C load generator: far less CPU per request than a
 * Node one, so it steals less of the two cores from the server it measures). One thread; the Lua
 * script (wrk.lua) sends each request with a new delivery id over a pool of bodies signed here.
 */
import { execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BODY_POOL } from './load.mjs';
import { payloadFactory, signBody } from './payload.mjs';

const SCRIPT = fileURLToPath(new URL('./wrk.lua', import.meta.url));
const makeBody = payloadFactory();
let runCounter = 0;

/** Whether `wrk` is on PATH. */
export function wrkInstalled() {
  try {
    execFileSync('wrk', ['--version'], { stdio: 'ignore' });
    return true;
  } catch (error) {
    // wrk --version prints its usage and exits 1: installed all the same.
    return /** @type {{ code?: string }} */ (error).code !== 'ENOENT';
  }
}

/**
 * One wrk run: `BODY_POOL` bodies with PR numbers from `firstNumber`, signed once (the forge's
 * signature covers the body only), each request a delivery id no other request had.
 * @param {{ url: string, connections: number, durationS: number, firstNumber: number }} options
 * @returns {Promise<import('./load.mjs').LoadResult>}
 */
export async function runWrk(options) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-wrk-'));
  try {
    const poolFile = path.join(dir, 'pool.tsv');
    const lines = [];
    for (let i = 0; i < BODY_POOL; i++) {
      const body = makeBody(options.firstNumber + i);
      lines.push(`${signBody(body)}\t${body}`);
    }
    fs.writeFileSync(poolFile, `${lines.join('\n')}\n`);
    const target = new URL(options.url);
    const prefix = `wrk-${process.pid}-${++runCounter}-`;
    const args = [
      '-t1',
      `-c${options.connections}`,
      `-d${options.durationS}s`,
      '--timeout',
      '30s',
      '-s',
      SCRIPT,
      target.origin,
      '--',
      poolFile,
      target.pathname,
      prefix,
    ];
    const child = spawn('wrk', args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    const code = await new Promise((resolve) => child.once('exit', resolve));
    const line = /^WRK_JSON (.*)$/m.exec(stdout);
    if (code !== 0 || !line) throw new Error(`wrk exited with ${code}: ${stdout}`);
    const r = JSON.parse(/** @type {string} */ (line[1]));
    const durationS = r.durationUs / 1e6;
    const ok = r.requests - r.non2xx3xx;
    return {
      requestsPerSecond: ok / durationS,
      p50Ms: r.p50Us / 1000,
      p99Ms: r.p99Us / 1000,
      ok,
      non2xx: r.non2xx3xx,
      errors: r.connectErrors + r.readErrors + r.writeErrors + r.timeouts,
      durationS,
    };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
