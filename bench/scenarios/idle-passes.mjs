/**
 * What the periodic passes of issue 34 cost a gateway that receives nothing: the queue-standings
 * pass (`waiting-notices.ts`, every 2 s, working the standings out of the journal while anything
 * is queued) and the pause poll (`pause-watch.ts`, `Store.pauses` every second). The real CLI on
 * SQLite, no request during the window: CPU of the process (every thread, /proc/<pid>/stat) over
 * `idleS` seconds, after the deliveries held by a pause were accepted and the first passes done.
 * Cases: a `log` route and a `forge_review` route with `check: true` (its plugin taps
 * `deliveryWaiting`), with 0, 100 or 1,000 deliveries queued behind `webhook-gateway pause`.
 * Then the reads each pass makes, timed in this process on the 1,000-queued journal.
 */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { parseConfig, readQueueStandings } from '@webhook-gateway/core';
import { openSqliteStore } from '@webhook-gateway/store-sqlite';
import { gatewayConfig, ROUTE } from '../lib/gateway-config.mjs';
import { runLoad } from '../lib/load.mjs';
import { pollUntil, progress, sleep } from '../lib/log.mjs';
import { cliPath, cpuSeconds, makeHome, removeHome, startGateway } from '../lib/proc.mjs';

/** The forge review route: a check on the forge, reached through a gh that is not there. */
const CHECK_ROUTE = {
  deliver: 'forge_review',
  deliver_extra: { check: true },
};

/** No forge is reached: gh cannot be found, so showing a queued check fails at once, logged. */
const NO_FORGE = { forge: { cli: '/nonexistent/gh-for-bench', token: 'bench-token-unused' } };

/** The limits the standings play the queue by: the bench route, the default concurrency. */
const STANDINGS_CONFIG = parseConfig({
  platforms: {
    webhook: { extra: { secret: 'bench-secret-for-limits-only', routes: { [ROUTE]: {} } } },
  },
});

/** @type {readonly { id: string, label: string, check: boolean, queued: number }[]} */
const CASES = [
  { id: 'log-0', label: '`log` route, nothing queued', check: false, queued: 0 },
  { id: 'check-0', label: '`forge_review` + `check`, nothing queued', check: true, queued: 0 },
  { id: 'check-100', label: '`forge_review` + `check`, 100 paused', check: true, queued: 100 },
  { id: 'check-1000', label: '`forge_review` + `check`, 1,000 paused', check: true, queued: 1_000 },
  { id: 'log-1000', label: '`log` route, 1,000 paused', check: false, queued: 1_000 },
];

/**
 * Runs the CLI to completion (`pause`); rejects on a non-zero exit.
 * @param {string[]} args
 */
function runCli(args) {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.once('exit', (code) =>
      code === 0
        ? resolve(output)
        : reject(new Error(`${args.join(' ')} exited ${code}: ${output}`)),
    );
  });
}

/**
 * The queued rows of a home's journal, read beside the running gateway.
 * @param {string} home
 */
async function queuedIn(home) {
  const store = openSqliteStore({ path: path.join(home, 'state.db') });
  try {
    return (await store.queued(0, 100_000)).length;
  } finally {
    await store.close();
  }
}

/**
 * CPU µs per call of `read`, over `calls` calls in this process.
 * @param {number} calls
 * @param {() => Promise<unknown>} read
 */
async function microsPerCall(calls, read) {
  await read();
  const before = process.cpuUsage();
  for (let i = 0; i < calls; i++) await read();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / calls;
}

/**
 * @param {{ idleS: number, sliceS: number, settleS: number, readCalls: number, cases?: string[] }} settings `cases`: the ids to run (all by default)
 */
export async function measureIdlePasses(settings) {
  /** @type {Record<string, unknown>[]} */
  const rows = [];
  /** @type {Record<string, number> | undefined} */
  let reads;
  for (const scenario of CASES.filter((c) => !settings.cases || settings.cases.includes(c.id))) {
    const home = makeHome();
    try {
      const config = gatewayConfig({ route: scenario.check ? CHECK_ROUTE : {} });
      const gateway = await startGateway(home, {
        ...config,
        platforms: { ...config.platforms, ...NO_FORGE },
      });
      try {
        if (scenario.queued > 0) {
          await runCli(['pause', '--reason', 'bench', '--home', home]);
          // The gateway reads the pauses every second.
          await sleep(1_500);
          const sent = await runLoad({
            url: `${gateway.url}/webhooks/${ROUTE}`,
            connections: 8,
            amount: scenario.queued,
          });
          if (sent.ok !== scenario.queued) {
            throw new Error(`${scenario.id}: ${sent.ok} of ${scenario.queued} accepted`);
          }
        }
        const cpuNow = () => {
          const seconds = cpuSeconds(gateway.pid);
          if (seconds === undefined)
            throw new Error(`${scenario.id}: no CPU time for ${gateway.pid}`);
          return seconds * 1000;
        };
        // The first standings passes tell each queued delivery its place once: not idle yet.
        const settling = cpuNow();
        await sleep(settings.settleS * 1_000);
        const queued = await queuedIn(home);
        const before = cpuNow();
        const settleCpuMs = before - settling;
        const startedAt = performance.now();
        // In slices, so a window still busy with the first passes shows as uneven.
        const slicesMs = [];
        let sliceStart = before;
        for (let elapsed = 0; elapsed < settings.idleS; elapsed += settings.sliceS) {
          await sleep(Math.min(settings.sliceS, settings.idleS - elapsed) * 1_000);
          const now = cpuNow();
          slicesMs.push(Math.round(now - sliceStart));
          sliceStart = now;
        }
        const wallS = (performance.now() - startedAt) / 1000;
        const cpuMs = sliceStart - before;
        const row = {
          id: scenario.id,
          label: scenario.label,
          queued,
          idleS: wallS,
          cpuMs,
          cpuMsPerMinute: (cpuMs / wallS) * 60,
          corePercent: (cpuMs / (wallS * 1000)) * 100,
          standingsPasses: Math.floor(wallS / 2),
          slicesMs,
          settleCpuMs,
        };
        rows.push(row);
        progress(
          `  ${scenario.label}: ${queued} queued, ${settleCpuMs.toFixed(0)} ms CPU in the ${settings.settleS} s after the accepts; ${cpuMs.toFixed(0)} ms CPU in ${wallS.toFixed(1)} s = ${row.cpuMsPerMinute.toFixed(0)} ms/min (${row.corePercent.toFixed(2)} % of a core; per ${settings.sliceS} s: ${slicesMs.join(', ')} ms)`,
        );
        if (scenario.id === 'check-1000') reads = await passReads(home, settings.readCalls);
      } finally {
        await gateway.stop();
      }
    } finally {
      removeHome(home);
    }
  }
  const base = rows.find((row) => row.id === 'check-0');
  for (const row of rows) {
    const passes = /** @type {number} */ (row.standingsPasses);
    row.extraCpuMsPerStandingsPass =
      base && row.queued !== 0
        ? /** @type {number} */ (row.cpuMs - /** @type {number} */ (base.cpuMs)) / passes
        : null;
  }
  return { idleS: settings.idleS, sliceS: settings.sliceS, settleS: settings.settleS, rows, reads };
}

/**
 * The journal reads of each pass on a journal of 1,000 queued rows, in this process: the pause
 * poll's `pauses()`, the standings pass's emptiness check `queued(0, 1)`, its read of the
 * queued rows `queued(0, 2000)` (what `readQueueStandings` reads first), and all of
 * `readQueueStandings` (the work of one pass before it tells anything).
 * @param {string} home
 * @param {number} calls
 */
async function passReads(home, calls) {
  const store = openSqliteStore({ path: path.join(home, 'state.db') });
  try {
    await pollUntil(async () => (await store.queued(0, 1)).length === 1, 5_000);
    const result = {
      pausesMicros: await microsPerCall(calls, () => store.pauses()),
      queuedOneMicros: await microsPerCall(calls, () => store.queued(0, 1)),
      queuedAllMicros: await microsPerCall(Math.ceil(calls / 10), () => store.queued(0, 2_000)),
      runningMicros: await microsPerCall(calls, () =>
        store.list({ status: 'running', limit: 1_000 }),
      ),
      // The whole read of a pass: those rows, the running ones, each route's finished ones.
      standingsMicros: await microsPerCall(Math.ceil(calls / 10), () =>
        readQueueStandings(store, STANDINGS_CONFIG, Date.now()),
      ),
    };
    progress(
      `  readQueueStandings ${result.standingsMicros.toFixed(0)} µs; reads on 1,000 queued: pauses() ${result.pausesMicros.toFixed(0)} µs, queued(0, 1) ${result.queuedOneMicros.toFixed(0)} µs, queued(0, 2000) ${result.queuedAllMicros.toFixed(0)} µs, list(running) ${result.runningMicros.toFixed(0)} µs`,
    );
    return result;
  } finally {
    await store.close();
  }
}
