/**
 * A small real git repository in a temp dir, for the fake Gitea to serve a pull request's diff
 * and files at a commit from (as deliver-forge-comment's fakes do, whose helper is not exported).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Files to write, or delete (`null`), relative to the repository's root. */
type FileChanges = Record<string, string | null>;

export interface GitRepository {
  dir: string;
  /** Commits `changes` on `parent` (none: a first commit); the new commit's SHA. */
  commit(parent: string | undefined, changes: FileChanges): string;
  cleanup(): void;
}

/** Runs git in `dir`; its stdout. */
function git(dir: string, args: readonly string[]): string {
  return execFileSync('git', ['-C', dir, ...args], {
    encoding: 'utf8',
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

export function createGitRepository(): GitRepository {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-gitea-repo-'));
  git(dir, ['init', '-q', '-b', 'main']);
  return {
    dir,
    commit(parent, changes) {
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
      git(dir, ['commit', '-q', '--allow-empty', '-m', 'change']);
      return git(dir, ['rev-parse', 'HEAD']).trim();
    },
    cleanup() {
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** `git diff base...head`: from their merge base, as Gitea diffs a pull request. */
export function diffBetween(dir: string, base: string, head: string): string {
  return git(dir, ['diff', '--no-renames', `${base}...${head}`]);
}

/** The file at `sha`, or undefined when it does not exist there (or `sha` is no commit). */
export function fileAt(dir: string, sha: string, file: string): string | undefined {
  try {
    return git(dir, ['show', `${sha}:${file}`]);
  } catch {
    return undefined;
  }
}
