/** The review values that are text the gateway writes: `diff_stats` and `skipped_files`. */
import type { DiffStats, SkippedFile } from '@webhook-gateway/review-kit';

/** Written where a value has nothing to say, so an empty value never reads as "all is well". */
export const NONE = '(none)';

function count(n: number): string {
  return n.toLocaleString('en-US');
}

/** `generated: 2, binary: 1`. */
function byReason(skipped: readonly SkippedFile[]): string {
  const counts = new Map<string, number>();
  for (const file of skipped) counts.set(file.reason, (counts.get(file.reason) ?? 0) + 1);
  return [...counts].map(([reason, n]) => `${reason}: ${n}`).join(', ');
}

/**
 * `{_gateway.diff_stats}`: what the diff covers, files and lines changed, files kept and skipped,
 * and the tokens of the kept diff against the budget.
 *
 * @example diffStatsText('the whole pull request', pruned.stats, pruned.skipped, 24000)
 */
export function diffStatsText(
  range: string,
  stats: DiffStats,
  skipped: readonly SkippedFile[],
  maxTokens: number,
): string {
  const lines = [
    `Diff: ${range}`,
    `Files changed: ${count(stats.files)} (+${count(stats.additions)} -${count(stats.deletions)} lines)`,
    `Files in the diff: ${count(stats.keptFiles)}; skipped: ${count(skipped.length)}${skipped.length > 0 ? ` (${byReason(skipped)})` : ''}`,
  ];
  if (stats.collapsedHunks > 0) {
    lines.push(`Hunks that only delete, shown as one line each: ${count(stats.collapsedHunks)}`);
  }
  lines.push(`Tokens of the diff: ${count(stats.tokens)} (budget ${count(maxTokens)})`);
  return lines.join('\n');
}

/**
 * `{_gateway.skipped_files}`: one line per file left out of the diff, with why.
 *
 * @example skippedFilesText([{ path: 'package-lock.json', reason: 'generated', kind: 'lockfile' }])
 * // '- package-lock.json: generated (lockfile)'
 */
export function skippedFilesText(skipped: readonly SkippedFile[]): string {
  if (skipped.length === 0) return NONE;
  return skipped
    .map((file) => {
      // A machine-made file says which kind: lockfile, minified, source-map, vendored, generated.
      const kind =
        file.reason === 'generated' && file.kind !== 'generated' ? ` (${file.kind})` : '';
      return `- ${file.path}: ${file.reason}${kind}`;
    })
    .join('\n');
}
