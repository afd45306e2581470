/**
 * A fake `glab` that answers the review context's `glab api` reads from a real git repository
 * (`git-repository.ts`), as the altforge's REST v4 does: the merge request with its `diff_refs`,
 * its diffs page by page (`page`, `per_page` up to 100), a compare
 * (`from`, `to`: unknown commits are a 404), and a file's raw text at a ref (a missing file is
 * `404 File Not Found`). A wrong GITLAB_TOKEN is a 401. Every call's argv is recorded.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** The merge request the fake serves. */
export interface FakeGlabMergeRequest {
  /** `group/project`. */
  path: string;
  iid: number;
  /** The git repository's directory. */
  gitDir: string;
  base: string;
  head: string;
  title?: string;
  draft?: boolean;
  labels?: string[];
  author?: string;
}

export interface FakeGlabRepository {
  /** Absolute path of the executable: set it as `platforms.altforge.cli`. */
  path: string;
  token: string;
  /** Replaces the merge request served (a new push). */
  setMergeRequest(mergeRequest: FakeGlabMergeRequest): void;
  /** Every call's argv, in order. */
  calls(): string[][];
  cleanup(): void;
}

const TOKEN = 'fake-altforge-review-token';

function script(dir: string): string {
  // Plain JS run by this same node binary, so the fake needs nothing from PATH but git.
  return `#!${process.execPath}
const fs = require('node:fs');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const dir = ${JSON.stringify(dir)};
const argv = process.argv.slice(2);
fs.appendFileSync(path.join(dir, 'calls.jsonl'), JSON.stringify(argv) + '\\n');
const mr = JSON.parse(fs.readFileSync(path.join(dir, 'merge-request.json'), 'utf8'));
const fail = (status, text) => {
  process.stderr.write('glab: ' + status + ' ' + text + ' (HTTP ' + status + ')\\n');
  process.exitCode = 1;
};
const git = (args) => execFileSync('git', ['-C', mr.gitDir, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
const isCommit = (sha) => { try { git(['cat-file', '-e', sha + '^{commit}']); return true; } catch { return false; } };
/** The altforge's diff items of from...to: hunks without git's header, and what changed. */
const diffs = (from, to) => git(['diff', '--no-renames', '--name-status', from + '...' + to])
  .split('\\n').filter((line) => line !== '').map((line) => {
    const [status, file] = line.split('\\t');
    const section = git(['diff', '--no-renames', from + '...' + to, '--', file]);
    const start = section.search(/^@@/m);
    const binary = start < 0 && /^Binary files /m.test(section);
    return {
      old_path: file, new_path: file, a_mode: '100644', b_mode: '100644',
      new_file: status === 'A', renamed_file: false, deleted_file: status === 'D',
      diff: binary ? 'Binary files a/' + file + ' and b/' + file + ' differ\\n' : start < 0 ? '' : section.slice(start),
    };
  });
const write = (value) => process.stdout.write(typeof value === 'string' ? value : JSON.stringify(value));
if (process.env.GITLAB_TOKEN !== ${JSON.stringify(TOKEN)}) {
  fail(401, 'Unauthorized');
} else if (argv[0] !== 'api' || argv.length !== 2) {
  fail(400, 'the fake knows only "glab api <endpoint>"');
} else {
  const url = new URL(argv[1], 'https://altforge.invalid/api/v4/');
  const project = 'projects/' + encodeURIComponent(mr.path);
  const route = decodeURI(url.pathname.replace(/^\\/api\\/v4\\//, ''));
  const mrPath = project + '/merge_requests/' + mr.iid;
  const files = /^projects\\/[^/]+\\/repository\\/files\\/(.+)\\/raw$/.exec(url.pathname.replace(/^\\/api\\/v4\\//, ''));
  if (route === decodeURI(mrPath)) {
    write({
      iid: mr.iid, title: mr.title || 'A change', draft: mr.draft === true, work_in_progress: mr.draft === true,
      labels: mr.labels || [], author: { username: mr.author || 'root' }, sha: mr.head,
      diff_refs: { base_sha: mr.base, start_sha: mr.base, head_sha: mr.head },
    });
  } else if (route === decodeURI(mrPath + '/diffs')) {
    const perPage = Math.min(Number(url.searchParams.get('per_page') || 20), 100);
    const page = Number(url.searchParams.get('page') || 1);
    write(diffs(mr.base, mr.head).slice((page - 1) * perPage, page * perPage));
  } else if (route === decodeURI(project + '/repository/compare')) {
    const from = url.searchParams.get('from');
    const to = url.searchParams.get('to');
    if (!isCommit(from) || !isCommit(to)) fail(404, 'Not Found');
    else write({ commits: [], diffs: diffs(from, to), compare_timeout: false, compare_same_ref: from === to });
  } else if (files && url.pathname.includes(project + '/repository/files/')) {
    const file = decodeURIComponent(files[1]);
    try {
      write(git(['show', url.searchParams.get('ref') + ':' + file]));
    } catch {
      fail(404, 'File Not Found');
    }
  } else {
    fail(404, 'Not Found');
  }
}
`;
}

/** Creates the fake for `mergeRequest`, in a new temp dir. */
export function createFakeGlabRepository(mergeRequest: FakeGlabMergeRequest): FakeGlabRepository {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-fake-glab-repo-'));
  const file = path.join(dir, 'glab');
  fs.writeFileSync(file, script(dir), { mode: 0o755 });
  const setMergeRequest = (value: FakeGlabMergeRequest) =>
    fs.writeFileSync(path.join(dir, 'merge-request.json'), JSON.stringify(value));
  setMergeRequest(mergeRequest);
  const calls = path.join(dir, 'calls.jsonl');
  return {
    path: file,
    token: TOKEN,
    setMergeRequest,
    calls: () =>
      fs.existsSync(calls)
        ? fs
            .readFileSync(calls, 'utf8')
            .split('\n')
            .filter((line) => line !== '')
            .map((line) => JSON.parse(line) as string[])
        : [],
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
