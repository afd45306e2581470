/**
 * A fake `glab` that keeps a merge request's discussions and notes as state, for `altforge_review`:
 * a real executable (a node script) on PATH. `glab api projects/<path>/merge_requests/<iid>`
 * answers the merge request with its `diff_refs`; `glab api --method POST …/discussions --input -`
 * refuses a text position the diff does not show with the altforge's 400, as the real API does;
 * `glab mr note <iid> --repo <path>` keeps the note read from stdin. A wrong GITLAB_TOKEN is a 401.
 * Each discussion is kept as a thread too: listed (`…/discussions?per_page=100`) with its notes'
 * authors, award emoji per note, resolved with `PUT …/discussions/<id>?resolved=true`; the test
 * replies, awards 👎 and resolves as a person. The head's files are served raw.
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
  /** The files at the head commit, by path (`repository/files/<path>/raw?ref=<head_sha>`). */
  files?: Record<string, string>;
}

/** A note of a discussion thread, as the altforge lists it. */
interface FakeNote {
  id: number;
  body: string;
  author: string;
  /** Award emoji names (`thumbsdown`) given by people. */
  awards: string[];
}

/** A discussion as a thread: its notes, and whether (and by whom) it was resolved. */
interface FakeDiscussionThread {
  id: string;
  resolved: boolean;
  resolvedBy?: string;
  notes: FakeNote[];
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
  /** Every discussion as a thread, the gateway's and people's, oldest first. */
  threads: FakeDiscussionThread[];
  /** How many of the next `PUT …/discussions/<id>?resolved=true` calls fail. */
  failResolve: number;
}

/** The account the fake's token belongs to (`glab api user`). */
const TOKEN_USER = 'gateway-bot';

export interface FakeGlabReviews {
  /** Absolute path of the executable: set it as `platforms.altforge.cli`. */
  path: string;
  token: string;
  state(): FakeMergeRequestState;
  /** Changes the merge request: a push with new files or diff lines, say. */
  update(change: Partial<FakeMergeRequest>): void;
  /** A person's reply in a discussion (`/dismiss`, say). */
  reply(discussionId: string, body: string): void;
  /** A person's award emoji on a discussion's first note (`thumbsdown`). */
  award(discussionId: string, name: string): void;
  /** A person resolves a discussion. */
  resolveAsPerson(discussionId: string): void;
  /** A person's own discussion (a forged marker in it, say); its id. */
  personDiscussion(body: string): string;
  /** The next `count` resolutions fail. */
  failResolve(count: number): void;
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
    const id = 'd' + (state.threads.length + 1);
    state.threads.push({ id, resolved: false, notes: [{ id: 100 + state.threads.length, body: discussion.body, author: ${JSON.stringify(TOKEN_USER)}, awards: [] }] });
    save();
    return process.stdout.write(JSON.stringify({ id }));
  }
  if (argv.join(' ') === 'api user') {
    return process.stdout.write(JSON.stringify({ username: ${JSON.stringify(TOKEN_USER)} }));
  }
  if (argv[0] === 'api' && argv[1] === api + '/discussions?per_page=100' && argv.length === 2) {
    return process.stdout.write(JSON.stringify(state.threads.map((t) => ({
      id: t.id,
      individual_note: false,
      notes: t.notes.map((n) => ({ id: n.id, body: n.body, author: { username: n.author }, resolvable: true, resolved: t.resolved })),
    }))));
  }
  const awards = /^projects\\/[^/]+\\/merge_requests\\/\\d+\\/notes\\/(\\d+)\\/award_emoji$/.exec(argv[1] || '');
  if (argv[0] === 'api' && awards && argv.length === 2) {
    const note = state.threads.flatMap((t) => t.notes).find((n) => String(n.id) === awards[1]);
    if (!note) return fail('glab: 404 Not Found (HTTP 404)');
    return process.stdout.write(JSON.stringify(note.awards.map((name) => ({ name, user: { username: 'octo-reviewer' } }))));
  }
  const resolve = /^api --method PUT (\\S+)\\/discussions\\/(\\S+)\\?resolved=true$/.exec(argv.join(' '));
  if (resolve && resolve[1] === api) {
    const thread = state.threads.find((t) => t.id === resolve[2]);
    if (!thread) return fail('glab: 404 Not Found (HTTP 404)');
    if (state.failResolve > 0) {
      state.failResolve--;
      save();
      return fail('glab: 500 Internal Server Error (HTTP 500)');
    }
    thread.resolved = true;
    thread.resolvedBy = ${JSON.stringify(TOKEN_USER)};
    save();
    return process.stdout.write(JSON.stringify({ id: thread.id, notes: [] }));
  }
  const raw = /^projects\\/[^/]+\\/repository\\/files\\/([^/]+)\\/raw\\?ref=(.+)$/.exec(argv[1] || '');
  if (argv[0] === 'api' && raw && argv.length === 2) {
    const file = (mr.files || {})[decodeURIComponent(raw[1])];
    if (file === undefined || raw[2] !== mr.diffRefs.head_sha) return fail('glab: 404 Not Found (HTTP 404)');
    return process.stdout.write(file);
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
    JSON.stringify({ discussions: [], notes: [], statuses: [], threads: [], failResolve: 0 }),
  );
  const read = (name: string): string => fs.readFileSync(path.join(dir, name), 'utf8');
  const state = () => JSON.parse(read('state.json')) as FakeMergeRequestState;
  /** Changes the kept state as a person on the altforge would. */
  const change = (edit: (state: FakeMergeRequestState) => void): void => {
    const current = state();
    edit(current);
    fs.writeFileSync(path.join(dir, 'state.json'), JSON.stringify(current));
  };
  const thread = (current: FakeMergeRequestState, id: string): FakeDiscussionThread => {
    const found = current.threads.find((t) => t.id === id);
    if (!found) throw new Error(`no discussion ${id}`);
    return found;
  };
  let nextNote = 10_000;
  return {
    path: file,
    token: 'fake-altforge-token',
    state,
    update(edit) {
      const current = JSON.parse(read('merge-request.json')) as FakeMergeRequest;
      fs.writeFileSync(
        path.join(dir, 'merge-request.json'),
        JSON.stringify({ ...current, ...edit }),
      );
    },
    reply: (id, body) =>
      change((current) =>
        thread(current, id).notes.push({
          id: nextNote++,
          body,
          author: 'octo-reviewer',
          awards: [],
        }),
      ),
    award: (id, name) => change((current) => thread(current, id).notes[0]?.awards.push(name)),
    resolveAsPerson: (id) =>
      change((current) =>
        Object.assign(thread(current, id), { resolved: true, resolvedBy: 'octo-reviewer' }),
      ),
    personDiscussion(body) {
      const id = `p${nextNote}`;
      change((current) =>
        current.threads.push({
          id,
          resolved: false,
          notes: [{ id: nextNote++, body, author: 'octo-reviewer', awards: [] }],
        }),
      );
      return id;
    },
    failResolve: (count) => change((current) => (current.failResolve = count)),
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
