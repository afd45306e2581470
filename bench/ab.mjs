#!/usr/bin/env node
/**
 * A/B of receivers in interleaved wrk rounds, CPU µs per request from /proc (every thread, until
 * the load has settled and, for a gateway, its workers have delivered the round): what one
 * optimisation is worth, measured within one run; the order rotates every round. Not part of
 * `npm run bench`.
 *
 *   node bench/ab.mjs [--rounds=5] [--seconds=5] [--connections=32] NAME=SPEC ...
 *
 * SPEC is `gateway:<checkout>[:VAR=value,...]` (that checkout's built CLI, configured as the
 * benchmark's gateway), `gateway-traced:<checkout>[:…]` (the same with `observability.otlp`
 * exporting every span to a stand-in collector, `lib/otlp-sink.mjs`) or
 * `server:<file of bench/servers>[:VAR=value,...]` (environment for the server).
 * `--startup-runs=N` also times spawn → listening line N times per spec, interleaved (medians).
 *   node bench/ab.mjs before=gateway:/tmp/before after=gateway:.
 *   node bench/ab.mjs --startup-runs=15 before=gateway:/tmp/before off=gateway:. on=gateway-traced:.
 *   node bench/ab.mjs ref=server:koa.mjs:KOA_VARIANT=reference raw=server:koa.mjs:KOA_VARIANT=raw-body
 */
import fs from 'node:fs';
import path from 'node:path';
import { gatewayConfig, ROUTE } from './lib/gateway-config.mjs';
import { pollUntil, progress, sleep } from './lib/log.mjs';
import { BENCH_SECRET } from './lib/payload.mjs';
import {
  cpuSeconds,
  killAll,
  logCounter,
  makeHome,
  removeHome,
  spawnListening,
  startServer,
} from './lib/proc.mjs';
import { runWrk } from './lib/wrk.mjs';
import { startOtlpSink } from './lib/otlp-sink.mjs';
import { namedSpecs, numberOption } from './lib/args.mjs';
import { median } from './scenarios/throughput.mjs';

const args = process.argv.slice(2);
/** @param {string} name @param {number} fallback */
const option = (name, fallback) => numberOption(args, name, fallback);
const rounds = option('rounds', 5);
const seconds = option('seconds', 5);
const connections = option('connections', 32);
const startupRuns = option('startup-runs', 0);
/** The stand-in collector of `gateway-traced` specs, started with the first. */
let sink;
const specs = namedSpecs(args);
if (specs.length === 0) {
  process.stderr.write('usage: node bench/ab.mjs [--rounds=N] [--seconds=S] NAME=SPEC ...\n');
  process.exit(2);
}

/**
 * @param {string} spec
 * @returns {Promise<import('./lib/proc.mjs').Started & { home?: string, path: string }>}
 */
async function start(spec) {
  const [kind, where = '', envList = ''] = spec.split(':');
  const env = Object.fromEntries(
    envList
      .split(',')
      .filter(Boolean)
      .map((pair) => pair.split('=')),
  );
  if (kind === 'gateway' || kind === 'gateway-traced') {
    const home = makeHome();
    if (kind === 'gateway-traced') sink ??= await startOtlpSink();
    const config = gatewayConfig(kind === 'gateway-traced' ? { otlpEndpoint: sink?.endpoint } : {});
    fs.writeFileSync(path.join(home, 'config.yaml'), `${JSON.stringify(config)}\n`);
    const cli = path.resolve(where, 'packages/cli/dist/bin.js');
    const started = await spawnListening(
      [cli, 'gateway', '--home', home],
      /\[webhook\] Listening on (\S+):(\d+)/,
      { env },
    );
    return {
      ...started,
      home,
      path: `/webhooks/${ROUTE}`,
      stop: async () => {
        await started.stop();
        removeHome(home);
      },
    };
  }
  if (kind === 'server') {
    return { ...(await startServer(where, { BENCH_SECRET, ...env })), path: '/webhooks/bench' };
  }
  throw new Error(`Unknown spec "${spec}": gateway:<checkout> or server:<file>[:VAR=value,...]`);
}

const servers = [];
try {
  if (startupRuns > 0) {
    /** @type {Record<string, number[]>} */
    const times = {};
    for (let run = 0; run < startupRuns; run++) {
      for (const [name, spec] of specs) {
        const started = await start(spec ?? '');
        (times[name] ??= []).push(started.startupMs);
        await started.stop();
      }
    }
    for (const [name] of specs) {
      const values = times[name] ?? [];
      const shown = values.map((v) => v.toFixed(0)).join(', ');
      process.stdout.write(`${name}: start-up median ${median(values).toFixed(0)} ms (${shown})\n`);
    }
  }
  for (const [name, spec] of specs) servers.push({ name, server: await start(spec ?? '') });
  for (const { server } of servers) {
    await runWrk({ url: `${server.url}${server.path}`, connections, durationS: 2, firstNumber: 1 });
  }
  /** @type {Record<string, number[]>} */
  const cpu = {};
  for (let round = 0; round < rounds; round++) {
    // Each round starts with the next receiver: whoever runs first in a round was measured
    // differently from the others (up to 8% on this machine), so the order must not favour one.
    const order = [
      ...servers.slice(round % servers.length),
      ...servers.slice(0, round % servers.length),
    ];
    for (const { name, server } of order) {
      const delivered = server.home ? logCounter(server.home, '"msg":"delivered"') : undefined;
      const deliveredBefore = delivered?.update() ?? 0;
      const before = cpuSeconds(server.pid) ?? NaN;
      const result = await runWrk({
        url: `${server.url}${server.path}`,
        connections,
        durationS: seconds,
        firstNumber: 1_000_000 * (round + 1),
      });
      await sleep(1000);
      if (delivered) {
        await pollUntil(() => delivered.update() - deliveredBefore >= result.ok, 120_000, 200);
      }
      const micros = (((cpuSeconds(server.pid) ?? NaN) - before) / result.ok) * 1e6;
      (cpu[name] ??= []).push(micros);
      progress(`round ${round + 1} ${name}: ${micros.toFixed(1)} µs CPU/req, ${result.ok} ok`);
    }
  }
  for (const { name } of servers) {
    const values = cpu[name] ?? [];
    const shown = values.map((v) => v.toFixed(0)).join(', ');
    process.stdout.write(`${name}: median ${median(values).toFixed(1)} µs CPU/req (${shown})\n`);
  }
  if (sink) progress(`stand-in collector: ${sink.exports()} exports, ${sink.bytes()} bytes`);
} finally {
  for (const { server } of servers) await server.stop();
  await sink?.close();
  killAll();
}
