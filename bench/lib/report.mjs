/**
 * bench/README.md: the generated section between the markers is replaced by this run's tables;
 * the text around it is kept (or written the first time).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './payload.mjs';

export const README = path.join(repoRoot, 'bench/README.md');
export const START_MARK =
  '<!-- bench:generated:start (written by `npm run bench`; edits here are lost) -->';
export const END_MARK = '<!-- bench:generated:end -->';

/** What the machine is; the load average tells whether something else was running. */
export function describeMachine() {
  const cpus = os.cpus();
  return {
    cpu: `${cpus[0]?.model ?? 'unknown CPU'} × ${cpus.length}`,
    memoryGiB: os.totalmem() / 1024 ** 3,
    os: `${os.type()} ${os.release()} (${os.arch()})`,
    node: process.version,
    loadAverage: os.loadavg(),
  };
}

/** @param {number | undefined} value @param {number} [digits] */
function num(value, digits = 0) {
  if (value === undefined || Number.isNaN(value)) return '–';
  return value.toLocaleString('en-US', {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
}

/** Why RSS climbs during a run, and how the capped row tells garbage from retained memory. */
const GC_NOTE =
  "A busy process promotes its garbage to V8's old generation, collected only at the next full GC; the gateway asks V8 to " +
  'keep that growth conservative (`--optimize-for-size`). The capped row runs the same load with full GCs forced earlier still: what it holds ' +
  'is an upper bound of what the gateway retains; the difference to the first row is garbage awaiting collection.';

/**
 * @param {number | undefined} mib
 * @param {number} mb
 */
function underMB(mib, mb) {
  return mib !== undefined && mib * 1.048576 < mb;
}

/** @param {boolean} met */
function verdict(met) {
  return met ? '**met**' : '**not met**';
}

/** @param {string[]} header @param {string[][]} rows */
function table(header, rows) {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map((_, i) => (i === 0 ? '---' : '---:')).join(' | ')} |`,
    ...rows.map((row) => `| ${row.join(' | ')} |`),
  ].join('\n');
}

/**
 * @param {any} results what bench/run.mjs collected
 * @returns {string} the generated section, without its markers
 */
export function renderResults(results) {
  const { machine, settings, targets } = results;
  const out = [];
  out.push(
    `Run of ${results.finishedAt.slice(0, 10)} (${results.mode} mode, ${num(results.elapsedS)} s in all): \`${results.command}\``,
    '',
    `Machine: ${machine.cpu}, ${num(machine.memoryGiB, 1)} GiB RAM, ${machine.os}, Node ${machine.node}; ` +
      `load average ${machine.loadAverage.map((/** @type {number} */ v) => num(v, 2)).join(' / ')} at the start, ` +
      `and (1 min) as each scenario ended: ${Object.entries(results.loadAfter)
        .map(([name, load]) => `${name} ${num(/** @type {number} */ (load), 2)}`)
        .join(', ')}. ` +
      'The load generator runs on the same cores as the server it measures; a load average above 2 means other work shared them.' +
      (results.gatewayNodeOptions
        ? ` Gateway processes ran with \`NODE_OPTIONS=${results.gatewayNodeOptions}\`.`
        : ''),
    '',
  );

  const t = results.throughput;
  const startup = results.startup;
  if (t) {
    const s = settings.throughput;
    out.push(
      '### Receivers on the same deliveries',
      '',
      `Signed ~6 KB \`pull_request\` deliveries, a new delivery id and one of ${num(results.bodyPool)} PR numbers per request; ` +
        `${s.connections} connections, ${s.warmupS} s warm-up, then ${s.durationS} s measured; a fresh process per run. ` +
        "Latency is per request as the client saw it. CPU is the server process only. Peak RSS is the kernel's high-water mark (VmHWM) at the end of the run. " +
        `Start-up is spawn → listening line on stdout, median of ${startup ? Object.values(startup)[0]?.runs : '–'} starts (fresh home each).`,
      '',
      table(
        ['receiver', 'req/s', 'p50 ms', 'p99 ms', 'CPU µs/req', 'peak RSS MiB', 'start-up ms'],
        targets.map((/** @type {{ id: string, label: string }} */ target) => {
          const r = t.saturated[target.id];
          return [
            target.label,
            num(r?.requestsPerSecond),
            num(r?.p50Ms, 2),
            num(r?.p99Ms, 2),
            num(r?.cpuMicrosPerRequest),
            num(r?.peakRssMiB),
            num(startup?.[target.id]?.medianMs),
          ];
        }),
      ),
      '',
      `At a fixed ${num(s.fixedRate)} requests/s, paced evenly, latency from each request's due time (${s.durationS} s after ${s.warmupS} s warm-up, up to ${s.connections} connections):`,
      '',
      table(
        ['receiver', 'achieved req/s', 'p50 ms', 'p99 ms'],
        targets.map((/** @type {{ id: string, label: string }} */ target) => {
          const r = t.fixed[target.id];
          return [target.label, num(r?.requestsPerSecond), num(r?.p50Ms, 2), num(r?.p99Ms, 2)];
        }),
      ),
      '',
    );
    const gateway = t.saturated.gateway;
    const ceiling = t.saturated.bare;
    const fixedGateway = t.fixed.gateway;
    if (gateway && ceiling && fixedGateway) {
      const ratio = gateway.requestsPerSecond / ceiling.requestsPerSecond;
      out.push(
        '**Issue 3 goals.** ' +
          `Throughput ${num(ratio, 2)}× the ceiling (goal ≥ 0.6×): ${verdict(ratio >= 0.6)}. ` +
          `p99 at ${num(s.fixedRate)} req/s ${num(fixedGateway.p99Ms, 2)} ms (goal < 10 ms): ${verdict(fixedGateway.p99Ms < 10)}.` +
          (gateway.processedPerSecond !== undefined
            ? ` While the receiver was saturated, the gateway's workers finished ${num(gateway.processedPerSecond)} deliveries/s (render, dry-run, \`log\` target, journal updates) in the same process.`
            : ''),
        '',
      );
    }
    const koa = t.saturated.koa;
    const journal = results.journal;
    if (ceiling && koa && journal) {
      const budget = 1e6 / (0.6 * ceiling.requestsPerSecond);
      out.push(
        `**The budget at 0.6×.** At 0.6× the ceiling (${num(0.6 * ceiling.requestsPerSecond)} req/s), one event loop has ${num(budget)} µs per request. ` +
          `Koa with \`@koa/router\`, doing only the ceiling's work, used ${num(koa.cpuMicrosPerRequest)} µs per request ` +
          `(${num(koa.requestsPerSecond / ceiling.requestsPerSecond, 2)}× the ceiling's throughput), and a durable accept costs ` +
          `${num(journal.cpuMicrosPerAccept)} µs of CPU on its own (the journal row below): ${num(koa.cpuMicrosPerRequest + journal.cpuMicrosPerAccept)} µs ` +
          "between them, before the gateway's own work (routing, hooks, filters, de-duplication, logging, its workers).",
        '',
      );
    }
  }

  const journal = results.journal;
  if (journal) {
    out.push(
      '### Journal accept',
      '',
      `The SQLite store by itself, opened as the gateway opens it (checkpoints on their own thread): ${num(journal.accepts)} accepts of the same ~6 KB payloads ` +
        `with fresh delivery ids, in group commits of ${num(journal.batch)}, no HTTP around them. CPU counts every thread of the process.`,
      '',
      table(
        ['CPU µs per accept', 'wall µs per accept'],
        [[num(journal.cpuMicrosPerAccept), num(journal.wallMicrosPerAccept)]],
      ),
      '',
    );
  }

  const slow = results.slowAgent;
  if (slow) {
    out.push(
      '### Slow agent',
      '',
      `\`agent.runner: openai\` against a fake chat-completions server on 127.0.0.1 that answers after ${num(slow.answerMs)} ms (with \`usage\`), ` +
        `\`concurrency: ${slow.workers}\`, ${num(slow.deliveries)} deliveries (distinct PRs) sent at once.`,
      '',
      table(
        [
          'delivered',
          'total s',
          'ideal s',
          'ratio',
          'goal',
          'most agent calls at once',
          'RSS MiB first / min / max / last',
        ],
        [
          [
            `${num(slow.delivered)} / ${num(slow.accepted)}`,
            num(slow.totalS, 2),
            num(slow.idealS, 2),
            `${num(slow.ratio, 3)}×`,
            `≤ 1.2×: ${verdict(slow.complete && slow.ratio <= 1.2)}`,
            num(slow.maxConcurrentAgentCalls),
            [slow.rss.firstMiB, slow.rss.minMiB, slow.rss.maxMiB, slow.rss.lastMiB]
              .map((v) => num(v))
              .join(' / '),
          ],
        ],
      ),
      '',
      `RSS every 5 s (MiB): ${slow.rss.every5s.map((/** @type {{ atS: number, rssMiB: number }} */ p) => `${p.atS} s: ${num(p.rssMiB)}`).join(', ')}. ` +
        'The climb is V8 growing its heap while busy (see the memory rows below for garbage versus retained memory).',
      '',
    );
  }

  const memory = results.memory;
  if (memory) {
    const [shipped] = memory.variants;
    out.push(
      `### Memory after ${num(shipped.deliveries)} accepted deliveries`,
      '',
      `${num(shipped.deliveries)} deliveries per row (unique ids, \`log\` target, \`dry-run\` agent, rate limit raised, ` +
        'default 1 h de-duplication window so every id stays in it), sent over ' +
        `${settings.memory.connections} connections; a fresh gateway per row, its workers drained before the last reading.`,
      '',
      table(
        [
          'gateway',
          'accepted (per s)',
          'delivered',
          'RSS at start MiB',
          'after sending MiB',
          'after draining MiB',
          'peak MiB',
          'goal: < 200 MB',
        ],
        memory.variants.map((/** @type {any} */ variant) => [
          variant.nodeOptions ? `\`NODE_OPTIONS=${variant.nodeOptions}\`` : 'as shipped',
          `${num(variant.accepted)} (${num(variant.acceptedPerSecond)})`,
          `${num(variant.delivered)}${variant.drained ? '' : ' (not drained in time)'}`,
          num(variant.startMiB),
          num(variant.afterSendMiB),
          num(variant.afterDrainMiB),
          num(variant.peakMiB),
          `peak ${verdict(underMB(variant.peakMiB, 200))}, drained ${verdict(underMB(variant.afterDrainMiB, 200))}`,
        ]),
      ),
      '',
      ...memory.variants.map(
        (/** @type {any} */ variant) =>
          `RSS every 5 s, ${variant.nodeOptions || 'as shipped'} (MiB): ${variant.rss.every5s.map((/** @type {{ atS: number, rssMiB: number }} */ p) => `${p.atS} s: ${num(p.rssMiB)}`).join(', ')}.`,
      ),
      '',
      GC_NOTE,
      '',
    );
  }

  const redis = results.redis;
  if (redis) out.push('### Redis store', '');
  if (!redis) {
    // not run (--only)
  } else if (!redis.present) {
    out.push('`bench/redis.mjs` was not present in this run: no Redis rows.', '');
  } else if (redis.rows.length === 0) {
    out.push(`\`bench/redis.mjs\` ran but gave no rows (${redis.problem ?? 'no output'}).`, '');
  } else {
    out.push(
      `From \`node bench/redis.mjs\`${redis.ok ? '' : ` (${redis.problem})`}:`,
      '',
      table(
        ['scenario', 'req/s', 'p50 ms', 'p99 ms'],
        redis.rows.map(
          (
            /** @type {{ scenario: string, requestsPerSecond: number, p50Ms: number, p99Ms: number }} */ row,
          ) => [row.scenario, num(row.requestsPerSecond), num(row.p50Ms, 2), num(row.p99Ms, 2)],
        ),
      ),
      '',
    );
  }

  if (results.failures.length > 0) {
    out.push('### Scenarios that failed in this run', '');
    for (const failure of results.failures) out.push(`- ${failure.scenario}: ${failure.error}`);
    out.push('');
  }
  return out.join('\n');
}

const INTRO = `# Benchmarks

\`npm run bench\` builds the packages and runs every scenario in one go (about 5–10 minutes on
two cores), printing progress on stderr, then rewrites the section below and saves the raw
figures in \`bench/results/latest.json\` (not committed). \`node bench/run.mjs --quick\` is a
short smoke run of the same scenarios; it never touches this file unless given \`--write\`.

What runs (all on 127.0.0.1, all processes started and stopped by the runner):

- **Receivers** — the real \`webhook-gateway\` CLI (SQLite journal on, as shipped), a bare
  \`node:http\` receiver that only verifies the HMAC and parses the JSON (the ceiling),
  \`@octokit/webhooks\`' \`createNodeMiddleware\`, and Koa with \`@koa/router\` doing only the
  ceiling's work (what the framework the gateway is built on costs by itself), all fed the same
  signed ~6 KB \`pull_request\`
  deliveries: a saturation run by autocannon, and a fixed-rate run at 1,000 requests/s paced
  evenly (request i is due at i ms; its latency counts from when it was due, as wrk2 measures;
  autocannon's own rate option sends each second's quota as a burst). Every load runs in a fresh
  child process: a long-lived load generator grew once-a-second stalls of its own.
- **Start-up** — spawn to the listening line on stdout.
- **Journal accept** — the SQLite store alone, accepting the same payloads in group commits of
  16: what the durable write before each 202 costs without anything around it.
- **Slow agent** — the \`openai\` runner against a fake server that takes 500 ms an answer,
  16 workers, 1,000 deliveries; time against the ideal 1000 / 16 × 0.5 s = 31.25 s.
- **Memory** — RSS after 100,000 accepted deliveries with the de-duplication window full, as
  shipped and with V8's heap capped.
- **Redis** — the rows of \`bench/redis.mjs\` when that script is present.

Files: \`run.mjs\` (the runner), \`scenarios/\` (one file per scenario), \`servers/\` (the three
comparison receivers), \`lib/\` (payloads and signing, load generation, processes and /proc,
the fake chat-completions server, this report).

## Results

`;

const OUTRO = `
## Reading the figures

- **Noise.** The load generator and the server share two cores, and other work on the machine
  shows in the load averages above. Compare receivers within one run, not across runs.
- **Where the gateway's time goes.** \`node bench/profile-gateway.mjs [seconds]\` runs the gateway
  under \`--cpu-prof\` through a saturation run and prints the hottest functions and each
  package's share (\`--keep=DIR\` keeps the profiles, one per thread). At the time of writing,
  saturated, the event loop's time went about 27% to SQLite (the accepts and the workers' updates,
  and their commits), 30% to node:http and Koa, 12% to the HMAC and \`JSON.parse\`, 8% to the
  workers' runs, 5% to logging and 4% to garbage collection; checkpoints run on their own thread.
  While the receiver is saturated the workers start one run at a time (intake first), and drain
  the backlog once the burst ends.
- **The 0.6× goal.** The budget line under the receivers table is the arithmetic: the framework
  alone (Koa row) and the durable accept alone (journal row) already take more than one event
  loop has per request at 0.6× the ceiling. Committing on a writer thread instead was tried: it
  took ~30% off the event loop's time per request, but on two cores shared with the load
  generator the thread's CPU and its round trips left throughput where it was (0.35×) and p50
  higher; it was not kept.
- **Memory.** RSS climbs while the gateway is busy: the climb is garbage that V8 promotes and
  collects only at its next full GC. The gateway asks V8 for conservative heap growth
  (\`--optimize-for-size\`, see docs/deployment.md); the capped row shows what the same load needs
  when V8 must collect earlier still. To hold a gateway to a hard budget, cap its heap:
  \`NODE_OPTIONS=--max-old-space-size=96 webhook-gateway gateway\`.
  \`--gateway-node-options=…\` runs every gateway of the benchmark with other flags.
- **Redis rows.** \`bench/redis.mjs\` runs its gateways its own way (\`--log-level warn\`, a route
  without a prompt, its own pool of bodies), so its \`sqlite-embedded\` row is not the same setup
  as the gateway row of the receivers table (as shipped: \`info\` logs, a prompt template).
`;

/**
 * Writes bench/README.md: the fixed text above and below, the generated section between its
 * markers.
 * @param {string} section
 */
export function writeReadme(section) {
  const block = `${START_MARK}\n\n${section.trim()}\n\n${END_MARK}`;
  fs.writeFileSync(README, `${INTRO}${block}\n${OUTRO}`);
}
