/**
 * The `--json` shapes of `deliveries list` and `deliveries show`: the journal record with times
 * as ISO 8601 text (UTC) and the duration worked out, so scripts need not know the store.
 */
import {
  findingFate,
  type AgentAccounting,
  type AgentCost,
  type DeliveryRecord,
  type DeliveryStatus,
  type Finding,
  type FindingFate,
  type LineComment,
  type QueueStanding,
  type ReviewConclusion,
  standingText,
  waitReasonText,
} from '@webhook-gateway/core';
import { attemptDurationMs, currentRoundStart, deliveryDurationMs } from './timing.js';

/** A time in ms since the epoch as ISO 8601 text, or null. */
function isoTime(ms: number | null): string | null {
  return ms === null ? null : new Date(ms).toISOString();
}

/** One row of `deliveries list --json`. */
export interface DeliverySummary {
  id: string;
  deliveryId: string;
  route: string;
  event: string;
  action: string | null;
  status: DeliveryStatus;
  attempts: number;
  maxAttempts: number;
  receivedAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  durationMs: number | null;
  lastError: string | null;
  /** The agent's tokens (prompt + completion) over every attempt; null when none was counted. */
  tokens: number | null;
  /** What those tokens cost at `agent.prices`; null when no price was set. */
  cost: AgentCost | null;
  /** The answer is what the agent produced before a limit stopped it (`agent.on_limit`). */
  partial: boolean;
  /** A queued delivery's standing in its route's queue; null for any other status. */
  queue: QueueView | null;
}

/** Where a queued delivery stands (`queueStandings`), times as ISO 8601 text. */
interface QueueView {
  /** 1 for the next of its route to start. */
  position: number;
  queuedOnRoute: number;
  /** From the route's recent run times; null when none is known yet. */
  estimatedStartAt: string | null;
  /** "3rd, about 2 min". */
  text: string;
  /** Why it is not running now; empty: it starts now. */
  waitingFor: { kind: string; text: string; until: string | null }[];
}

function queueView(standing: QueueStanding | undefined, now: number): QueueView | null {
  if (standing === undefined) return null;
  return {
    position: standing.position,
    queuedOnRoute: standing.queuedOnRoute,
    estimatedStartAt: isoTime(standing.estimatedStartAt ?? null),
    text: standingText(standing, now),
    waitingFor: standing.reasons.map((reason) => ({
      kind: reason.kind,
      text: waitReasonText(reason),
      until: 'until' in reason ? isoTime(reason.until) : null,
    })),
  };
}

/** One attempt in `deliveries show --json`. */
interface AttemptView {
  attempt: number;
  startedAt: string;
  finishedAt: string | null;
  durationMs: number | null;
  error: string | null;
}

/** `deliveries show --json`: the summary plus everything the journal kept. */
export interface DeliveryDetail extends DeliverySummary {
  seq: number;
  orderKey: string | null;
  nextAttemptAt: string | null;
  /** The auth scheme that verified the request; null on an INSECURE_NO_AUTH route. */
  authScheme: string | null;
  headers: Record<string, string>;
  payload: Record<string, unknown>;
  prompt: string | null;
  /** The agent's answer; with line comments, their summary. */
  answer: string | null;
  /** The agent's remarks on lines of the pull or merge request (empty when it made none). */
  lineComments: LineComment[];
  /** The agent's verdict on the review (a check's conclusion); null when it gave none. */
  conclusion: ReviewConclusion | null;
  attemptLog: AttemptView[];
  agent: AgentAccounting | null;
  /** The findings its route keeps for the same pull or merge request, each with its fate. */
  findings: FindingWithFate[];
}

/** A finding of the request as `deliveries show` lists it, with its fate (`findingFate`). */
export interface FindingWithFate extends Finding {
  fate: FindingFate;
}

/** The fate of each of the request's findings, seen from the review `record`. */
export function findingFates(
  record: DeliveryRecord,
  findings: readonly Finding[],
): FindingWithFate[] {
  return findings.map((finding) => ({ ...finding, fate: findingFate(finding, record.deliveryId) }));
}

/** A row of `deliveries list --json`; `standings` from `standingsOf` at `now`. */
export function deliverySummary(
  record: DeliveryRecord,
  standings: ReadonlyMap<string, QueueStanding> = new Map(),
  now = Date.now(),
): DeliverySummary {
  return {
    id: record.id,
    deliveryId: record.deliveryId,
    route: record.route,
    event: record.event,
    action: record.action,
    status: record.status,
    attempts: record.attempts,
    maxAttempts: record.maxAttempts,
    receivedAt: new Date(record.receivedAt).toISOString(),
    // The current round's start, so that it matches `durationMs` after a replay.
    startedAt: isoTime(currentRoundStart(record)),
    finishedAt: isoTime(record.finishedAt),
    durationMs: deliveryDurationMs(record),
    lastError: record.lastError,
    tokens: record.agent?.usage?.totalTokens ?? null,
    cost: record.agent?.cost ?? null,
    partial: record.partial === true,
    queue: record.status === 'queued' ? queueView(standings.get(record.id), now) : null,
  };
}

export function deliveryDetail(
  record: DeliveryRecord,
  findings: readonly Finding[] = [],
  standings: ReadonlyMap<string, QueueStanding> = new Map(),
  now = Date.now(),
): DeliveryDetail {
  return {
    ...deliverySummary(record, standings, now),
    seq: record.seq,
    orderKey: record.orderKey,
    // Only a queued delivery waits for a time; for the others the column is history.
    nextAttemptAt: record.status === 'queued' ? isoTime(record.nextAttemptAt) : null,
    authScheme: record.authScheme ?? null,
    headers: record.headers,
    payload: record.payload,
    prompt: record.prompt,
    answer: record.answer,
    lineComments: record.lineComments ?? [],
    conclusion: record.conclusion ?? null,
    attemptLog: record.attemptLog.map((attempt) => ({
      attempt: attempt.attempt,
      startedAt: new Date(attempt.startedAt).toISOString(),
      finishedAt: isoTime(attempt.finishedAt),
      durationMs: attemptDurationMs(attempt),
      error: attempt.error,
    })),
    agent: record.agent,
    findings: findingFates(record, findings),
  };
}
