/**
 * A fake `gh` / `glab`: a real executable (a node script) in a temp dir that records each call's
 * argv, stdin and credential variables, and answers as a control file tells it: succeed, fail
 * like the real CLI (exit code and stderr), or hang.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The environment variables the fake records (the only ones tests look at). */
export const RECORDED_ENV = [
  'GH_TOKEN',
  'GH_HOST',
  'GH_ENTERPRISE_TOKEN',
  'GITLAB_TOKEN',
  'GITLAB_HOST',
] as const;

interface RecordedCall {
  argv: string[];
  stdin: string;
  env: Partial<Record<(typeof RECORDED_ENV)[number], string>>;
}

/** What the fake does on its next calls. */
type FakeBehaviour =
  | { mode: 'ok'; stdout?: string }
  /** Exits with `exitCode` and `stderr`; with `onCall`, only that call (1-based) fails. */
  | { mode: 'fail'; exitCode: number; stderr: string; onCall?: number }
  | { mode: 'hang' };

export interface FakeCli {
  /** Absolute path of the executable: set it as `platforms.<platform>.cli`. */
  path: string;
  /** The temp dir holding it: put it first on PATH to use it as plain `gh`. */
  dir: string;
  behave(behaviour: FakeBehaviour): void;
  calls(): RecordedCall[];
  cleanup(): void;
}

/** gh's real stderr texts, for the failure cases. */
export const GH_STDERR = {
  notLoggedIn:
    'To get started with GitHub CLI, please run:  gh auth login\nAlternatively, populate the GH_TOKEN environment variable with a GitHub API authentication token.\n',
  badCredentials: 'HTTP 401: Bad credentials (https://api.github.com/graphql)\n',
  repoNotFound: "GraphQL: Could not resolve to a Repository with the name 'o/r'. (repository)\n",
  prNotFound:
    'GraphQL: Could not resolve to a PullRequest with the number of 9999. (repository.pullRequest)\n',
} as const;

function script(dir: string): string {
  // Plain JS run by this same node binary, so the fake needs nothing from PATH.
  return `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const dir = ${JSON.stringify(dir)};
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  const env = {};
  for (const name of ${JSON.stringify(RECORDED_ENV)}) {
    if (process.env[name] !== undefined) env[name] = process.env[name];
  }
  const call = { argv: process.argv.slice(2), stdin: Buffer.concat(chunks).toString('utf8'), env };
  fs.appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify(call) + '\\n');
  const count = fs.readFileSync(path.join(dir, 'calls.jsonl'), 'utf8').trim().split('\\n').length;
  const behaviour = JSON.parse(fs.readFileSync(path.join(dir, 'control.json'), 'utf8'));
  if (behaviour.mode === 'hang') {
    setInterval(() => {}, 60000);
    return;
  }
  if (behaviour.mode === 'fail' && (behaviour.onCall === undefined || behaviour.onCall === count)) {
    process.stderr.write(behaviour.stderr);
    process.exitCode = behaviour.exitCode;
    return;
  }
  process.stdout.write(behaviour.stdout ?? 'https://forge.example/comment/' + count + '\\n');
});
`;
}

/** Creates a fake CLI named `name` (`gh`, `glab`) in a new temp dir; it succeeds until told otherwise. */
export function createFakeCli(name: string): FakeCli {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-fake-cli-'));
  const file = path.join(dir, name);
  fs.writeFileSync(file, script(dir), { mode: 0o755 });
  const control = path.join(dir, 'control.json');
  const calls = path.join(dir, 'calls.jsonl');
  const behave = (behaviour: FakeBehaviour) => fs.writeFileSync(control, JSON.stringify(behaviour));
  behave({ mode: 'ok' });
  return {
    path: file,
    dir,
    behave,
    calls() {
      if (!fs.existsSync(calls)) return [];
      return fs
        .readFileSync(calls, 'utf8')
        .split('\n')
        .filter((line) => line !== '')
        .map((line) => JSON.parse(line) as RecordedCall);
    },
    cleanup() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
