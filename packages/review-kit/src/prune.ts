/**
 * A diff pruned to a token budget, saying what was left out and why. First the files never worth
 * a reviewer's tokens are dropped (ignored by a glob, machine-made, binary); then, while the diff
 * is over budget, hunks that only delete shrink to one line each, and then whole files go, the
 * least valuable first: tests and docs before source, the largest first within a kind.
 */
import picomatch from 'picomatch';
import { renderDiff, renderFile, type DiffFile, type DiffHunk } from './diff-files.js';
import { fileKind, markedPaths, type FileKind, type MarkedPaths } from './file-kind.js';
import { tokensWithin } from './tokens.js';

export type SkipReason = 'ignored' | 'generated' | 'binary' | 'budget';

export interface SkippedFile {
  path: string;
  reason: SkipReason;
  kind: FileKind;
}

export interface DiffStats {
  /** Every file of the diff, kept or not, and its lines. */
  files: number;
  additions: number;
  deletions: number;
  keptFiles: number;
  skippedFiles: number;
  /** Hunks that only delete, shown as one line each. */
  collapsedHunks: number;
  /** Tokens of the kept diff. */
  tokens: number;
}

export interface PrunedDiff {
  /** The kept files, in the diff's order (their delete-only hunks possibly collapsed). */
  files: DiffFile[];
  /**
   * The kept files in groups of whole files, each within `maxTokens`, in the diff's order: one
   * group unless `chunks` allowed more and the diff needed them.
   */
  chunks: DiffFile[][];
  skipped: SkippedFile[];
  stats: DiffStats;
  /** The kept files as one diff. */
  text: string;
}

export interface PruneOptions {
  /** Tokens of diff one runner call may read. */
  maxTokens: number;
  /** Runner calls the diff may be split into (`review.chunks`); default 1. */
  chunks?: number;
  /** Globs of paths never reviewed (the host's `review.ignore`, the repository's `paths.ignore`). */
  ignore?: readonly string[];
  /** What the repository's `.gitattributes` marks generated or vendored. */
  marked?: MarkedPaths;
}

/** Kinds that a machine made: dropped always, listed as `generated`. */
const MACHINE_MADE = new Set<FileKind>([
  'lockfile',
  'minified',
  'source-map',
  'vendored',
  'generated',
]);

/** The order files are dropped in when over budget: lowest value first. */
const DROP_RANK: Readonly<Partial<Record<FileKind, number>>> = { test: 0, docs: 1, source: 2 };

interface Candidate {
  file: DiffFile;
  kind: FileKind;
  /** Tokens of the file's section, or undefined when it alone is over the whole budget. */
  tokens: number | undefined;
  order: number;
}

function collapsedHunk(hunk: DiffHunk): DiffHunk {
  return {
    ...hunk,
    lines: [`-… ${hunk.deletions} deleted lines, not shown`],
  };
}

/** Collapses the file's delete-only hunks; the number collapsed. */
function collapseDeletions(file: DiffFile): number {
  let collapsed = 0;
  file.hunks = file.hunks.map((hunk) => {
    if (hunk.additions > 0 || hunk.deletions <= 1) return hunk;
    collapsed++;
    return collapsedHunk(hunk);
  });
  return collapsed;
}

function total(candidates: readonly Candidate[], maxTokens: number): number {
  let sum = 0;
  for (const candidate of candidates) sum += candidate.tokens ?? maxTokens + 1;
  return sum;
}

/** Whole files in the diff's order, a new group whenever the next file would pass `maxTokens`. */
function packChunks(candidates: readonly Candidate[], maxTokens: number): Candidate[][] {
  const chunks: Candidate[][] = [];
  let current: Candidate[] = [];
  let size = 0;
  for (const candidate of candidates) {
    const tokens = candidate.tokens ?? maxTokens + 1;
    if (current.length > 0 && size + tokens > maxTokens) {
      chunks.push(current);
      current = [];
      size = 0;
    }
    current.push(candidate);
    size += tokens;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/**
 * The diff's files pruned to `options.maxTokens`, with every skipped file and why.
 *
 * @example pruneDiff(splitDiff(diff), { maxTokens: 24_000, ignore: ['docs/generated/**'] })
 */
export function pruneDiff(files: readonly DiffFile[], options: PruneOptions): PrunedDiff {
  const { maxTokens } = options;
  const marked = options.marked ?? markedPaths(undefined);
  const ignored = picomatch([...(options.ignore ?? [])], { dot: true });
  const skipped: (SkippedFile & { order: number })[] = [];
  let candidates: Candidate[] = [];
  files.forEach((original, order) => {
    // Copies, so collapsing hunks never changes the caller's files.
    const file: DiffFile = { ...original, hunks: [...original.hunks] };
    const kind = fileKind(file, marked);
    const isIgnored =
      (options.ignore?.length ?? 0) > 0 &&
      (ignored(file.path) || (file.oldPath !== undefined && ignored(file.oldPath)));
    if (isIgnored) skipped.push({ path: file.path, reason: 'ignored', kind, order });
    else if (MACHINE_MADE.has(kind))
      skipped.push({ path: file.path, reason: 'generated', kind, order });
    else if (kind === 'binary') skipped.push({ path: file.path, reason: 'binary', kind, order });
    else candidates.push({ file, kind, tokens: tokensWithin(renderFile(file), maxTokens), order });
  });

  let collapsedHunks = 0;
  if (total(candidates, maxTokens) > maxTokens) {
    for (const candidate of candidates) {
      const collapsed = collapseDeletions(candidate.file);
      if (collapsed === 0) continue;
      collapsedHunks += collapsed;
      candidate.tokens = tokensWithin(renderFile(candidate.file), maxTokens);
    }
  }

  const capacity = maxTokens * Math.max(1, options.chunks ?? 1);
  const calls = Math.max(1, options.chunks ?? 1);
  if (total(candidates, maxTokens) > maxTokens) {
    const dropped = new Set<Candidate>();
    const drop = (candidate: Candidate): void => {
      dropped.add(candidate);
      skipped.push({
        path: candidate.file.path,
        reason: 'budget',
        kind: candidate.kind,
        order: candidate.order,
      });
    };
    // A file over the budget on its own fits in no call, whatever else is dropped.
    for (const candidate of candidates) if (candidate.tokens === undefined) drop(candidate);
    const dropOrder = candidates
      .filter((candidate) => !dropped.has(candidate))
      .sort(
        (a, b) =>
          (DROP_RANK[a.kind] ?? 2) - (DROP_RANK[b.kind] ?? 2) ||
          (b.tokens ?? 0) - (a.tokens ?? 0) ||
          a.order - b.order,
      );
    // Drop down to what the calls may read, then on while whole files do not pack into them.
    let sum = total(
      candidates.filter((candidate) => !dropped.has(candidate)),
      maxTokens,
    );
    let next = 0;
    while (sum > capacity && next < dropOrder.length) {
      const candidate = dropOrder[next++] as Candidate;
      sum -= candidate.tokens ?? 0;
      drop(candidate);
    }
    candidates = candidates.filter((candidate) => !dropped.has(candidate));
    while (packChunks(candidates, maxTokens).length > calls && next < dropOrder.length) {
      drop(dropOrder[next++] as Candidate);
      candidates = candidates.filter((candidate) => !dropped.has(candidate));
    }
  }

  const kept = candidates.map((candidate) => candidate.file);
  skipped.sort((a, b) => a.order - b.order);
  return {
    files: kept,
    chunks: packChunks(candidates, maxTokens).map((chunk) => chunk.map((c) => c.file)),
    skipped: skipped.map(({ path, reason, kind }) => ({ path, reason, kind })),
    stats: {
      files: files.length,
      additions: files.reduce((sum, file) => sum + file.additions, 0),
      deletions: files.reduce((sum, file) => sum + file.deletions, 0),
      keptFiles: kept.length,
      skippedFiles: skipped.length,
      collapsedHunks,
      tokens: total(candidates, maxTokens),
    },
    text: renderDiff(kept),
  };
}
