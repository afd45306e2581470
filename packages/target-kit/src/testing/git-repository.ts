/**
 * A small real git repository in a temp dir, for fakes of forges to serve diffs, compares and
 * files from (each as its forge reads git): each commit is made on a parent with some files written or deleted, so a test
 * builds a base and heads that differ where it needs (a rules file changed on the head only).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Files to write (text or bytes), or delete (`null`), relative to the repository's root. */
type FileChanges = Record<string, string | Buffer | null>;

export interface GitRepository {
  dir: string;
  /** Commits `changes` on `parent` (none: a first commit); the new commit's SHA. */
  commit(parent: string | undefined, changes: FileChanges, message?: string): string;
  cleanup(): void;
}

/** Runs git in `dir`; its stdout. */
function git(dir: string, args: readonly string[]): string {
  return execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    env: {
      ...process.env,
      GIT_AUTHOR_NAME: 'Test',
      GIT_AUTHOR_EMAIL: 'test@example.invalid',
      GIT_COMMITTER_NAME: 'Test',
      GIT_COMMITTER_EMAIL: 'test@example.invalid',
      GIT_CONFIG_NOSYSTEM: '1',
      HOME: os.tmpdir(),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
}

/**
 * Makes an empty repository (branch `main`).
 *
 * @example
 * const repository = createGitRepository();
 * const base = repository.commit(undefined, { 'README.md': 'hello\n' });
 * const head = repository.commit(base, { 'src/app.ts': 'export {};\n' });
 */
export function createGitRepository(): GitRepository {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-git-repo-'));
  git(dir, ['init', '-q', '-b', 'main']);
  return {
    dir,
    commit(parent, changes, message = 'change') {
      if (parent !== undefined) git(dir, ['checkout', '-q', '--detach', parent]);
      for (const [file, content] of Object.entries(changes)) {
        const target = path.join(dir, file);
        if (content === null) fs.rmSync(target, { force: true });
        else {
          fs.mkdirSync(path.dirname(target), { recursive: true });
          fs.writeFileSync(target, content);
        }
      }
      git(dir, ['add', '-A']);
      git(dir, ['commit', '-q', '--allow-empty', '-m', message]);
      return git(dir, ['rev-parse', 'HEAD']).trim();
    },
    cleanup() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A changed file as a forge lists it: its status, and its hunks without git's header. */
interface ChangedFile {
  path: string;
  status: 'added' | 'removed' | 'modified';
  /** The hunks (from the first `@@`), or undefined for a binary file. */
  patch: string | undefined;
  additions: number;
  deletions: number;
}

/** `git diff from...to` (from their merge base, as the forges diff a request). */
export function diffBetween(dir: string, from: string, to: string): string {
  return git(dir, ['diff', '--no-renames', `${from}...${to}`]);
}

/** The files of `git diff from...to`, each with its patch as the files endpoints give it. */
export function changedFiles(dir: string, from: string, to: string): ChangedFile[] {
  const statuses = git(dir, ['diff', '--no-renames', '--name-status', `${from}...${to}`]);
  return statuses
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => {
      const [status = 'M', file = ''] = line.split('\t');
      const section = git(dir, ['diff', '--no-renames', `${from}...${to}`, '--', file]);
      const start = section.search(/^@@/m);
      const binary = start < 0 && /^Binary files /m.test(section);
      const patch = start < 0 ? (binary ? undefined : '') : section.slice(start).replace(/\n$/, '');
      const lines = (patch ?? '').split('\n');
      return {
        path: file,
        status: status === 'A' ? 'added' : status === 'D' ? 'removed' : 'modified',
        patch,
        additions: lines.filter((l) => l.startsWith('+')).length,
        deletions: lines.filter((l) => l.startsWith('-')).length,
      };
    });
}

/** The file at `sha`, or undefined when it does not exist there. */
export function fileAt(dir: string, sha: string, file: string): string | undefined {
  try {
    return git(dir, ['show', `${sha}:${file}`]);
  } catch {
    return undefined;
  }
}

/** True when `sha` is a commit of the repository. */
export function hasCommit(dir: string, sha: string): boolean {
  try {
    git(dir, ['cat-file', '-e', `${sha}^{commit}`]);
    return true;
  } catch {
    return false;
  }
}
