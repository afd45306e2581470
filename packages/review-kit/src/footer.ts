/**
 * The review's footer: what the bot did not read and why, and what it refused of the
 * repository's rules, so no review is silently partial.
 */
import type { SkipReason, SkippedFile } from './prune.js';

export interface FooterFacts {
  skipped: readonly SkippedFile[];
  /** Host-only keys the repository's rules file set. */
  refused?: readonly string[];
  /** Why the rules file was not applied. */
  configProblem?: string | undefined;
  /** The rules file's name (`.webhook-gateway.yaml`). */
  configFile?: string;
  /** Why the diff could not be read, when it could not. */
  diffProblem?: string | undefined;
}

/** Files named one by one before the rest are only counted. */
const NAMED_AT_MOST = 40;

function counts(skipped: readonly SkippedFile[]): string {
  const byReason = new Map<SkipReason, number>();
  for (const file of skipped) byReason.set(file.reason, (byReason.get(file.reason) ?? 0) + 1);
  return [...byReason].map(([reason, count]) => `${reason}: ${count}`).join(', ');
}

/**
 * The footer's lines as Markdown, or an empty string when there is nothing to say.
 *
 * @example reviewFooter({ skipped: pruned.skipped, refused: rules.refused })
 */
export function reviewFooter(facts: FooterFacts): string {
  const lines: string[] = [];
  const file = facts.configFile ?? '.webhook-gateway.yaml';
  if (facts.diffProblem !== undefined) {
    lines.push(
      `**The diff could not be read**: ${facts.diffProblem}. This review may be incomplete.`,
    );
  }
  if (facts.skipped.length > 0) {
    const named = facts.skipped
      .slice(0, NAMED_AT_MOST)
      .map((skipped) => `\`${skipped.path}\` (${skipped.reason})`);
    const rest = facts.skipped.length - named.length;
    lines.push(
      `**Not reviewed** (${facts.skipped.length} ${facts.skipped.length === 1 ? 'file' : 'files'}; ${counts(facts.skipped)}): ${named.join(', ')}${rest > 0 ? `, and ${rest} more` : ''}`,
    );
  }
  if (facts.refused !== undefined && facts.refused.length > 0) {
    lines.push(
      `**Refused in ${file}** (only the host may set them): ${facts.refused.map((key) => `\`${key}\``).join(', ')}`,
    );
  }
  if (facts.configProblem !== undefined) {
    lines.push(`**${file} was not applied**: ${facts.configProblem}`);
  }
  return lines.length === 0 ? '' : ['---', ...lines].join('\n\n');
}
