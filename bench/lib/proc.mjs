/**
 * Child processes under test: spawn, time to the listening line, memory from /proc, stop.
 * Everything is bound to 127.0.0.1 and stopped by the runner, also when a scenario fails.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from './payload.mjs';

export const cliPath = path.join(repoRoot, 'packages/cli/dist/bin.js');
export const GATEWAY_LISTENING = /\[webhook\] Listening on (\S+):(\d+)/;
/** The bench servers print this line (same shape, so one timing rule fits all). */
const SERVER_LISTENING = /Listening on 127\.0\.0\.1:(\d+)/;

/** @type {Set<import('node:child_process').ChildProcess>} */
const running = new Set();

/** Kills whatever a failed scenario left behind (the runner calls it on exit). */
export function killAll() {
  for (const child of running) child.kill('SIGKILL');
  running.clear();
}

/**
 * @typedef {object} Started
 * @property {import('node:child_process').ChildProcess} child
 * @property {number} pid
 * @property {number} port
 * @property {string} url
 * @property {number} startupMs spawn → listening line on stdout
 * @property {() => Promise<void>} stop
 */

/**
 * Spawns `node <args>` and resolves once stdout shows `pattern` (its first group is the port).
 * @param {string[]} args
 * @param {RegExp} pattern
 * @param {{ env?: NodeJS.ProcessEnv, timeoutMs?: number }} [options]
 * @returns {Promise<Started>}
 */
export function spawnListening(args, pattern, options = {}) {
  const started = performance.now();
  const child = spawn(process.execPath, args, {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, ...options.env },
  });
  running.add(child);
  let stdout = '';
  let stderr = '';
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  const exited = new Promise((resolve) => child.once('exit', resolve));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    }
    running.delete(child);
  };
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stop();
      reject(new Error(`${args.join(' ')} did not start.\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, options.timeoutMs ?? 30_000);
    child.stdout.setEncoding('utf8').on('data', (chunk) => {
      const wasListening = pattern.test(stdout);
      stdout += chunk;
      if (wasListening) return;
      const match = pattern.exec(stdout);
      if (!match) return;
      const startupMs = performance.now() - started;
      clearTimeout(timer);
      const port = Number(match[match.length - 1]);
      resolve({
        child,
        pid: /** @type {number} */ (child.pid),
        port,
        url: `http://127.0.0.1:${port}`,
        startupMs,
        stop,
      });
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(
        new Error(`${args.join(' ')} exited with ${code}.\nstdout: ${stdout}\nstderr: ${stderr}`),
      );
    });
  });
}

/** A fresh gateway home. */
export function makeHome() {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'wg-bench-'));
}

/** @param {string} home */
export function removeHome(home) {
  fs.rmSync(home, { recursive: true, force: true });
}

/** NODE_OPTIONS for every gateway process (`--gateway-node-options`); none by default. */
let gatewayNodeOptions = '';

/** @param {string} value */
export function setGatewayNodeOptions(value) {
  gatewayNodeOptions = value;
}

export function getGatewayNodeOptions() {
  return gatewayNodeOptions;
}

/**
 * Writes `config` to a home and starts the real CLI on it (port 0, loopback).
 * @param {string} home
 * @param {Record<string, unknown>} config
 * @param {string[]} [extraArgs]
 * @param {string} [nodeOptions] NODE_OPTIONS for this process (default: `--gateway-node-options`)
 */
export function startGateway(home, config, extraArgs = [], nodeOptions = gatewayNodeOptions) {
  // JSON is YAML: no YAML library needed here.
  fs.writeFileSync(path.join(home, 'config.yaml'), `${JSON.stringify(config, null, 2)}\n`);
  return spawnListening([cliPath, 'gateway', '--home', home, ...extraArgs], GATEWAY_LISTENING, {
    env: nodeOptions ? { NODE_OPTIONS: nodeOptions } : {},
  });
}

/**
 * @param {string} script a file of bench/servers
 * @param {NodeJS.ProcessEnv} [env]
 */
export function startServer(script, env = {}) {
  return spawnListening([path.join(repoRoot, 'bench/servers', script)], SERVER_LISTENING, { env });
}

/**
 * A memory field of /proc/<pid>/status in MiB: VmRSS now, VmHWM the peak so far.
 * @param {number} pid
 * @param {'VmRSS' | 'VmHWM'} field
 * @returns {number | undefined}
 */
export function memoryMiB(pid, field) {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const match = new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status);
    return match ? Number(match[1]) / 1024 : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Samples VmRSS every `everyMs` until stopped.
 * @param {number} pid
 * @param {number} everyMs
 */
export function sampleRss(pid, everyMs) {
  const started = Date.now();
  /** @type {{ atS: number, rssMiB: number }[]} */
  const samples = [];
  const take = () => {
    const rssMiB = memoryMiB(pid, 'VmRSS');
    if (rssMiB !== undefined) samples.push({ atS: (Date.now() - started) / 1000, rssMiB });
  };
  take();
  const timer = setInterval(take, everyMs);
  return {
    samples,
    stop() {
      clearInterval(timer);
      take();
      return samples;
    },
  };
}

/**
 * Counts log lines of `<home>/logs/gateway.log` that contain `needle`, reading only what is new.
 * @param {string} home
 * @param {string} needle
 */
export function logCounter(home, needle) {
  const file = path.join(home, 'logs', 'gateway.log');
  let offset = 0;
  let count = 0;
  let carry = '';
  /** @type {number | undefined} */
  let lastTime;
  return {
    /** Reads what was appended since the last call; returns the running count. */
    update() {
      if (!fs.existsSync(file)) return count;
      const size = fs.statSync(file).size;
      if (size <= offset) return count;
      const fd = fs.openSync(file, 'r');
      try {
        const buffer = Buffer.alloc(size - offset);
        fs.readSync(fd, buffer, 0, buffer.length, offset);
        offset = size;
        const lines = (carry + buffer.toString('utf8')).split('\n');
        carry = lines.pop() ?? '';
        for (const line of lines) {
          if (!line.includes(needle)) continue;
          count++;
          const time = /"time":(\d+)/.exec(line);
          if (time) lastTime = Number(time[1]);
        }
      } finally {
        fs.closeSync(fd);
      }
      return count;
    },
    get count() {
      return count;
    },
    /** The pino `time` (ms since epoch) of the last matching line. */
    get lastTime() {
      return lastTime;
    },
  };
}

/**
 * CPU seconds (user + system) a process has used so far, from /proc/<pid>/stat.
 * @param {number} pid
 * @returns {number | undefined}
 */
export function cpuSeconds(pid) {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start after the last ')'.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11]) + Number(fields[12]);
    return ticks / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;
