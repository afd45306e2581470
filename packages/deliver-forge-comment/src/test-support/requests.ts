/** Builders for tests: a `DeliverRequest` as the worker pool makes one, and the shared fixtures. */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  answerWithLineComments,
  parseConfig,
  renderDeliverExtra,
  silentLogger,
  type DeliverRequest,
  type DeliveryRecord,
  type FindingsJournal,
  type JsonObject,
  type LineComment,
  type ReviewConclusion,
} from '@webhook-gateway/core';
import { routeSchema } from '@webhook-gateway/core/runtime';

const fixturesDir = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../test/fixtures',
);

/** A fixture payload, e.g. `fixture('forge/pull_request_opened.json')`. */
export function fixture(name: string): JsonObject {
  return JSON.parse(fs.readFileSync(path.join(fixturesDir, name), 'utf8')) as JsonObject;
}

/** The raw bytes of a fixture, to POST as a forge would. */
export function fixtureBytes(name: string): Buffer {
  return fs.readFileSync(path.join(fixturesDir, name));
}

/** The opened pull request `number` of octo/repo (the forge's fixture), its head at `sha` if given. */
export function openedPullRequest(number: number, sha?: string): JsonObject {
  const payload = fixture('forge/pull_request_opened.json');
  const pr = payload.pull_request as JsonObject;
  const head = sha === undefined ? {} : { head: { ...(pr.head as JsonObject), sha } };
  return {
    ...payload,
    number,
    pull_request: { ...pr, number, ...head },
    repository: { ...(payload.repository as JsonObject), full_name: 'octo/repo' },
  };
}

/** POSTs `payload` to `url` as the forge's unsigned `pull_request` delivery `deliveryId`; its status. */
export async function postPullRequest(
  url: string,
  deliveryId: string,
  payload: JsonObject,
): Promise<number> {
  const response = await fetch(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'X-GitHub-Event': 'pull_request',
      'X-GitHub-Delivery': deliveryId,
    },
    body: JSON.stringify(payload),
  });
  await response.arrayBuffer();
  return response.status;
}

export interface RequestOptions {
  payload: JsonObject;
  target?: string;
  /** The route's `deliver_extra` templates; rendered against the payload as the worker does. */
  deliverExtra?: Record<string, unknown>;
  /** The summary; the worker hands it on with the line comments after it as text. */
  answer?: string;
  lineComments?: LineComment[];
  conclusion?: ReviewConclusion;
  signal?: AbortSignal;
  /** The journal's findings of the route and request, as the worker hands them on. */
  findings?: FindingsJournal;
  /** The sender's delivery id (`delivery-1` unless given). */
  deliveryId?: string;
}

/**
 * A delivery request as the worker pool hands it to a target. The target's own settings
 * (`platforms.forge`, `platforms.altforge`) are not in it: the plugin passes them alongside.
 */
export function deliverRequest(options: RequestOptions): DeliverRequest {
  const config = parseConfig({}, {});
  const deliverExtra = options.deliverExtra ?? {};
  const routeConfig = routeSchema.parse({
    deliver: options.target ?? 'forge_comment',
    deliver_extra: deliverExtra,
  });
  const delivery: DeliveryRecord = {
    id: 'journal-1',
    seq: 1,
    route: 'reviews',
    event: 'pull_request',
    action: 'opened',
    deliveryId: options.deliveryId ?? 'delivery-1',
    receivedAt: 0,
    payload: options.payload,
    headers: {},
    orderKey: null,
    maxAttempts: 1,
    status: 'running',
    attempts: 1,
    nextAttemptAt: 0,
    prompt: null,
    answer: null,
    lastError: null,
    startedAt: 0,
    finishedAt: null,
    attemptLog: [],
    agent: null,
  };
  const summary = options.answer ?? 'Looks good.';
  const lineComments = options.lineComments ?? [];
  return {
    answer: answerWithLineComments(summary, lineComments),
    summary,
    lineComments,
    conclusion: options.conclusion ?? { value: 'neutral' },
    ...(options.findings ? { findings: options.findings } : {}),
    delivery,
    routeConfig,
    extra: renderDeliverExtra(deliverExtra, options.payload),
    config,
    log: silentLogger(),
    signal: options.signal ?? new AbortController().signal,
  };
}
