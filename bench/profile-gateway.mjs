#!/usr/bin/env node
/**
 * Where the gateway's CPU goes under the benchmark's load: runs the gateway with `--cpu-prof`
 * through a saturation run and prints the functions of its main thread with the most self time
 * and the share of each package (inclusive). Not part of `npm run bench`; a tool for whoever
 * makes it faster. `--keep=DIR` copies every thread's profile there (Chrome DevTools opens them).
 *
 * `--traced` exports every span to a stand-in collector (`observability.otlp`), for what tracing
 * costs.
 *
 *   node bench/profile-gateway.mjs [seconds] [--keep=DIR] [--drain=SECONDS (10)] [--traced]
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gatewayConfig, ROUTE } from './lib/gateway-config.mjs';
import { runLoad } from './lib/load.mjs';
import { runWrk, wrkInstalled } from './lib/wrk.mjs';
import { progress } from './lib/log.mjs';
import { startOtlpSink } from './lib/otlp-sink.mjs';
import { cliPath, cpuSeconds, killAll, makeHome, removeHome, spawnListening } from './lib/proc.mjs';

const args = process.argv.slice(2);
const seconds = Number(args.find((arg) => !arg.startsWith('--')) ?? 8);
const keep = args.find((arg) => arg.startsWith('--keep='))?.slice('--keep='.length);
const traced = args.includes('--traced');
const drainS = Number(
  args.find((arg) => arg.startsWith('--drain='))?.slice('--drain='.length) ?? 10,
);

/**
 * @typedef {{ id: number, callFrame: { functionName: string, url: string, lineNumber: number }, children?: number[] }} ProfileNode
 * @typedef {{ nodes: ProfileNode[], samples: number[], timeDeltas: number[] }} Profile
 */

/** @param {string} url */
function shortUrl(url) {
  return url.replace(/^.*node_modules\//, '').replace(/^.*\/packages\//, 'packages/');
}

/** @param {string} url */
function moduleOf(url) {
  const match = /node_modules\/((@[^/]+\/)?[^/]+)/.exec(url) ?? /packages\/([^/]+)/.exec(url);
  if (match) return match[1];
  return url.startsWith('node:') ? url : undefined;
}

/** @param {Profile} profile */
function report(profile) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  /** @type {Map<number, number>} */
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  /** @type {Map<number, number>} */
  const self = new Map();
  profile.samples.forEach((id, i) =>
    self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)),
  );
  let total = 0;
  /** @type {Map<string, number>} */
  const functions = new Map();
  /** @type {Map<string, number>} */
  const modules = new Map();
  for (const [id, time] of self) {
    total += time;
    const frame = /** @type {ProfileNode} */ (byId.get(id)).callFrame;
    const key = `${frame.functionName || '(anonymous)'} ${shortUrl(frame.url)}:${frame.lineNumber + 1}`;
    functions.set(key, (functions.get(key) ?? 0) + time);
    const seen = new Set();
    for (
      let cursor = /** @type {number | undefined} */ (id);
      cursor !== undefined;
      cursor = parent.get(cursor)
    ) {
      const name = moduleOf(/** @type {ProfileNode} */ (byId.get(cursor)).callFrame.url);
      if (name && !seen.has(name)) {
        seen.add(name);
        modules.set(name, (modules.get(name) ?? 0) + time);
      }
    }
  }
  /** @param {Map<string, number>} map */
  const top = (map) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([key, time]) => `  ${((time / total) * 100).toFixed(1).padStart(5)}%  ${key}`)
      .join('\n');
  process.stdout.write(
    `Self time, top functions:\n${top(functions)}\n\nInclusive, by package:\n${top(modules)}\n`,
  );
}

async function main() {
  const home = makeHome();
  const profileDir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-profile-'));
  const sink = traced ? await startOtlpSink() : undefined;
  try {
    const config = gatewayConfig(sink ? { otlpEndpoint: sink.endpoint } : {});
    fs.writeFileSync(path.join(home, 'config.yaml'), JSON.stringify(config, null, 2));
    const gateway = await spawnListening(
      ['--cpu-prof', `--cpu-prof-dir=${profileDir}`, cliPath, 'gateway', '--home', home],
      /\[webhook\] Listening on (\S+):(\d+)/,
    );
    const url = `${gateway.url}/webhooks/${ROUTE}`;
    // wrk when installed (a C load generator takes less of the shared cores), else autocannon.
    const load = wrkInstalled() ? runWrk : runLoad;
    await load({ url, connections: 32, durationS: 2, firstNumber: 1 });
    const cpuBefore = cpuSeconds(gateway.pid) ?? NaN;
    progress(
      `profiling ${seconds} s at 32 connections with ${wrkInstalled() ? 'wrk' : 'autocannon'}`,
    );
    const result = await load({
      url,
      connections: 32,
      durationS: seconds,
      firstNumber: 1_000_000,
    });
    // The workers drain what was accepted before the profile ends.
    await new Promise((resolve) => setTimeout(resolve, drainS * 1000));
    const cpuUsed = (cpuSeconds(gateway.pid) ?? NaN) - cpuBefore;
    process.stdout.write(
      `${result.requestsPerSecond.toFixed(0)} req/s, p50 ${result.p50Ms.toFixed(2)} ms, p99 ${result.p99Ms.toFixed(2)} ms, ` +
        `${((cpuUsed / result.ok) * 1e6).toFixed(0)} µs CPU per request (load and ${drainS} s after it)\n\n`,
    );
    await gateway.stop();
    // CPU.<date>.<time>.<pid>.<thread id>.<sequence>.cpuprofile; thread 0 is the main thread.
    const file = fs
      .readdirSync(profileDir)
      .find((name) => /^CPU\.\d+\.\d+\.\d+\.0\.\d+\.cpuprofile$/.test(name));
    if (!file) throw new Error('the gateway wrote no profile of its main thread');
    if (keep) {
      fs.cpSync(profileDir, keep, { recursive: true });
      progress(`profiles kept in ${keep}`);
    }
    report(JSON.parse(fs.readFileSync(path.join(profileDir, file), 'utf8')));
  } finally {
    killAll();
    await sink?.close();
    removeHome(home);
    fs.rmSync(profileDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  process.stderr.write(`[bench] ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
