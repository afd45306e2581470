/** The new-file lines a pull request's diff shows, per path: where an inline comment can sit. */
import { commentableLines } from '@webhook-gateway/deliver-forge-comment/comments';
import { renderFile, splitDiff } from '@webhook-gateway/review-kit';

/** Each changed file's added and context lines of the new file, by its path after the change. */
export function diffLinesByPath(diff: string): Map<string, Set<number>> {
  const lines = new Map<string, Set<number>>();
  for (const file of splitDiff(diff)) {
    if (file.deleted || file.binary) continue;
    lines.set(file.path, commentableLines(renderFile(file)));
  }
  return lines;
}
