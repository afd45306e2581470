import { describe, expect, it } from 'vitest';
import {
  addedLinesByPath,
  bodyWithMovedComments,
  commentableLines,
  diffLinesByPath,
  splitByDiff,
} from './review-lines.js';

describe('commentableLines', () => {
  it('gives the added and context lines of the new file, across hunks, never deleted ones', () => {
    const patch = '@@ -1,4 +1,4 @@\n a\n+b\n c\n-gone\n d\n@@ -10,1 +11,2 @@\n ten\n+eleven';
    expect([...commentableLines(patch)]).toEqual([1, 2, 3, 4, 11, 12]);
  });

  it('gives none for a file without a patch (binary, too large)', () => {
    expect(commentableLines('').size).toBe(0);
  });
});

describe('diffLinesByPath', () => {
  it("gives each file's shown new-file lines by its new path, none for a deleted file", () => {
    const diff = [
      'diff --git a/old.ts b/src/new.ts',
      'similarity index 90%',
      'rename from old.ts',
      'rename to src/new.ts',
      '--- a/old.ts',
      '+++ b/src/new.ts',
      '@@ -1,2 +1,3 @@',
      ' a',
      '+b',
      ' c',
      'diff --git a/gone.ts b/gone.ts',
      'deleted file mode 100644',
      '--- a/gone.ts',
      '+++ /dev/null',
      '@@ -1 +0,0 @@',
      '-x',
      '',
    ].join('\n');
    const lines = diffLinesByPath(diff);
    expect([...lines.keys()]).toEqual(['src/new.ts']);
    expect([...(lines.get('src/new.ts') ?? [])]).toEqual([1, 2, 3]);
  });
});

describe('addedLinesByPath', () => {
  it("gives each file's added new-file lines, not its context lines", () => {
    const diff = [
      'diff --git a/src/a.ts b/src/a.ts',
      '--- a/src/a.ts',
      '+++ b/src/a.ts',
      '@@ -1,3 +1,3 @@',
      ' a',
      '-b',
      '+B',
      ' c',
      '@@ -10,1 +10,2 @@',
      ' ten',
      '+eleven',
      '',
    ].join('\n');
    expect([...(addedLinesByPath(diff).get('src/a.ts') ?? [])]).toEqual([2, 11]);
  });
});

describe('splitByDiff', () => {
  it('keeps the order of the comments on each side', () => {
    const diff = new Map([['a.ts', new Set([1, 2])]]);
    const comments = [
      { path: 'a.ts', line: 2, body: 'in' },
      { path: 'a.ts', line: 3, body: 'out' },
      { path: 'b.ts', line: 1, body: 'other file' },
      { path: 'a.ts', line: 1, body: 'in too' },
    ];
    expect(splitByDiff(comments, diff)).toEqual({
      inDiff: [comments[0], comments[3]],
      outside: [comments[1], comments[2]],
    });
  });
});

describe('bodyWithMovedComments', () => {
  it('lists the moved comments with path and line under the summary', () => {
    expect(bodyWithMovedComments('Summary.\n', [{ path: 'a.ts', line: 3, body: 'why?' }])).toBe(
      'Summary.\n\n**Comments on lines this diff does not show**\n\n- `a.ts:3` — why?',
    );
  });

  it('is the summary alone when nothing was moved', () => {
    expect(bodyWithMovedComments('Summary.', [])).toBe('Summary.');
  });
});
