/**
 * `command` agents for the journal tests. Each answers `answer for <delivery id>`, so the fake
 * target can tell deliveries apart, and leaves a record of its run in a file.
 */
import fs from 'node:fs';
import path from 'node:path';

/** Runs whose delivery id matches `idPattern` (a shell glob) wait until `file` exists. */
export interface AgentGate {
  idPattern: string;
  file: string;
}

/**
 * A shell agent (cheap to spawn, for streams of hundreds): reads the prompt, sleeps `sleepS`
 * (or, for ids matching the gate, waits for the gate file, at most 20 s, so an orphan left by a
 * killed gateway cannot linger), appends the delivery id as a line to `outFile`, then answers.
 */
export function appendingAgent(
  outFile: string,
  options: { sleepS?: number; gate?: AgentGate } = {},
): Record<string, unknown> {
  const { sleepS = 0.05, gate } = options;
  const wait = gate
    ? [
        'case "$WEBHOOK_DELIVERY_ID" in',
        `  ${gate.idPattern}) i=0; while [ ! -e "$2" ] && [ $i -lt 1000 ]; do sleep 0.02; i=$((i+1)); done ;;`,
        `  *) sleep ${sleepS} ;;`,
        'esac',
      ]
    : [`sleep ${sleepS}`];
  const script = [
    'cat >/dev/null',
    ...wait,
    'printf "%s\\n" "$WEBHOOK_DELIVERY_ID" >> "$1"',
    'printf "answer for %s" "$WEBHOOK_DELIVERY_ID"',
  ].join('\n');
  return {
    runner: 'command',
    command: ['/bin/sh', '-c', script, 'agent', outFile, gate?.file ?? ''],
    timeout_s: 30,
  };
}

/** The delivery ids `appendingAgent` recorded, one per run, in order of the runs' ends. */
export function readAppendedIds(outFile: string): string[] {
  if (!fs.existsSync(outFile)) return [];
  return fs
    .readFileSync(outFile, 'utf8')
    .split('\n')
    .filter((line) => line !== '');
}

/** One run of the timing agent. */
export interface TimedRun {
  deliveryId: string;
  route: string;
  prompt: string;
  startedAt: number;
  endedAt: number;
}

const TIMING_AGENT = `
import fs from 'node:fs';
const [outFile, sleepMs] = process.argv.slice(2);
const startedAt = Date.now();
let prompt = '';
process.stdin.setEncoding('utf8');
for await (const chunk of process.stdin) prompt += chunk;
await new Promise((resolve) => setTimeout(resolve, Number(sleepMs)));
const run = {
  deliveryId: process.env.WEBHOOK_DELIVERY_ID,
  route: process.env.WEBHOOK_ROUTE,
  prompt,
  startedAt,
  endedAt: Date.now(),
};
fs.appendFileSync(outFile, JSON.stringify(run) + '\\n');
process.stdout.write('answer for ' + run.deliveryId);
`;

/**
 * A node agent that records when it started and ended (after sleeping `sleepMs`), for ordering
 * tests. The script is written into `dir`; runs are appended to `<dir>/timed-runs.jsonl`.
 */
export function timingAgent(
  dir: string,
  sleepMs: number,
): { agent: Record<string, unknown>; runsFile: string } {
  const script = path.join(dir, 'timing-agent.mjs');
  const runsFile = path.join(dir, 'timed-runs.jsonl');
  fs.writeFileSync(script, TIMING_AGENT);
  return {
    agent: {
      runner: 'command',
      command: [process.execPath, script, runsFile, String(sleepMs)],
      timeout_s: 30,
    },
    runsFile,
  };
}

export function readTimedRuns(runsFile: string): TimedRun[] {
  if (!fs.existsSync(runsFile)) return [];
  return fs
    .readFileSync(runsFile, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => JSON.parse(line) as TimedRun);
}
