/** A DeliverRequest as the worker pool builds one, for calling a target directly. */
import {
  answerWithLineComments,
  parseConfig,
  type DeliverRequest,
  type DeliveryRecord,
  type GatewayPlugin,
  type LineComment,
  type Logger,
} from '@webhook-gateway/core';

let nextId = 1;

/** A journal row with the fields a target reads. */
export function fakeDelivery(overrides: Partial<DeliveryRecord> = {}): DeliveryRecord {
  const id = `d${nextId++}`;
  return {
    id,
    seq: nextId,
    route: 'review',
    event: 'pull_request',
    action: 'opened',
    deliveryId: `delivery-${id}`,
    receivedAt: Date.now(),
    payload: {},
    headers: {},
    orderKey: null,
    maxAttempts: 5,
    status: 'running',
    attempts: 1,
    nextAttemptAt: 0,
    prompt: 'prompt',
    answer: null,
    lastError: null,
    startedAt: Date.now(),
    finishedAt: null,
    attemptLog: [],
    agent: null,
    ...overrides,
  };
}

/**
 * A request for `answer` (the summary, followed by `lineComments` as the worker writes them) with
 * `platforms` (raw config, core's keys and the slices of `plugins`)
 * and rendered `extra`.
 */
export function deliverRequest(options: {
  answer: string;
  lineComments?: LineComment[];
  platforms?: Record<string, unknown>;
  /** The plugins whose slices `platforms` may hold. */
  plugins?: readonly GatewayPlugin<unknown>[];
  extra?: Record<string, unknown>;
  log: Logger;
  delivery?: DeliveryRecord;
  signal?: AbortSignal;
}): DeliverRequest {
  const config = parseConfig({ platforms: options.platforms ?? {} }, {}, options.plugins ?? []);
  const lineComments = options.lineComments ?? [];
  return {
    answer: answerWithLineComments(options.answer, lineComments),
    summary: options.answer,
    lineComments,
    conclusion: { value: 'neutral' },
    delivery: options.delivery ?? fakeDelivery(),
    routeConfig: {
      events: [],
      actions: [],
      filters: {},
      skills: [],
      deliver: 'log',
      deliver_extra: {},
    },
    extra: options.extra ?? {},
    config,
    log: options.log,
    signal: options.signal ?? new AbortController().signal,
  };
}
