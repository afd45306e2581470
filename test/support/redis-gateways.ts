/**
 * Gateway processes by role for the scale-out tests: receivers (wait for the listening line) and
 * workers (wait for the worker line), all started with one shared config file and a home each,
 * so every process has its own log, and the test's environment (plus `env`). `WG_E2E_CLI` runs
 * them from another build of the CLI.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { cliPath, makeHome, readLogLines } from './gateway.js';

const LISTENING = /\[webhook\] Listening on (\S+):(\d+) — routes: (.*)/;
const WORKER_STARTED = /\[webhook\] Worker started — store: (\S+)/;

export type Role = 'receiver' | 'worker' | 'all';

export interface RoleProcess {
  role: Role;
  home: string;
  pid: number;
  child: ChildProcess;
  /** Only for receivers and `all`. */
  url: string | undefined;
  stdout(): string;
  stderr(): string;
  logLines(): Record<string, unknown>[];
  /** SIGTERM and wait for the exit code. */
  stop(): Promise<number | null>;
  /** SIGKILL, no goodbye. */
  kill(): Promise<void>;
}

/** The CLI the processes run (another build with `WG_E2E_CLI`). */
const roleCliPath = process.env.WG_E2E_CLI ?? cliPath;

/** Spawns `webhook-gateway gateway --role <role> --config <file>` in a new home. */
export async function startRole(
  role: Role,
  configFile: string,
  options: { timeoutMs?: number; env?: Record<string, string | undefined> } = {},
): Promise<RoleProcess> {
  const home = makeHome();
  const child = spawn(
    process.execPath,
    [roleCliPath, 'gateway', '--home', home, '--config', configFile, '--role', role],
    { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  const ready = role === 'worker' ? WORKER_STARTED : LISTENING;
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${role} did not start.\nstdout: ${stdout}\nstderr: ${stderr}`)),
      options.timeoutMs ?? 20_000,
    );
    const check = () => {
      const found = ready.exec(stdout);
      if (found) {
        clearTimeout(timer);
        child.stdout.off('data', check);
        resolve(found);
      } else if (role === 'worker' && LISTENING.test(stdout)) {
        // A worker that listens did not get its role: fail now rather than after the timeout.
        clearTimeout(timer);
        child.kill('SIGKILL');
        reject(new Error(`started with --role worker, but it listens on HTTP: ${stdout.trim()}`));
      }
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${role} exited with ${code}.\nstdout: ${stdout}\nstderr: ${stderr}`));
    });
  });
  const port = role === 'worker' ? undefined : Number(match[2]);
  const gone = () => child.exitCode !== null || child.signalCode !== null;
  return {
    role,
    home,
    pid: child.pid ?? 0,
    child,
    url: port === undefined ? undefined : `http://127.0.0.1:${port}`,
    stdout: () => stdout,
    stderr: () => stderr,
    logLines: () => readLogLines(home),
    async stop() {
      if (gone()) return child.exitCode;
      child.kill('SIGTERM');
      return exited;
    },
    async kill() {
      if (gone()) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** One line the journaling agent wrote: a run starting or ending. */
export interface AgentEvent {
  event: 'start' | 'end';
  deliveryId: string;
  route: string;
  /** The gateway process that ran the agent (its parent). */
  gatewayPid: number;
}

/**
 * A `command` agent (argv for `agent.command`) that appends a `start` line, sleeps, appends an
 * `end` line, then answers. It sleeps `slowMs` on route `slowRoute`, `fastMs` elsewhere.
 */
export function journalingAgent(
  outFile: string,
  timing: { fastMs: number; slowMs: number; slowRoute: string },
): string[] {
  const code = `
import fs from 'node:fs';
const [out, fastMs, slowMs, slowRoute] = process.argv.slice(1);
for await (const _ of process.stdin) { /* the prompt is not needed */ }
const line = (event) => JSON.stringify({
  event,
  deliveryId: process.env.WEBHOOK_DELIVERY_ID,
  route: process.env.WEBHOOK_ROUTE,
  gatewayPid: process.ppid,
}) + '\\n';
fs.appendFileSync(out, line('start'));
const ms = Number(process.env.WEBHOOK_ROUTE === slowRoute ? slowMs : fastMs);
await new Promise((resolve) => setTimeout(resolve, ms));
fs.appendFileSync(out, line('end'));
process.stdout.write('answer for ' + process.env.WEBHOOK_DELIVERY_ID);
`;
  return [
    process.execPath,
    '--input-type=module',
    '-e',
    code,
    outFile,
    String(timing.fastMs),
    String(timing.slowMs),
    timing.slowRoute,
  ];
}

/** Everything the journaling agent wrote so far. */
export function readAgentEvents(file: string): AgentEvent[] {
  if (!fs.existsSync(file)) return [];
  return fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as AgentEvent);
}

/** A small pull-request payload about `repo`#`number`. */
export function pullRequestBody(number: number, repo = 'octo/repo'): string {
  return JSON.stringify({
    action: 'opened',
    number,
    pull_request: { number, title: `Change ${number}`, draft: false },
    repository: { full_name: repo },
  });
}
