/** How `filters test` prints a route's verdict: each clause as a tree line, then the answer. */
import {
  FILTER_REGEX_TIMEOUT_MS,
  type ClauseVerdict,
  type IgnoreReason,
  type TimedOutFilter,
} from '@webhook-gateway/core/runtime';

/** What the receiver would answer for the payload. */
export type RouteAnswer = { status: 'accepted' } | { status: 'ignored'; reason: IgnoreReason };

/** Why each reason ignores a delivery, in words. */
const REASONS: Readonly<Record<IgnoreReason, string>> = {
  event: 'the event is not in the route’s events (a route without events lists ping to take it)',
  action: 'the action is not in the route’s actions',
  filter: 'a filter clause failed',
  self: 'the comment is the gateway’s own',
  bot: 'a bot wrote the comment (allow_bots is off)',
  command: 'the comment names none of the route’s commands',
};

function clauseLines(verdict: ClauseVerdict, depth: number, out: string[]): void {
  const mark = verdict.passed ? '✓' : '✗';
  // Not the value a regex was stopped on: it is often a very long text.
  const note =
    verdict.timedOut && !verdict.children
      ? `  (timed out after ${FILTER_REGEX_TIMEOUT_MS} ms)`
      : verdict.timedOut
        ? '  (holds a regex that timed out)'
        : verdict.actual === undefined
          ? ''
          : `  (was ${verdict.actual})`;
  out.push(`${'  '.repeat(depth)}${mark} ${verdict.clause}${note}`);
  for (const child of verdict.children ?? []) clauseLines(child, depth + 1, out);
}

/**
 * The lines `filters test` prints.
 *
 * @example formatVerdict('reviews', 'pull_request', 'opened', [], { status: 'accepted' }, [])
 */
export function formatVerdict(
  route: string,
  event: string,
  action: string | null,
  clauses: readonly ClauseVerdict[],
  answer: RouteAnswer,
  timedOut: readonly TimedOutFilter[],
): string {
  const lines = [`route ${route} · event ${event}${action ? ` · action ${action}` : ''}`];
  if (clauses.length === 0) lines.push('filters: (none)');
  else {
    lines.push('filters (every clause must pass):');
    for (const clause of clauses) clauseLines(clause, 1, lines);
  }
  for (const stopped of timedOut) {
    lines.push(
      `timed out: ${stopped.key} (field ${stopped.field}) did not finish within the ${FILTER_REGEX_TIMEOUT_MS} ms the filters’ regexes share; it counts as not matching, even under not`,
    );
  }
  lines.push(
    answer.status === 'accepted'
      ? 'answer: accepted'
      : `answer: ignored (${answer.reason}: ${REASONS[answer.reason]})`,
  );
  return lines.join('\n');
}
