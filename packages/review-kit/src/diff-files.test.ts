import { describe, expect, it } from 'vitest';
import { fileFromPatch, renderDiff, splitDiff } from './diff-files.js';
import {
  BIG_CHANGE,
  BINARY_CHANGE,
  RENAME_CHANGE,
  repoDiff,
  repoNumstat,
} from './test-support/repo-diffs.js';

describe('splitDiff on real diffs', () => {
  it('finds every file git counts, with git’s own line counts, and puts the diff back byte for byte', () => {
    const diff = repoDiff(BIG_CHANGE);
    const files = splitDiff(diff);
    const numstat = repoNumstat(BIG_CHANGE);
    expect(files.map((file) => file.path)).toEqual(numstat.map((line) => line.path));
    expect(files.map((f) => [f.additions, f.deletions])).toEqual(
      numstat.map((line) => [line.additions ?? 0, line.deletions ?? 0]),
    );
    expect(renderDiff(files)).toBe(diff);
  });

  it('marks exactly the files git calls binary', () => {
    const files = splitDiff(repoDiff(BINARY_CHANGE));
    const binaryByGit = repoNumstat(BINARY_CHANGE)
      .filter((line) => line.additions === undefined)
      .map((line) => line.path);
    expect(binaryByGit).toEqual(['docs/images/dashboard-deliveries-tokens.png']);
    expect(files.filter((file) => file.binary).map((file) => file.path)).toEqual(binaryByGit);
  });

  it('reads renames: the new path, and the old one beside it', () => {
    const files = splitDiff(repoDiff(RENAME_CHANGE));
    const renamed = files.filter((file) => file.oldPath !== undefined);
    expect(renamed.length).toBeGreaterThan(0);
    for (const file of renamed) expect(file.oldPath).not.toBe(file.path);
    expect(files.map((f) => f.path)).toEqual(repoNumstat(RENAME_CHANGE).map((l) => l.path));
  });
});

describe('splitDiff on small diffs', () => {
  it('reads added and deleted files, and a file with no newline at its end', () => {
    const diff = [
      'diff --git a/new.txt b/new.txt',
      'new file mode 100644',
      'index 0000000..1111111',
      '--- /dev/null',
      '+++ b/new.txt',
      '@@ -0,0 +1,2 @@',
      '+one',
      '+two',
      'diff --git a/old.txt b/old.txt',
      'deleted file mode 100644',
      '--- a/old.txt',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-gone',
      '\\ No newline at end of file',
      '',
    ].join('\n');
    const [added, deleted] = splitDiff(diff);
    expect(added).toMatchObject({ path: 'new.txt', added: true, additions: 2, deletions: 0 });
    expect(deleted).toMatchObject({ path: 'old.txt', deleted: true, additions: 0, deletions: 1 });
    expect(renderDiff(splitDiff(diff))).toBe(diff);
  });

  it('fileFromPatch makes a file of a forge API’s header-less patch', () => {
    const file = fileFromPatch({ path: 'src/a.ts', patch: '@@ -1 +1 @@\n-a\n+b' });
    expect(file).toMatchObject({ path: 'src/a.ts', additions: 1, deletions: 1, binary: false });
    expect(file.hunks).toHaveLength(1);
    const binary = fileFromPatch({ path: 'logo.png', patch: undefined });
    expect(binary.binary).toBe(true);
  });
});
