/**
 * Starts the built `webhook-gateway` CLI as a child process on a free loopback port, the way an
 * operator would, and gives tests its URL, home, output and a way to stop it.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { waitFor } from '@webhook-gateway/core/testing';
import { stringify } from 'yaml';

// The e2e tests poll with core's one polling helper.
export { waitFor };

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const cliPath = path.join(repoRoot, 'packages/cli/dist/bin.js');
export const fixturesDir = path.join(repoRoot, 'test/fixtures');

const LISTENING = /\[webhook\] Listening on (\S+):(\d+) — routes: (.*)/;

/** A new temporary gateway home; removed by `cleanupHomes`. */
const homes: string[] = [];
export function makeHome(): string {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-e2e-'));
  homes.push(home);
  return home;
}
export function cleanupHomes(): void {
  for (const home of homes.splice(0)) fs.rmSync(home, { recursive: true, force: true });
}

/** A config object with loopback host and port 0 filled in unless given. */
export type ConfigObject = Record<string, unknown>;

export function withLoopbackDefaults(config: ConfigObject): ConfigObject {
  const platforms = (config.platforms ?? {}) as Record<string, Record<string, unknown>>;
  const webhook = platforms.webhook ?? {};
  const extra = (webhook.extra ?? {}) as Record<string, unknown>;
  return {
    ...config,
    platforms: {
      ...platforms,
      webhook: { ...webhook, extra: { host: '127.0.0.1', port: 0, ...extra } },
    },
  };
}

export function writeConfig(home: string, config: ConfigObject | string): string {
  const file = path.join(home, 'config.yaml');
  fs.writeFileSync(
    file,
    typeof config === 'string' ? config : stringify(withLoopbackDefaults(config)),
  );
  return file;
}

export interface StartedGateway {
  url: string;
  port: number;
  home: string;
  child: ChildProcess;
  /** Everything the process wrote so far. */
  stdout(): string;
  stderr(): string;
  /** The JSON lines of `<home>/logs/gateway.log`. */
  logLines(): Record<string, unknown>[];
  /** Sends a signal and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number | null>;
  /** SIGKILL, no goodbye. */
  kill(): Promise<void>;
}

export interface StartOptions {
  config?: ConfigObject | string;
  /** Reuse a home (for restarts); a new one otherwise. */
  home?: string;
  env?: Record<string, string | undefined>;
  args?: string[];
  timeoutMs?: number;
  /** The `webhook-gateway` executable to run (an installed bin); this repository's build otherwise. */
  bin?: string;
}

export function readLogLines(home: string): Record<string, unknown>[] {
  const file = path.join(home, 'logs', 'gateway.log');
  if (!fs.existsSync(file)) return [];
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  // The gateway writes its log in batches; a read may catch one half written. The part after
  // the last newline is that unfinished line: the next read will have it whole.
  lines.pop();
  return lines
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

/** Spawns `webhook-gateway gateway --home <home>` and waits for the listening line. */
export async function startGateway(options: StartOptions = {}): Promise<StartedGateway> {
  const home = options.home ?? makeHome();
  if (options.config !== undefined) writeConfig(home, options.config);
  const args = ['gateway', '--home', home, ...(options.args ?? [])];
  const child = spawn(
    options.bin ?? process.execPath,
    options.bin === undefined ? [cliPath, ...args] : args,
    {
      env: { ...process.env, ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );

  const port = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(
      () =>
        reject(new Error(`gateway did not start in time.\nstdout: ${stdout}\nstderr: ${stderr}`)),
      options.timeoutMs ?? 20_000,
    );
    const check = () => {
      const match = LISTENING.exec(stdout);
      if (match) {
        clearTimeout(timer);
        child.stdout.off('data', check);
        resolve(Number(match[2]));
      }
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(
        new Error(
          `gateway exited with ${code} before listening.\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    });
  });

  return {
    url: `http://127.0.0.1:${port}`,
    port,
    home,
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    logLines: () => readLogLines(home),
    async stop(signal = 'SIGTERM') {
      if (child.exitCode !== null || child.signalCode !== null) return child.exitCode;
      child.kill(signal);
      return exited;
    },
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** The admin listener's URL (`extra.admin`), once the gateway has logged where it listens. */
export async function adminUrlOf(gateway: StartedGateway): Promise<string> {
  const port = await waitFor(
    () => gateway.logLines().find((line) => line.msg === 'admin listening')?.port as number,
    'the admin listening log line',
  );
  return `http://127.0.0.1:${port}`;
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a CLI command to completion. */
export function runCli(
  args: string[],
  options: { env?: Record<string, string | undefined>; input?: string; timeoutMs?: number } = {},
): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cliPath, ...args], {
      env: { ...process.env, ...options.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(
        new Error(
          `webhook-gateway ${args.join(' ')} did not finish.\nstdout: ${stdout}\nstderr: ${stderr}`,
        ),
      );
    }, options.timeoutMs ?? 20_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
