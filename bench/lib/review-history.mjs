/**
 * The review-cost scenario's pull requests, replayed from this repository's own history (its
 * first-parent line up to `HISTORY_HEAD`, which every clone has): each pull request opens on one
 * commit and is pushed one to five times with the commits that followed, so the diffs, lockfile
 * changes and large merges are real ones, and no network is needed.
 */
import { execFileSync } from 'node:child_process';
import { repoRoot } from './payload.mjs';

/** The newest commit the data is taken from: fixed, so every run reviews the same changes. */
export const HISTORY_HEAD = 'c1b8cf7bed5f72b1572a1f606890ab3931bfacf2';

/** @param {string[]} args */
export function git(args) {
  return execFileSync('git', args, {
    cwd: repoRoot,
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
    // git's complaint about a path missing at a commit is an expected 404, not noise for the run.
    stdio: 'pipe',
  });
}

/**
 * @typedef {{ number: number, title: string, base: string, pushes: string[] }} ReplayedPull
 */

/**
 * `count` pull requests from the history's newest commits, oldest first: the i-th has
 * 1 + (i mod 5) pushes. Throws when the data lacks a large change (over 100 files or a lockfile
 * change), which the scenario must include.
 * @param {number} count
 * @returns {ReplayedPull[]}
 */
export function replayedPulls(count) {
  const pushesOf = (/** @type {number} */ i) => 1 + (i % 5);
  let needed = 0;
  for (let i = 0; i < count; i++) needed += pushesOf(i) + 1;
  const line = git(['rev-list', '--first-parent', '--reverse', HISTORY_HEAD]).trim().split('\n');
  if (line.length < needed) {
    throw new Error(
      `the history has ${line.length} commits; ${count} pull requests need ${needed}`,
    );
  }
  const commits = line.slice(line.length - needed);
  /** @type {ReplayedPull[]} */
  const pulls = [];
  let at = 0;
  for (let i = 0; i < count; i++) {
    const base = /** @type {string} */ (commits[at]);
    const pushes = commits.slice(at + 1, at + 1 + pushesOf(i));
    at += pushesOf(i) + 1;
    const title = git(['log', '-1', '--format=%s', /** @type {string} */ (pushes[0])]).trim();
    pulls.push({ number: i + 1, title: title.slice(0, 120), base, pushes });
  }
  const large = pulls.some((pull) => {
    const files = git([
      'diff',
      '--name-only',
      pull.base,
      /** @type {string} */ (pull.pushes.at(-1)),
    ])
      .trim()
      .split('\n');
    return files.length > 100 || files.some((file) => file.endsWith('package-lock.json'));
  });
  if (!large) throw new Error('no replayed pull request changes over 100 files or a lockfile');
  return pulls;
}
