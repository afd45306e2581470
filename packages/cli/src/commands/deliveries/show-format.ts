/**
 * The human output of `deliveries show`: fields, headers, attempts, agent, prompt, answer, line
 * comments and the agent's conclusion.
 */
import {
  lineCommentPlace,
  describeHiddenContent,
  promptTokenSplit,
  suggestionAsText,
  type AgentAccounting,
  type DeliveryRecord,
  type Finding,
  type FindingFate,
  type DeliverySafety,
  type LineComment,
  type QueueStanding,
  type ReviewConclusion,
  standingText,
  waitReasonText,
} from '@webhook-gateway/core';
import { formatCost } from './money.js';
import { formatDuration, formatTable, formatTime } from '../../table.js';
import { printable } from './printable.js';
import { attemptDurationMs, currentRoundStart, deliveryDurationMs } from './timing.js';
import { findingFates } from './view.js';

/** How `deliveries show` words each fate. */
const FATE_TEXT: Record<FindingFate, string> = {
  new: 'new: posted by this review',
  still_open: 'still open: raised again, not posted again',
  open: 'open',
  resolved: 'resolved by a person',
  dismissed: 'dismissed by a person: never raised again',
  fixed: 'fixed: the gateway resolved its thread',
};

/** `label  value` lines with the values aligned; nothing is cut. */
export function formatFields(fields: readonly (readonly [string, string])[], indent = ''): string {
  const width = Math.max(0, ...fields.map(([label]) => label.length));
  return fields
    .map(([label, value]) => `${indent}${label.padEnd(width)}  ${value}`.trimEnd())
    .join('\n');
}

/** A block of free text, indented under its heading; "(none)" when absent. */
function textBlock(text: string | null): string {
  if (text === null) return '  (none)';
  if (text.trim() === '') return '  (empty)';
  return printable(text)
    .split('\n')
    .map((line) => `  ${line}`.trimEnd())
    .join('\n');
}

function statusLine(record: DeliveryRecord): string {
  const tries = `${record.attempts} of ${record.maxAttempts} attempt${record.maxAttempts === 1 ? '' : 's'}`;
  switch (record.status) {
    case 'queued':
      return record.attempts === 0
        ? 'queued'
        : `queued for a retry (${tries} made; next at ${formatTime(record.nextAttemptAt)})`;
    case 'running':
      return `running (attempt ${record.attempts} of ${record.maxAttempts})`;
    case 'delivered':
      return record.partial
        ? `delivered, partial: a limit stopped the agent (${tries})`
        : `delivered (${tries})`;
    case 'failed':
      return `failed (${tries})`;
    case 'superseded':
      return `superseded by ${record.supersededBy ?? 'a newer delivery'} (never run)`;
    case 'denied':
      return `denied, not run (${record.lastError ?? 'permission'})`;
    case 'over_budget':
      return `over budget, not run (${record.lastError ?? 'budget'}); replay runs it`;
    case 'silent':
      return `silent: the answer was [SILENT], nothing sent (${tries})`;
    case 'skipped':
      return `skipped, not run (the route's ${record.lastError ?? 'script'} dropped it)`;
  }
}

/** Time in the queue before the first attempt; unknown after a replay (no replay time is kept). */
function waitedMs(record: DeliveryRecord, roundStart: number | null): number | null {
  const firstRound = record.attemptLog.length === record.attempts;
  return roundStart === null || !firstRound ? null : Math.max(0, roundStart - record.receivedAt);
}

function summaryFields(record: DeliveryRecord): [string, string][] {
  const roundStart = currentRoundStart(record);
  return [
    ['id', record.id],
    ['delivery id', printable(record.deliveryId)],
    ['route', record.route],
    [
      'event',
      printable(record.action === null ? record.event : `${record.event} (${record.action})`),
    ],
    ['status', statusLine(record)],
    ['received', formatTime(record.receivedAt)],
    ['started', formatTime(roundStart)],
    ['finished', formatTime(record.finishedAt)],
    ['waited', formatDuration(waitedMs(record, roundStart))],
    ['duration', formatDuration(deliveryDurationMs(record))],
    ['last error', record.lastError === null ? '-' : printable(record.lastError)],
  ];
}

function headersSection(headers: Record<string, string>): string {
  const entries = Object.entries(headers).sort(([a], [b]) => a.localeCompare(b));
  if (entries.length === 0) return 'headers\n  (none kept)';
  return `headers\n${formatFields(
    entries.map(([name, value]) => [name, printable(value)]),
    '  ',
  )}`;
}

function attemptsSection(record: DeliveryRecord): string {
  if (record.attemptLog.length === 0) return 'attempts\n  (none yet)';
  const rows = record.attemptLog.map((attempt) => [
    String(attempt.attempt),
    formatTime(attempt.startedAt),
    attempt.finishedAt === null ? 'running' : formatTime(attempt.finishedAt),
    formatDuration(attemptDurationMs(attempt)),
    attempt.error === null ? (attempt.finishedAt === null ? '' : 'ok') : printable(attempt.error),
  ]);
  const table = formatTable(['#', 'STARTED', 'FINISHED', 'DURATION', 'OUTCOME'], rows, 200);
  return `attempts\n${indentLines(table)}`;
}

function indentLines(text: string): string {
  return text
    .split('\n')
    .map((line) => `  ${line}`)
    .join('\n');
}

function agentSection(agent: AgentAccounting | null): string | undefined {
  if (agent === null) return undefined;
  const fields: [string, string][] = [['runner', agent.runner]];
  if (agent.model !== undefined) fields.push(['model', agent.model]);
  if (agent.turns !== undefined) fields.push(['turns', String(agent.turns)]);
  if (agent.toolCalls !== undefined) fields.push(['tool calls', String(agent.toolCalls.length)]);
  if (agent.usage !== undefined) {
    const { promptTokens, completionTokens, totalTokens } = agent.usage;
    const prompt = promptTokenSplit(agent.usage);
    fields.push([
      'tokens',
      `${totalTokens} (prompt ${promptTokens}: ${prompt.cached} cached, ${prompt.uncached} uncached; completion ${completionTokens})`,
    ]);
  }
  if (agent.cost !== undefined) fields.push(['cost', formatCost(agent.cost)]);
  let text = `agent\n${formatFields(fields, '  ')}`;
  if (agent.toolCalls !== undefined && agent.toolCalls.length > 0) {
    const rows = agent.toolCalls.map((call, index) => [
      String(index + 1),
      call.tool,
      call.exitCode === null ? '-' : String(call.exitCode),
      formatDuration(call.durationMs),
      printable(call.command),
    ]);
    text += `\n\n${indentLines(formatTable(['#', 'TOOL', 'EXIT', 'DURATION', 'COMMAND'], rows, 100))}`;
  }
  return text;
}

/**
 * The agent's line comments, each under its `path:line` (`path:start-line` for a range), with its
 * suggestion as text; nothing when it made none.
 */
function lineCommentsSection(comments: readonly LineComment[] | undefined): string | undefined {
  if (comments === undefined || comments.length === 0) return undefined;
  const blocks = comments.map((comment) => {
    const text =
      comment.suggestion === undefined
        ? comment.body
        : `${comment.body}\n${suggestionAsText(comment.suggestion)}`;
    return `  ${printable(lineCommentPlace(comment))}\n${indentLines(textBlock(text))}`;
  });
  return `line comments (${comments.length})\n${blocks.join('\n')}`;
}

/** The agent's verdict (`success: why`); nothing when it gave none. */
function conclusionSection(conclusion: ReviewConclusion | undefined): string | undefined {
  if (conclusion === undefined) return undefined;
  const reason = conclusion.reason === undefined ? '' : `: ${conclusion.reason}`;
  return `conclusion\n  ${printable(`${conclusion.value}${reason}`)}`;
}

/** The request's findings, each with its fate as this review saw it; nothing when none is kept. */
function findingsSection(record: DeliveryRecord, findings: readonly Finding[]): string | undefined {
  if (findings.length === 0) return undefined;
  const rows = findingFates(record, findings).map((finding) => [
    printable(`${finding.path}:${finding.line}`),
    FATE_TEXT[finding.fate],
    printable(finding.body.split('\n')[0] ?? ''),
  ]);
  const table = formatTable(['LINE', 'FATE', 'FINDING'], rows, 200);
  return `findings on this request (${findings.length})\n${indentLines(table)}`;
}

/** What hygiene took out of the payload and redaction out of the answer; nothing when neither did. */
function safetySection(safety: DeliverySafety | undefined): string | undefined {
  if (safety === undefined) return undefined;
  const lines = (safety.hidden ?? []).map(
    (note) => `  hidden content removed: ${printable(describeHiddenContent(note))}`,
  );
  if (safety.redactions) lines.push(`  secrets redacted from the answer: ${safety.redactions}`);
  return `taken out\n${lines.join('\n')}`;
}

/**
 * A queued delivery's place in its route's queue and why it waits ("3rd, about 2 min"; "route
 * concurrency: …"); nothing for any other status.
 */
function queueSection(
  record: DeliveryRecord,
  standing: QueueStanding | undefined,
  now: number,
): string | undefined {
  if (record.status !== 'queued' || standing === undefined) return undefined;
  const place = `${standingText(standing, now)} (of ${standing.queuedOnRoute} queued on route ${record.route})`;
  const waits =
    standing.reasons.length === 0
      ? ['  starts now: nothing holds it']
      : standing.reasons.map((reason) => `  waits: ${printable(waitReasonText(reason))}`);
  return [`queue`, `  ${place}`, ...waits].join('\n');
}

/** Everything the journal knows about one delivery, as sections a person reads top to bottom. */
export function formatDeliveryDetail(
  record: DeliveryRecord,
  findings: readonly Finding[] = [],
  standing?: QueueStanding,
  now = Date.now(),
): string {
  const sections = [
    formatFields(summaryFields(record)),
    queueSection(record, standing, now),
    headersSection(record.headers),
    attemptsSection(record),
    agentSection(record.agent),
    safetySection(record.safety),
    `prompt\n${textBlock(record.prompt)}`,
    `answer\n${textBlock(record.answer)}`,
    lineCommentsSection(record.lineComments),
    conclusionSection(record.conclusion),
    findingsSection(record, findings),
  ];
  return sections.filter((section) => section !== undefined).join('\n\n');
}
