/**
 * Real diffs for the tests, made by git from this repository's own history (a clone has it), so
 * pruning is tried on what forges really send: lockfiles, renames, binaries, hundreds of files.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

function git(args: string[]): string {
  return execFileSync('git', args, {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
}

/** A round of work: 235 files, package-lock.json among them (issue 28's first green steps). */
export const BIG_CHANGE = { base: '0c3b7b2', head: '7ea1a57' } as const;
/** A screenshot script change with a PNG: one binary file. */
export const BINARY_CHANGE = { base: '42712d8~1', head: '42712d8' } as const;
/** Messenger and SMS moved to target-kit: files renamed. */
export const RENAME_CHANGE = { base: '36b9ead~1', head: '36b9ead' } as const;

/** `git diff base head`, as `gh pr diff` gives it (renames found, as GitHub finds them). */
export function repoDiff(change: { base: string; head: string }): string {
  return git(['diff', '-M', change.base, change.head]);
}

export interface NumstatLine {
  path: string;
  /** undefined for a binary file. */
  additions: number | undefined;
  deletions: number | undefined;
}

/** `git diff --numstat` of the same change: git's own count of each file's lines. */
export function repoNumstat(change: { base: string; head: string }): NumstatLine[] {
  return git(['diff', '-M', '--numstat', change.base, change.head])
    .trim()
    .split('\n')
    .map((line) => {
      const [added = '', deleted = '', ...rest] = line.split('\t');
      const file = rest.join('\t');
      // A rename reads `dir/{old => new}/x` or `old => new`: the new path is the one a diff names.
      const renamed = file
        .replace(/\{[^{}]* => ([^{}]*)\}/, '$1')
        .replace(/^.* => /, '')
        .replace(/\/\//g, '/');
      return {
        path: renamed,
        additions: added === '-' ? undefined : Number(added),
        deletions: deleted === '-' ? undefined : Number(deleted),
      };
    });
}
