#!/usr/bin/env node
/**
 * `npm run bench`: every scenario in one run, progress on stderr, the figures into bench/README.md
 * (generated section) and bench/results/latest.json.
 *
 *   node bench/run.mjs            full run, rewrites bench/README.md
 *   node bench/run.mjs --quick    short smoke run (prints the section instead)
 *   node bench/run.mjs --only=startup,throughput,journal,slow-agent,memory,redis,review-cost,idle-passes
 *   node bench/run.mjs --gateway-node-options=--max-old-space-size=96
 *
 * bench/README.md is rewritten only by a full run of every scenario with default options, or when
 * `--write` is given; other runs print their section on stdout.
 */
import fs from 'node:fs';
import path from 'node:path';
import { BODY_POOL } from './lib/load.mjs';
import { progress } from './lib/log.mjs';
import { repoRoot } from './lib/payload.mjs';
import os from 'node:os';
import { killAll, setGatewayNodeOptions } from './lib/proc.mjs';
import { describeMachine, renderResults, README, writeReadme } from './lib/report.mjs';
import { STARTUP_TARGETS, TARGETS } from './lib/targets.mjs';
import { measureIdlePasses } from './scenarios/idle-passes.mjs';
import { measureJournal } from './scenarios/journal.mjs';
import { measureMemory } from './scenarios/memory.mjs';
import { measureRedis } from './scenarios/redis.mjs';
import { measureReviewCost } from './scenarios/review-cost.mjs';
import { measureSlowAgent } from './scenarios/slow-agent.mjs';
import { measureStartup } from './scenarios/startup.mjs';
import { measureThroughput } from './scenarios/throughput.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick');
const only = args
  .find((arg) => arg.startsWith('--only='))
  ?.slice('--only='.length)
  .split(',');
const gatewayNodeOptions =
  args
    .find((arg) => arg.startsWith('--gateway-node-options='))
    ?.slice('--gateway-node-options='.length) ?? '';
const writeReadmeFile = args.includes('--write') || (!quick && !only && !gatewayNodeOptions);
setGatewayNodeOptions(gatewayNodeOptions);

/** Full-run durations keep the whole run near 12–17 minutes on two cores (idle-passes alone: 6.5). */
const SETTINGS = quick
  ? {
      startup: { runs: 2 },
      throughput: {
        connections: 32,
        rounds: 1,
        warmupS: 1,
        durationS: 2,
        settleS: 1,
        fixedRate: 1_000,
        pacedS: 2,
      },
      journal: { accepts: 2_000, batch: 16 },
      slowAgent: { deliveries: 160, workers: 16, answerMs: 500 },
      memory: { deliveries: 5_000, connections: 16 },
      redis: { timeoutMs: 300_000 },
      reviewCost: { pulls: 4, concurrency: 2 },
      idlePasses: { idleS: 10, sliceS: 5, settleS: 10, readCalls: 200 },
    }
  : {
      startup: { runs: 7 },
      throughput: {
        connections: 32,
        rounds: 3,
        warmupS: 2,
        durationS: 5,
        settleS: 2,
        fixedRate: 1_000,
        pacedS: 5,
      },
      journal: { accepts: 20_000, batch: 16 },
      slowAgent: { deliveries: 1_000, workers: 16, answerMs: 500 },
      memory: { deliveries: 100_000, connections: 16 },
      redis: { timeoutMs: 300_000 },
      reviewCost: { pulls: 30, concurrency: 4 },
      idlePasses: { idleS: 60, sliceS: 10, settleS: 15, readCalls: 2_000 },
    };

const SCENARIOS = /** @type {const} */ ([
  ['startup', () => measureStartup(SETTINGS.startup)],
  ['throughput', () => measureThroughput(SETTINGS.throughput)],
  ['journal', () => measureJournal(SETTINGS.journal)],
  ['slow-agent', () => measureSlowAgent(SETTINGS.slowAgent)],
  ['memory', () => measureMemory(SETTINGS.memory)],
  ['redis', () => measureRedis(SETTINGS.redis)],
  ['review-cost', () => measureReviewCost(SETTINGS.reviewCost)],
  ['idle-passes', () => measureIdlePasses(SETTINGS.idlePasses)],
]);

/** Result keys in the JSON and for the report. */
const KEYS = {
  startup: 'startup',
  throughput: 'throughput',
  journal: 'journal',
  'slow-agent': 'slowAgent',
  memory: 'memory',
  redis: 'redis',
  'review-cost': 'reviewCost',
  'idle-passes': 'idlePasses',
};

function checkBuilt() {
  const cli = path.join(repoRoot, 'packages/cli/dist/bin.js');
  if (!fs.existsSync(cli)) {
    throw new Error(
      `${cli} is missing: build first (npm run bench builds; or npx turbo run build)`,
    );
  }
}

async function main() {
  checkBuilt();
  const started = Date.now();
  /** @type {Record<string, unknown>} */
  const results = {
    mode: quick ? 'quick' : 'full',
    command:
      writeReadmeFile && !quick ? 'npm run bench' : `node bench/run.mjs ${args.join(' ')}`.trim(),
    gatewayNodeOptions,
    machine: describeMachine(),
    settings: SETTINGS,
    bodyPool: BODY_POOL,
    targets: TARGETS.map(({ id, label }) => ({ id, label })),
    startupTargets: STARTUP_TARGETS.map(({ id, label }) => ({ id, label })),
    failures: [],
    /** The 1-minute load average as each scenario ended: other work on the machine skews figures. */
    loadAfter: {},
  };
  const loadAfter = /** @type {Record<string, number>} */ (results.loadAfter);
  const failures = /** @type {{ scenario: string, error: string }[]} */ (results.failures);
  for (const [name, run] of SCENARIOS) {
    if (only && !only.includes(name)) continue;
    progress(`── ${name}`);
    try {
      results[KEYS[name]] = await run();
    } catch (error) {
      const message = error instanceof Error ? error.message.split('\n')[0] : String(error);
      progress(`${name} failed: ${message}`);
      failures.push({ scenario: name, error: message ?? 'unknown error' });
    } finally {
      killAll();
      loadAfter[name] = os.loadavg()[0] ?? NaN;
    }
  }
  results.finishedAt = new Date().toISOString();
  results.elapsedS = (Date.now() - started) / 1000;

  const resultsDir = path.join(repoRoot, 'bench/results');
  fs.mkdirSync(resultsDir, { recursive: true });
  fs.writeFileSync(path.join(resultsDir, 'latest.json'), `${JSON.stringify(results, null, 2)}\n`);
  const section = renderResults(results);
  if (writeReadmeFile) {
    writeReadme(section);
    progress(`wrote ${path.relative(repoRoot, README)} and bench/results/latest.json`);
  } else {
    process.stdout.write(`${section}\n`);
    progress('bench/README.md left as it is: only a full default run rewrites it (or add --write)');
  }
  progress(`done in ${(results.elapsedS / 60).toFixed(1)} min`);
  if (failures.length > 0) process.exitCode = 1;
}

process.on('SIGINT', () => {
  killAll();
  process.exit(130);
});

main().catch((error) => {
  killAll();
  process.stderr.write(`[bench] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
