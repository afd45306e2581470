/**
 * bench/README.md: the generated section between the markers is replaced by this run's tables;
 * the hand-written text around it stays in the file, not here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './payload.mjs';

export const README = path.join(repoRoot, 'bench/README.md');
const START_MARK =
  '<!-- bench:generated:start (written by `npm run bench`; edits here are lost) -->';
const END_MARK = '<!-- bench:generated:end -->';

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
  'keep that growth conservative (`--heap-growing-percent=30`). The capped row runs the same load with full GCs forced earlier still: what it holds ' +
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
 * Issue 20's goals from whatever scenarios ran: ratios to the bare receiver in the same run,
 * memory and the slow agent against their absolute bounds.
 * @param {any} results
 * @returns {string[]}
 */
function goalsTable(results) {
  const t = results.throughput?.summary;
  const startup = results.startup;
  /** @type {string[][]} */
  const rows = [];
  if (t?.gateway && t?.bare) {
    const cpu = t.gateway.cpuMicrosPerRequest / t.bare.cpuMicrosPerRequest;
    rows.push([
      'CPU per request, gateway ÷ bare',
      `${num(cpu, 2)}× (${num(t.gateway.cpuMicrosPerRequest)} ÷ ${num(t.bare.cpuMicrosPerRequest)} µs)`,
      '≤ 3× (stretch 2.5×)',
      verdict(cpu <= 3),
    ]);
    const floor = t['koa-journal'];
    if (floor) {
      // Not a goal: what Koa and the journal cost with nothing else, the least the gateway can.
      const ratio = floor.cpuMicrosPerRequest / t.bare.cpuMicrosPerRequest;
      rows.push([
        'CPU per request, Koa + the journal alone ÷ bare (the floor of this design)',
        `${num(ratio, 2)}× (${num(floor.cpuMicrosPerRequest)} ÷ ${num(t.bare.cpuMicrosPerRequest)} µs)`,
        'for reference',
        '–',
      ]);
    }
    const p99 = t.gateway.pacedP99Ms / t.bare.pacedP99Ms;
    rows.push([
      `p99 at a paced ${num(results.settings.throughput.fixedRate)} req/s, gateway ÷ bare`,
      `${num(p99, 2)}× (${num(t.gateway.pacedP99Ms, 2)} ÷ ${num(t.bare.pacedP99Ms, 2)} ms)`,
      '≤ 2×',
      verdict(p99 <= 2),
    ]);
  }
  if (startup?.gateway && startup?.bare) {
    const ratio = startup.gateway.medianMs / startup.bare.medianMs;
    rows.push([
      'start-up, gateway ÷ bare',
      `${num(ratio, 2)}× (${num(startup.gateway.medianMs)} ÷ ${num(startup.bare.medianMs)} ms)`,
      '≤ 2.5×',
      verdict(ratio <= 2.5),
    ]);
    const libraries = startup.libraries;
    if (libraries) {
      // Not a goal: the libraries the gateway cannot listen without, loaded and nothing else.
      const floor = libraries.medianMs / startup.bare.medianMs;
      rows.push([
        'start-up, the libraries alone ÷ bare (the floor of this stack)',
        `${num(floor, 2)}× (${num(libraries.medianMs)} ÷ ${num(startup.bare.medianMs)} ms)`,
        'for reference',
        '–',
      ]);
    }
  }
  const shipped = results.memory?.variants?.[0];
  if (shipped) {
    rows.push([
      `peak RSS after ${num(shipped.deliveries)} accepted`,
      `${num(shipped.peakMiB)} MiB`,
      '< 200 MB',
      verdict(underMB(shipped.peakMiB, 200)),
    ]);
  }
  const slow = results.slowAgent;
  if (slow) {
    rows.push([
      'slow agent, total ÷ ideal',
      `${num(slow.ratio, 3)}×`,
      '≤ 1.2×',
      verdict(slow.complete && slow.ratio <= 1.2),
    ]);
  }
  if (rows.length === 0) return [];
  return ['### Goals (issue 20)', '', table(['goal', 'measured', 'bound', ''], rows), ''];
}

/**
 * Start-up of every receiver, the libraries-alone reference among them: its ratio to bare is what
 * the stack costs before the gateway does anything, the gateway's ratio to it is the gateway's own.
 * @param {Record<string, { medianMs: number, minMs: number, maxMs: number, runs: number }>} startup
 * @param {{ id: string, label: string }[]} targets
 * @returns {string[]}
 */
function startupSection(startup, targets) {
  const bare = startup.bare?.medianMs;
  const libraries = startup.libraries?.medianMs;
  /** @param {number | undefined} value @param {number | undefined} base */
  const times = (value, base) =>
    value === undefined || base === undefined ? '–' : `${num(value / base, 2)}×`;
  return [
    '### Start-up',
    '',
    `Spawn → listening line on stdout, ${num(Object.values(startup)[0]?.runs)} interleaved starts each (the gateway with a fresh home each), median. ` +
      'The libraries-alone server loads only the libraries the gateway cannot listen without (`bench/servers/libraries.mjs`), ' +
      'opens a WAL database and a log file, and listens with Koa and its router.',
    '',
    table(
      ['receiver', 'start-up ms', 'min–max ms', '× bare', '× libraries alone'],
      targets
        .filter((target) => startup[target.id])
        .map((target) => {
          const r = startup[target.id];
          return [
            target.label,
            num(r?.medianMs),
            `${num(r?.minMs)}–${num(r?.maxMs)}`,
            times(r?.medianMs, bare),
            times(r?.medianMs, libraries),
          ];
        }),
    ),
    '',
  ];
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
    const bare = t.summary.bare;
    /** @param {number | undefined} value @param {number | undefined} base */
    const times = (value, base) =>
      value === undefined || base === undefined ? '–' : `${num(value / base, 2)}×`;
    out.push(
      '### Receivers on the same deliveries',
      '',
      `Signed ~6 KB \`pull_request\` deliveries, each with a delivery id no other request had, over a pool of ${num(results.bodyPool)} bodies (PR numbers) signed once per round ` +
        "(the forge's signature covers the body, not the id). " +
        `Saturation by **${t.generator}**${t.generator === 'wrk' ? ' (installed; one thread, a Lua script adds the ids)' : ' (wrk is not installed)'}: ` +
        `${s.connections} connections, ${s.rounds} rounds of ${s.durationS} s, the receivers interleaved within each round, after ${s.warmupS} s of warm-up each. ` +
        `**CPU µs/req** is the server process (every thread, from /proc/<pid>/stat) from the start of the load until ${s.settleS} s after it and, for the gateway, until its workers have delivered all of the round's deliveries (the draining counts), ` +
        'divided by the 2xx answers; medians of the rounds (each round in brackets). Requests/s swing with other work on the machine; CPU per request holds steady. ' +
        `Paced: ${num(s.fixedRate)} requests/s from a Node client in its own process, request i due at i / rate, latency counted from its due time (as wrk2 counts), ` +
        `${s.rounds} interleaved rounds of ${s.pacedS} s on fresh servers. ` +
        'Peak RSS: VmHWM after the saturation rounds.',
      '',
      table(
        [
          'receiver',
          'CPU µs/req',
          '× bare',
          'req/s',
          'p99 ms (saturated)',
          'paced p50 ms',
          'paced p99 ms',
          '× bare',
          'peak RSS MiB',
        ],
        targets.map((/** @type {{ id: string, label: string }} */ target) => {
          const r = t.summary[target.id];
          return [
            target.label,
            `${num(r?.cpuMicrosPerRequest)} (${(r?.cpuMicrosPerRequestRounds ?? []).map((/** @type {number} */ v) => num(v)).join(', ')})`,
            times(r?.cpuMicrosPerRequest, bare?.cpuMicrosPerRequest),
            num(r?.requestsPerSecond),
            num(r?.p99Ms, 2),
            num(r?.pacedP50Ms, 2),
            num(r?.pacedP99Ms, 2),
            times(r?.pacedP99Ms, bare?.pacedP99Ms),
            num(r?.peakRssMiB),
          ];
        }),
      ),
      '',
    );
  }
  if (startup) out.push(...startupSection(startup, results.startupTargets ?? targets));
  out.push(...goalsTable(results));

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

  if (results.reviewCost) out.push(...reviewCostSection(results.reviewCost));
  if (results.idlePasses) out.push(...idlePassesSection(results.idlePasses));

  if (results.failures.length > 0) {
    out.push('### Scenarios that failed in this run', '');
    for (const failure of results.failures) out.push(`- ${failure.scenario}: ${failure.error}`);
    out.push('');
  }
  return out.join('\n');
}

/**
 * Issue 34's idle scenario: CPU of a gateway that receives nothing, per case, and the journal
 * reads of each pass.
 * @param {any} idle
 * @returns {string[]}
 */
function idlePassesSection(idle) {
  const out = [
    '### Idle: the queue-standings pass and the pause poll',
    '',
    `The real CLI on SQLite receiving nothing for ${idle.idleS} s, after the deliveries held by \`webhook-gateway pause\` were accepted and ${idle.settleS} s had passed: in those, the first standings passes tell each queued delivery its place once (**CPU ms, first ${idle.settleS} s**; gh is not found, so each telling fails at once and no forge is reached). CPU of the process from /proc/<pid>/stat. The pause poll (1 s) runs in every case; the standings pass (2 s) reads the queue whenever a plugin taps \`deliveryWaiting\`, which the built-in forge plugin always does. **extra ms/pass**: CPU over the \`check\` case with nothing queued, per standings pass.`,
    '',
    table(
      [
        'case',
        'queued',
        `CPU ms, first ${idle.settleS} s`,
        'CPU ms/min',
        '% of a core',
        'extra ms/pass',
        `ms per ${idle.sliceS} s`,
      ],
      idle.rows.map((/** @type {any} */ row) => [
        row.label,
        String(row.queued),
        num(row.settleCpuMs),
        num(row.cpuMsPerMinute),
        num(row.corePercent, 2),
        row.extraCpuMsPerStandingsPass === null ? '-' : num(row.extraCpuMsPerStandingsPass, 2),
        row.slicesMs.join(', '),
      ]),
    ),
    '',
  ];
  if (idle.reads) {
    const r = idle.reads;
    out.push(
      `Reads on the journal of 1,000 queued, CPU µs per call in the runner: \`pauses()\` (the poll) ${num(r.pausesMicros)}, \`queued(0, 1)\` (the pass's emptiness check) ${num(r.queuedOneMicros)}, \`queued(0, 2000)\` (the standings' queued rows) ${num(r.queuedAllMicros)}, \`list(running)\` ${num(r.runningMicros)}; all of \`readQueueStandings\` (one pass's work before it tells anything) ${num(r.standingsMicros)}.`,
      '',
    );
  }
  return out;
}

/**
 * Issue 30's review-cost scenario: each row's totals, then its ratios to the recipe against the
 * goals (prompt tokens ≤ 0.5×, uncached prompt tokens ≤ 0.3×, time to answer ≤ 0.6×).
 * @param {any} review
 * @returns {string[]}
 */
function reviewCostSection(review) {
  const l = review.latency;
  const rows = Object.entries(review.rows);
  /** @param {number} value @param {number} bound */
  const against = (value, bound) =>
    `${num(value, 2)}× (≤ ${bound}×: ${value <= bound ? 'met' : 'not met'})`;
  return [
    '### Review cost',
    '',
    `${num(review.pulls)} pull requests replayed from ${review.source}, each opened on one commit and pushed 1–5 times: ${num(review.reviews)} reviewed pushes per row, on a fresh home each, ` +
      "the real `gh` against a fake forge over TLS serving the history's diffs, compares and files. " +
      `The fake model counts prompt tokens with gpt-tokenizer (o200k_base), caches prefixes of at least 1,024 tokens in steps of 128 as OpenAI documents, ` +
      `and answers after ${l.firstTokenMs} ms + ${l.perUncachedPromptTokenMs} ms per uncached and ${l.perCachedPromptTokenMs} ms per cached prompt token + ${l.perCompletionTokenMs} ms per completion token. ` +
      '`recipe` is the prompt `init` wrote before prepared context (the agent fetches the diff or the compare with the terminal tool, whose output that config cut to 16 KB, so a large change is read only in part); `recipe-whole` lifts the cut; ' +
      '`prepared` hands the pruned incremental diff, instructions and guidance in the prompt; `prepared-chunks` adds `review.chunks: 3`. Time: from the 202 to the delivered answer, summed over the pushes.',
    '',
    table(
      [
        'row',
        'delivered',
        'prompt tokens',
        'cached',
        'uncached',
        'completion',
        'turns',
        'time s',
        'footers',
      ],
      rows.map(([id, t]) => [
        id,
        `${num(t.delivered)} / ${num(t.reviews)}`,
        num(t.promptTokens),
        num(t.cachedPromptTokens),
        num(t.uncachedPromptTokens),
        num(t.completionTokens),
        num(t.turns),
        num(t.answerMs / 1000, 1),
        num(t.withSkippedFooter),
      ]),
    ),
    '',
    table(
      ['row ÷ recipe', 'prompt tokens', 'uncached prompt tokens', 'time to answer'],
      [
        ...Object.entries(review.ratios).map(([id, r]) => [
          `${id} ÷ recipe`,
          against(r.promptTokens, 0.5),
          against(r.uncachedPromptTokens, 0.3),
          against(r.answerMs, 0.6),
        ]),
        ...Object.entries(review.ratiosToWhole ?? {}).map(([id, r]) => [
          `${id} ÷ recipe-whole`,
          against(r.promptTokens, 0.5),
          against(r.uncachedPromptTokens, 0.3),
          against(r.answerMs, 0.6),
        ]),
      ],
    ),
    '',
    '"footers": reviews whose answer ends with the list of files not read (each skipped file is listed there with its reason).',
    '',
  ];
}

/**
 * Replaces bench/README.md's generated section (between its markers) with `section`; the
 * hand-written text around it stays as it is in the file.
 * @param {string} section
 */
export function writeReadme(section) {
  const text = fs.readFileSync(README, 'utf8');
  const start = text.indexOf(START_MARK);
  const end = text.indexOf(END_MARK);
  if (start === -1 || end < start) {
    throw new Error(`${README} has lost its generated-section markers: put them back first`);
  }
  const block = `${START_MARK}\n\n${section.trim()}\n\n`;
  fs.writeFileSync(README, text.slice(0, start) + block + text.slice(end));
}
