/** A delivery as the journal keeps it, from acceptance to its final status. */
import { pullRequestOf } from './pull-request.js';
import { lineCommentPlace, suggestionAsText } from './line-comment-text.js';
import type { JsonObject } from './template.js';

/**
 * Every status a journal row can have; stores, schemas and listings read this one list.
 * `denied` and `over_budget` end a delivery before its agent runs (see `RefusedStatus`).
 * `superseded`: ended before it ever ran, because a newer delivery for the same route and pull or
 * merge request arrived on a route with `supersede: true` (its `supersededBy` names that one).
 * `silent`: the answer was exactly `[SILENT]` (after trimming), so nothing was sent.
 * `skipped`: ended before its agent ran because the route's `script` answered `[SILENT]` or nothing.
 */
export const DELIVERY_STATUSES = [
  'queued',
  'running',
  'delivered',
  'failed',
  'denied',
  'over_budget',
  'superseded',
  'silent',
  'skipped',
] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** The statuses of a delivery the worker refused to run: the commenter's permission, a budget. */
export type RefusedStatus = 'denied' | 'over_budget';

/** How a delivery that ran ends well: its answer sent, or `silent` (nothing to send). */
export type DeliveredStatus = 'delivered' | 'silent';

/** The answer an agent gives to say nothing (Hermes' marker). */
export const SILENT_ANSWER = '[SILENT]';

/**
 * True when the answer is exactly `[SILENT]` once trimmed: it is not delivered. An empty answer or
 * `SKIP` still is, and so is `[SILENT]` followed by more text.
 */
export function isSilentAnswer(answer: string): boolean {
  return answer.trim() === SILENT_ANSWER;
}

/**
 * The statuses that end a delivery before its agent runs, with a reason and no tokens: the
 * worker's refusals, and `skipped` (the route's script chose to drop it). `Store.markRefused`
 * writes them.
 */
export type NotRunStatus = RefusedStatus | 'skipped';

/** True once a delivery will not run again unless replayed. */
export function isFinishedStatus(status: DeliveryStatus): boolean {
  return status !== 'queued' && status !== 'running';
}

/** What the receiver knows when it accepts a delivery. */
export interface NewDelivery {
  route: string;
  event: string;
  /** The payload's `action` (forge) or `object_attributes.action` (altforge), when present. */
  action: string | null;
  /** The sender's delivery id (`docs/contract.md#headers`), unique per route within the window. */
  deliveryId: string;
  receivedAt: number;
  payload: JsonObject;
  /**
   * `payload`'s JSON text as it arrived, when the receiver has it: a store may keep this rather
   * than serialise `payload` again.
   */
  payloadJson?: string;
  /** The headers worth keeping (event, delivery id, user agent); never a token. */
  headers: Record<string, string>;
  /** The auth scheme that verified the request; absent on an INSECURE_NO_AUTH route. */
  authScheme?: string;
  /**
   * The W3C `traceparent` of the request's receive span (with `observability.otlp`), so the
   * attempts' spans join its trace, in any process and after a restart.
   */
  traceContext?: string;
  /** Deliveries sharing this key (same route, repository and pull/merge request) run one at a time. */
  orderKey: string | null;
  maxAttempts: number;
  /**
   * The route's `supersede`: accepting this delivery ends the earlier deliveries with the same
   * `orderKey` that are still queued and never started (status `superseded`).
   */
  supersede?: boolean;
  /**
   * The route's `coalesce` (with `supersede` and the rendered key as `orderKey`): the delivery
   * waits `windowMs` before it may start, and at most `maxWaitMs` from the first of its burst.
   */
  coalesce?: CoalesceWait;
}

/** How long a coalesced delivery waits (a route's `coalesce`, in ms). */
export interface CoalesceWait {
  windowMs: number;
  maxWaitMs: number;
}

/** What a store knows of a row a coalescing accept supersedes. */
export type CoalescedRow = Pick<DeliveryRecord, 'receivedAt' | 'burstStartedAt' | 'coalesced'>;

/**
 * When a coalesced delivery may start and what it stands for, from the rows it superseded: its
 * burst began with the oldest of theirs; it waits `windowMs` from its arrival, but never past
 * `maxWaitMs` from that start; it replaced them and all they had replaced.
 *
 * @example coalescedTiming(10_000, { windowMs: 5_000, maxWaitMs: 8_000 }, [{ receivedAt: 4_000 }])
 * // { nextAttemptAt: 12_000, burstStartedAt: 4_000, coalesced: 1 }
 */
export function coalescedTiming(
  receivedAt: number,
  wait: CoalesceWait,
  superseded: readonly CoalescedRow[],
): { nextAttemptAt: number; burstStartedAt: number; coalesced: number } {
  let burstStartedAt = receivedAt;
  let coalesced = 0;
  for (const row of superseded) {
    burstStartedAt = Math.min(burstStartedAt, row.burstStartedAt ?? row.receivedAt);
    coalesced += (row.coalesced ?? 0) + 1;
  }
  const nextAttemptAt = Math.max(
    receivedAt,
    Math.min(receivedAt + wait.windowMs, burstStartedAt + wait.maxWaitMs),
  );
  return { nextAttemptAt, burstStartedAt, coalesced };
}

/** One tool call an agent made. */
export interface ToolCallRecord {
  tool: string;
  command: string;
  exitCode: number | null;
  durationMs: number;
  /** Why the command was not run (`agent.terminal.allow`): the tool error the model got. */
  refused?: string;
}

/** Tokens a model reported using. */
export interface TokenUsage {
  promptTokens: number;
  /**
   * The part of `promptTokens` the provider served from its prompt cache (billed cheaper), never
   * on top of them. Absent on rows written before it was counted, and for runners that do not say: 0.
   */
  cachedPromptTokens?: number;
  completionTokens: number;
  totalTokens: number;
}

/**
 * The prompt tokens of `usage` as cached and uncached; a cached count the provider reported past
 * the prompt tokens (or below 0) is held to them.
 *
 * @example promptTokenSplit({ promptTokens: 2000, cachedPromptTokens: 1536, completionTokens: 90, totalTokens: 2090 })
 * // { cached: 1536, uncached: 464 }
 */
export function promptTokenSplit(usage: TokenUsage): { cached: number; uncached: number } {
  const cached = Math.min(Math.max(usage.cachedPromptTokens ?? 0, 0), usage.promptTokens);
  return { cached, uncached: usage.promptTokens - cached };
}

/** Money at `agent.prices`: an amount in a currency (an ISO 4217 code such as `USD`). */
export interface AgentCost {
  amount: number;
  currency: string;
}

/**
 * What an agent run cost and did. On a journal row it is the delivery's total: every attempt
 * that ran the agent added to it (`addAccounting`), retries included.
 */
export interface AgentAccounting {
  runner: string;
  model?: string;
  turns?: number;
  toolCalls?: ToolCallRecord[];
  usage?: TokenUsage;
  /** Set when `agent.prices` is: what the tokens cost. */
  cost?: AgentCost;
}

/**
 * A remark of the agent on one line of a pull or merge request's new code (the `command` runner's
 * JSON document, the `openai` runner's `comment_on_line` tool). Review targets post it on the
 * line; other targets get it as text after the summary (`answerWithLineComments`).
 */
export interface LineComment {
  /** The file's path in the repository, as the diff names it. */
  path: string;
  /** The line in the new version of the file (1-based). */
  line: number;
  body: string;
  /** The text that replaces lines `start_line`–`line` (or `line` alone); empty deletes them. */
  suggestion?: string;
  /** The first line of a range ending at `line` (at most `line`). */
  start_line?: number;
}

/** How a review concludes, as a check or commit status shows it: the merge gate. */
export type ReviewConclusionValue = 'success' | 'neutral' | 'failure';

/**
 * The agent's verdict on a review (the `command` runner's JSON `conclusion`, the `openai`
 * runner's `set_conclusion` tool). A run that gives none concludes `neutral`.
 */
export interface ReviewConclusion {
  value: ReviewConclusionValue;
  /** Why, in a sentence: the check's title. */
  reason?: string;
}

/** Hidden content hygiene removed from one payload field (`pull_request.body: 1 HTML comment`). */
export interface HiddenContentNote {
  /** The payload path of the field, dotted (`pull_request.body`). */
  field: string;
  /** What was removed, by kind, with counts: `HTML comment`, `bidi control`, `cut`, … */
  removed: Record<string, number>;
}

/** What keeps hidden text out of the prompt and secrets out of the answer, as it acted. */
export interface DeliverySafety {
  /** Secrets and token shapes replaced by `[redacted]` in the answer and line comments. */
  redactions?: number;
  /** Hidden content removed from payload fields before the template and prepared context. */
  hidden?: HiddenContentNote[];
}

/** One try at running and delivering. */
export interface AttemptRecord {
  attempt: number;
  startedAt: number;
  finishedAt: number | null;
  error: string | null;
}

/** A journal row. `id` is the journal's own id; `deliveryId` is the sender's. */
export interface DeliveryRecord extends NewDelivery {
  id: string;
  /** Order of arrival, increasing. */
  seq: number;
  status: DeliveryStatus;
  attempts: number;
  /** When a queued delivery may run next (retry backoff), ms since epoch. */
  nextAttemptAt: number;
  prompt: string | null;
  answer: string | null;
  lastError: string | null;
  startedAt: number | null;
  finishedAt: number | null;
  attemptLog: AttemptRecord[];
  agent: AgentAccounting | null;
  /** The agent's line comments next to its answer (the summary); absent when it made none. */
  lineComments?: LineComment[];
  /** The agent's verdict next to its answer; absent when it gave none. */
  conclusion?: ReviewConclusion;
  /**
   * The answer is what the agent produced before a limit stopped it (`agent.on_limit: partial`):
   * the tokens, the turns or the time ran out. Absent for a complete answer.
   */
  partial?: true;
  /** What the gateway took out of the payload and the answer; absent when nothing. */
  safety?: DeliverySafety;
  /** The journal id of the delivery that superseded this one (status `superseded`). */
  supersededBy?: string;
  /** On a `coalesce` route: how many deliveries this one replaced (`{_gateway.coalesced}`). */
  coalesced?: number;
  /** On a `coalesce` route: when the first delivery of this one's burst arrived. */
  burstStartedAt?: number;
}

/** The payload's action, for filters and listings. */
export function payloadAction(payload: JsonObject): string | null {
  if (typeof payload.action === 'string') return payload.action;
  const attributes = payload.object_attributes;
  if (attributes && typeof attributes === 'object' && !Array.isArray(attributes)) {
    const action = (attributes as JsonObject).action;
    if (typeof action === 'string') return action;
  }
  return null;
}

/**
 * The ordering key of a delivery about a pull or merge request: route, repository and number.
 * Null for events not about one (push, ping), which need no ordering.
 */
export function orderKeyOf(route: string, payload: JsonObject, sender?: string): string | null {
  const pullRequest = pullRequestOf(payload, sender);
  return pullRequest ? `${route}|${pullRequest.repo}|${pullRequest.number}` : null;
}

/**
 * Whether a row ends as `superseded` when a newer delivery with its `orderKey` is accepted: still
 * queued and never started (a retry waiting for its backoff has run, and keeps its turn).
 */
export function isSupersedable(record: Pick<DeliveryRecord, 'status' | 'startedAt'>): boolean {
  return record.status === 'queued' && record.startedAt === null;
}

/**
 * The journal row of a just-accepted delivery, as every store returns it from `accept`. The
 * payload's JSON text is left out: the row holds the payload once, as an object.
 */
export function queuedRecord(delivery: NewDelivery, id: string, seq: number): DeliveryRecord {
  return {
    route: delivery.route,
    event: delivery.event,
    action: delivery.action,
    deliveryId: delivery.deliveryId,
    receivedAt: delivery.receivedAt,
    payload: delivery.payload,
    headers: delivery.headers,
    ...(delivery.authScheme !== undefined ? { authScheme: delivery.authScheme } : {}),
    ...(delivery.traceContext !== undefined ? { traceContext: delivery.traceContext } : {}),
    orderKey: delivery.orderKey,
    maxAttempts: delivery.maxAttempts,
    id,
    seq,
    status: 'queued',
    attempts: 0,
    nextAttemptAt: delivery.receivedAt,
    prompt: null,
    answer: null,
    lastError: null,
    startedAt: null,
    finishedAt: null,
    attemptLog: [],
    agent: null,
  };
}

/**
 * The answer as a target that has no place for line comments gets it: the summary, then one line
 * per comment (`path:line — body`), so nothing the agent said is lost on the way.
 *
 * @example answerWithLineComments('Looks good.', [{ path: 'src/a.ts', line: 12, body: 'off by one' }])
 * // 'Looks good.\n\nsrc/a.ts:12 — off by one'
 */
export function answerWithLineComments(
  summary: string,
  lineComments: readonly LineComment[],
): string {
  if (lineComments.length === 0) return summary;
  const lines = lineComments.map(
    (comment) =>
      `${lineCommentPlace(comment)} — ${comment.body}` +
      (comment.suggestion !== undefined ? `\n${suggestionAsText(comment.suggestion)}` : ''),
  );
  return [summary.trimEnd(), lines.join('\n')].filter((part) => part !== '').join('\n\n');
}

/**
 * The JSON text a store journals a delivery's payload or headers as; what has no JSON form is
 * refused with an error that names the delivery and its route.
 */
export function journalJson(value: unknown, what: string, delivery: NewDelivery): string {
  try {
    const text = JSON.stringify(value);
    if (typeof text !== 'string') throw new Error('it has no JSON form');
    return text;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(
      `cannot journal the ${what} of delivery ${delivery.deliveryId} on route ${delivery.route}: ` +
        `it is not serializable as JSON (${reason})`,
    );
  }
}
