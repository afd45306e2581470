import { describe, expect, it } from 'vitest';
import { fileFromPatch, renderFile, splitDiff, type DiffFile } from './diff-files.js';
import { fileKind, markedPaths } from './file-kind.js';
import { pruneDiff } from './prune.js';
import { countTokens } from './tokens.js';
import { BIG_CHANGE, BINARY_CHANGE, repoDiff } from './test-support/repo-diffs.js';

function lines(prefix: string, count: number, word: string): string {
  return Array.from({ length: count }, (_, i) => `${prefix}${word} line ${i}`).join('\n');
}

/** A file adding `count` lines. */
function addition(path: string, count: number): DiffFile {
  return fileFromPatch({ path, patch: `@@ -1,0 +1,${count} @@\n${lines('+', count, path)}` });
}

describe('pruneDiff on a real 235-file change', () => {
  const files = splitDiff(repoDiff(BIG_CHANGE));
  const budget = 24_000;
  const pruned = pruneDiff(files, { maxTokens: budget });

  it('accounts for every file: kept or listed with a reason', () => {
    const seen = [...pruned.files.map((f) => f.path), ...pruned.skipped.map((s) => s.path)];
    expect(seen.sort()).toEqual(files.map((f) => f.path).sort());
    expect(pruned.stats).toMatchObject({
      files: files.length,
      keptFiles: pruned.files.length,
      skippedFiles: pruned.skipped.length,
    });
  });

  it('leaves out the lockfile as generated, whatever the budget', () => {
    expect(pruned.skipped).toContainEqual({
      path: 'package-lock.json',
      reason: 'generated',
      kind: 'lockfile',
    });
    const roomy = pruneDiff(files, { maxTokens: 10_000_000 });
    expect(roomy.skipped.map((s) => s.path)).toEqual(['package-lock.json']);
  });

  it('stays within the budget, counted again on the text it hands over', () => {
    expect(pruned.stats.tokens).toBeLessThanOrEqual(budget);
    // Files are counted one by one; the whole text may differ by a token at each seam.
    expect(countTokens(pruned.text)).toBeLessThanOrEqual(budget + pruned.files.length);
    expect(pruned.skipped.some((s) => s.reason === 'budget')).toBe(true);
  });

  it('drops tests and docs before any source file', () => {
    const droppedSource = pruned.skipped.some((s) => s.reason === 'budget' && s.kind === 'source');
    const keptTestsOrDocs = pruned.files.filter((f) => ['test', 'docs'].includes(fileKind(f)));
    if (droppedSource) expect(keptTestsOrDocs.map((f) => f.path)).toEqual([]);
    expect(pruned.files.some((f) => fileKind(f) === 'source')).toBe(true);
  });

  it('with chunks, reads more of the change, each chunk within the budget', () => {
    const chunked = pruneDiff(files, { maxTokens: budget, chunks: 3 });
    expect(chunked.chunks.length).toBeGreaterThan(1);
    expect(chunked.chunks.length).toBeLessThanOrEqual(3);
    for (const chunk of chunked.chunks) {
      const tokens = chunk.reduce((sum, file) => sum + countTokens(renderFile(file)), 0);
      expect(tokens).toBeLessThanOrEqual(budget);
    }
    expect(chunked.chunks.flat()).toEqual(chunked.files);
    expect(chunked.files.length).toBeGreaterThan(pruned.files.length);
  });

  it('a binary file is left out as binary', () => {
    const binary = pruneDiff(splitDiff(repoDiff(BINARY_CHANGE)), { maxTokens: budget });
    expect(binary.skipped).toEqual([
      { path: 'docs/images/dashboard-deliveries-tokens.png', reason: 'binary', kind: 'binary' },
    ]);
  });
});

describe('pruneDiff at the budget’s edges', () => {
  const a = addition('src/a.ts', 40);
  const b = addition('src/b.ts', 40);
  const exact = countTokens(renderFile(a)) + countTokens(renderFile(b));

  it('a diff of exactly the budget is kept whole', () => {
    const pruned = pruneDiff([a, b], { maxTokens: exact });
    expect(pruned.skipped).toEqual([]);
    expect(pruned.stats.tokens).toBe(exact);
  });

  it('one token less drops a file, and the whole diff is never cut mid-file', () => {
    const pruned = pruneDiff([a, b], { maxTokens: exact - 1 });
    expect(pruned.files).toHaveLength(1);
    expect(pruned.skipped).toHaveLength(1);
    expect(pruned.skipped[0]?.reason).toBe('budget');
  });

  it('collapses delete-only hunks before it drops a file', () => {
    const removal = fileFromPatch({
      path: 'src/old.ts',
      patch: `@@ -1,200 +0,0 @@\n${lines('-', 200, 'old')}`,
    });
    const small = addition('src/c.ts', 5);
    const whole = countTokens(renderFile(removal)) + countTokens(renderFile(small));
    const pruned = pruneDiff([removal, small], { maxTokens: Math.floor(whole / 4) });
    expect(pruned.skipped).toEqual([]);
    expect(pruned.stats.collapsedHunks).toBe(1);
    expect(pruned.text).toContain('-… 200 deleted lines, not shown');
    // The caller's files are left as they were.
    expect(removal.hunks[0]?.lines).toHaveLength(200);
  });

  it('drops the largest test first, then docs, then source', () => {
    const files = [
      addition('src/main.ts', 30),
      addition('docs/guide.md', 30),
      addition('src/main.test.ts', 60),
      addition('src/small.test.ts', 10),
    ];
    const sizes = files.map((f) => countTokens(renderFile(f)));
    const allButOne = sizes.reduce((x, y) => x + y, 0) - (sizes[2] ?? 0);
    expect(pruneDiff(files, { maxTokens: allButOne }).skipped.map((s) => s.path)).toEqual([
      'src/main.test.ts',
    ]);
    const sourceOnly = sizes[0] ?? 0;
    expect(pruneDiff(files, { maxTokens: sourceOnly }).files.map((f) => f.path)).toEqual([
      'src/main.ts',
    ]);
  });

  it('a file over the budget on its own is left out, and small ones stay', () => {
    const huge = fileFromPatch({
      path: 'src/huge.ts',
      patch: `@@ -0,0 +1,60000 @@\n${lines('+', 60_000, 'x')}`,
    });
    const test = addition('src/a.test.ts', 5);
    const pruned = pruneDiff([huge, test], { maxTokens: 2_000 });
    expect(pruned.skipped).toEqual([{ path: 'src/huge.ts', reason: 'budget', kind: 'source' }]);
    expect(pruned.files.map((f) => f.path)).toEqual(['src/a.test.ts']);
  });

  it('a diff of 10,000 files stays within the budget and lists every file it leaves out', () => {
    const many = Array.from({ length: 10_000 }, (_, i) => addition(`src/f${i}.ts`, 3));
    const pruned = pruneDiff(many, { maxTokens: 24_000 });
    expect(pruned.stats.tokens).toBeLessThanOrEqual(24_000);
    expect(pruned.files.length + pruned.skipped.length).toBe(10_000);
  });

  it('ignore globs and .gitattributes leave files out before the budget is looked at', () => {
    const files = [
      addition('docs/generated/api.md', 3),
      addition('dist/bundle.js', 3),
      addition('src/app.ts', 3),
    ];
    const pruned = pruneDiff(files, {
      maxTokens: 24_000,
      ignore: ['docs/generated/**'],
      marked: markedPaths('dist/** linguist-generated\n'),
    });
    expect(pruned.skipped).toEqual([
      { path: 'docs/generated/api.md', reason: 'ignored', kind: 'docs' },
      { path: 'dist/bundle.js', reason: 'generated', kind: 'generated' },
    ]);
    expect(pruned.files.map((f) => f.path)).toEqual(['src/app.ts']);
  });
});
