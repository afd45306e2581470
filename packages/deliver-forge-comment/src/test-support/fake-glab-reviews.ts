/**
 * A fake `glab` that keeps a merge request's discussions and notes as state, for `altforge_review`:
 * a real executable (a node script) on PATH. `glab api projects/<path>/merge_requests/<iid>`
 * answers the merge request with its `diff_refs`; `glab api --method POST …/discussions --input -`
 * refuses a text position the diff does not show with the altforge's 400, as the real API does;
 * `glab mr note <iid> --repo <path>` keeps the note read from stdin. A wrong GITLAB_TOKEN is a 401.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

export interface FakeMergeRequest {
  /** `group/project`. */
  path: string;
  iid: number;
  diffRefs: { base_sha: string; start_sha: string; head_sha: string };
  /** The new-file lines the diff shows, per path: where a discussion may sit. */
  lines: Record<string, number[]>;
}

/** A commit status as `POST projects/:id/statuses/:sha` kept it. */
interface FakeCommitStatus {
  sha: string;
  state: string;
  name: string;
  description?: string;
  target_url?: string;
}

/** What the fake keeps of one merge request. */
interface FakeMergeRequestState {
  discussions: { body: string; position: Record<string, unknown> }[];
  notes: string[];
  /** Commit statuses of the project, oldest first. */
  statuses: FakeCommitStatus[];
}

export interface FakeGlabReviews {
  /** Absolute path of the executable: set it as `platforms.altforge.cli`. */
  path: string;
  token: string;
  state(): FakeMergeRequestState;
  /** Every call's argv, in order. */
  calls(): string[][];
  cleanup(): void;
}

function script(dir: string): string {
  // Plain JS run by this same node binary, so the fake needs nothing from PATH.
  return `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const dir = ${JSON.stringify(dir)};
const read = (name) => JSON.parse(fs.readFileSync(path.join(dir, name), 'utf8'));
const chunks = [];
process.stdin.on('data', (chunk) => chunks.push(chunk));
process.stdin.on('end', () => {
  const argv = process.argv.slice(2);
  fs.appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify(argv) + '\\n');
  const stdin = Buffer.concat(chunks).toString('utf8');
  const mr = read('merge-request.json');
  const state = read('state.json');
  const save = () => fs.writeFileSync(path.join(dir, 'state.json'), JSON.stringify(state));
  const fail = (text) => { process.stderr.write(text + '\\n'); process.exitCode = 1; };
  if (process.env.GITLAB_TOKEN !== ${JSON.stringify('fake-altforge-token')}) {
    return fail('glab: 401 Unauthorized (HTTP 401)');
  }
  const api = 'projects/' + encodeURIComponent(mr.path) + '/merge_requests/' + mr.iid;
  if (argv[0] === 'mr' && argv[1] === 'note' && argv[2] === String(mr.iid) && argv[4] === mr.path) {
    state.notes.push(stdin);
    save();
    return process.stdout.write('https://altforge.example/note/' + state.notes.length + '\\n');
  }
  if (argv[0] === 'api' && argv[1] === api && argv.length === 2) {
    return process.stdout.write(
      JSON.stringify({ iid: mr.iid, sha: mr.diffRefs.head_sha, diff_refs: mr.diffRefs }),
    );
  }
  const statusPrefix = 'api --method POST projects/' + encodeURIComponent(mr.path) + '/statuses/';
  const statusSuffix = ' --header Content-Type: application/json --input -';
  const call = argv.join(' ');
  if (call.startsWith(statusPrefix) && call.endsWith(statusSuffix)) {
    const sha = call.slice(statusPrefix.length, call.length - statusSuffix.length);
    const status = JSON.parse(stdin);
    const states = ['pending', 'running', 'success', 'failed', 'canceled'];
    if (!states.includes(status.state) || typeof status.name !== 'string') {
      return fail('glab: 400 Bad request - state is invalid (HTTP 400)');
    }
    state.statuses.push({ sha, ...status });
    save();
    return process.stdout.write(JSON.stringify({ id: state.statuses.length, status: status.state }));
  }
  const discussions = argv.join(' ') ===
    'api --method POST ' + api + '/discussions --header Content-Type: application/json --input -';
  if (discussions) {
    const discussion = JSON.parse(stdin);
    const p = discussion.position || {};
    const refsMatch = ['base_sha', 'start_sha', 'head_sha'].every((key) => p[key] === mr.diffRefs[key]);
    const shown = (mr.lines[p.new_path] || []).includes(p.new_line);
    if (typeof discussion.body !== 'string' || p.position_type !== 'text' || !refsMatch || !shown) {
      return fail('glab: 400 Bad request - Note {:line_code=>["can\\'t be blank", "must be a valid line code"]} (HTTP 400)');
    }
    state.discussions.push(discussion);
    save();
    return process.stdout.write(JSON.stringify({ id: 'd' + state.discussions.length }));
  }
  fail('glab: 404 Not Found (HTTP 404): unexpected call ' + argv.join(' '));
});
`;
}

/** Creates the fake for one merge request, in a new temp dir. */
export function createFakeGlabReviews(mergeRequest: FakeMergeRequest): FakeGlabReviews {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-fake-glab-'));
  const file = path.join(dir, 'glab');
  fs.writeFileSync(file, script(dir), { mode: 0o755 });
  fs.writeFileSync(path.join(dir, 'merge-request.json'), JSON.stringify(mergeRequest));
  fs.writeFileSync(
    path.join(dir, 'state.json'),
    JSON.stringify({ discussions: [], notes: [], statuses: [] }),
  );
  const read = (name: string): string => fs.readFileSync(path.join(dir, name), 'utf8');
  return {
    path: file,
    token: 'fake-altforge-token',
    state: () => JSON.parse(read('state.json')) as FakeMergeRequestState,
    calls: () =>
      fs.existsSync(path.join(dir, 'calls.jsonl'))
        ? read('calls.jsonl')
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line) as string[])
        : [],
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
