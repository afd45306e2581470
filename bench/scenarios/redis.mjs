/**
 * The Redis rows: `bench/redis.mjs` is a standalone script (another part of the project) that
 * prints rows `{scenario, requestsPerSecond, p50Ms, p99Ms}` as JSON on stdout. It is run when it
 * exists; its stderr passes through as progress.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { progress } from '../lib/log.mjs';
import { repoRoot } from '../lib/payload.mjs';

const REDIS_SCRIPT = path.join(repoRoot, 'bench/redis.mjs');

/**
 * Rows from JSON text: one array, or one object per line (other lines are ignored).
 * @param {string} stdout
 * @returns {{ scenario: string, requestsPerSecond: number, p50Ms: number, p99Ms: number }[]}
 */
function parseRows(stdout) {
  /** @type {unknown[]} */
  let candidates;
  try {
    const whole = JSON.parse(stdout);
    candidates = Array.isArray(whole) ? whole : [whole];
  } catch {
    candidates = stdout
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line.startsWith('{'))
      .flatMap((line) => {
        try {
          return [JSON.parse(line)];
        } catch {
          return [];
        }
      });
  }
  return candidates.filter(
    /** @returns {row is { scenario: string, requestsPerSecond: number, p50Ms: number, p99Ms: number }} */
    (row) =>
      typeof row === 'object' &&
      row !== null &&
      typeof (/** @type {Record<string, unknown>} */ (row).scenario) === 'string' &&
      typeof (/** @type {Record<string, unknown>} */ (row).requestsPerSecond) === 'number',
  );
}

/**
 * @param {{ timeoutMs: number }} settings
 * @returns {Promise<{ present: false } | { present: true, ok: boolean, rows: ReturnType<typeof parseRows>, problem?: string }>}
 */
export async function measureRedis(settings) {
  if (!fs.existsSync(REDIS_SCRIPT)) {
    progress('redis: bench/redis.mjs is not there; no Redis rows');
    return { present: false };
  }
  progress('redis: running bench/redis.mjs');
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [REDIS_SCRIPT], {
      cwd: repoRoot,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (stdout += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), settings.timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const rows = parseRows(stdout);
      const ok = code === 0 && rows.length > 0;
      resolve({
        present: true,
        ok,
        rows,
        ...(ok
          ? {}
          : {
              problem:
                signal === 'SIGKILL'
                  ? `stopped after ${settings.timeoutMs / 1000} s`
                  : `exited with ${code ?? signal} and ${rows.length} rows`,
            }),
      });
    });
  });
}
