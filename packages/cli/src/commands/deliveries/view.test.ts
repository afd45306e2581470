import { describe, expect, it } from 'vitest';
import { T0, testRecord } from './test-support/delivery-record.js';
import { deliveryDetail, deliverySummary } from './view.js';

describe('deliverySummary', () => {
  it('gives times as ISO text and the duration in ms', () => {
    expect(deliverySummary(testRecord())).toEqual({
      id: '0b8e5a52-2f7c-4f0e-9d55-0c1f3c1f9a11',
      deliveryId: '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      route: 'reviews',
      event: 'pull_request',
      action: 'opened',
      status: 'delivered',
      attempts: 2,
      maxAttempts: 5,
      receivedAt: new Date(T0).toISOString(),
      startedAt: new Date(T0 + 40).toISOString(),
      finishedAt: new Date(T0 + 1_900).toISOString(),
      durationMs: 1_860,
      lastError: 'messenger_c (Slack): sending to channel C1 failed: Slack answered HTTP 500',
      tokens: null,
      cost: null,
      partial: false,
      queue: null,
    });
    expect(deliverySummary(testRecord({ partial: true })).partial).toBe(true);
  });

  it('gives the tokens and cost of every attempt together', () => {
    const agent = {
      runner: 'openai',
      usage: { promptTokens: 2000, completionTokens: 500, totalTokens: 2500 },
      cost: { amount: 0.0135, currency: 'USD' },
    };
    expect(deliverySummary(testRecord({ agent }))).toMatchObject({
      tokens: 2500,
      cost: { amount: 0.0135, currency: 'USD' },
    });
  });
});

describe('deliveryDetail', () => {
  it('adds headers, payload, prompt, answer and each attempt with its duration', () => {
    const detail = deliveryDetail(testRecord());
    expect(detail.headers['x-forge-event']).toBe('pull_request');
    expect(detail.payload).toEqual({ action: 'opened', number: 2 });
    expect(detail.prompt).toBe('Review PR #2');
    expect(detail.answer).toBe('Looks good.');
    expect(detail.lineComments).toEqual([]);
    expect(detail.attemptLog.map((a) => [a.attempt, a.durationMs, a.error === null])).toEqual([
      [1, 500, false],
      [2, 400, true],
    ]);
  });

  it("carries the agent's line comments next to the answer", () => {
    const lineComments = [{ path: 'src/a.ts', line: 12, body: 'off by one' }];
    expect(deliveryDetail(testRecord({ lineComments })).lineComments).toEqual(lineComments);
  });

  it("carries the agent's conclusion, null when it gave none", () => {
    const conclusion = { value: 'success' as const };
    expect(deliveryDetail(testRecord({ conclusion })).conclusion).toEqual(conclusion);
    expect(deliveryDetail(testRecord()).conclusion).toBeNull();
  });

  it("lists the request's findings with their fates as this review saw them", () => {
    const record = testRecord();
    const finding = {
      fingerprint: 'a1',
      path: 'src/a.ts',
      line: 2,
      body: 'b is unused',
      lineText: 'const b = 2;',
      state: 'open' as const,
      raisedBy: 'earlier',
    };
    const detail = deliveryDetail(record, [
      finding,
      { ...finding, fingerprint: 'a2', raisedBy: record.deliveryId },
    ]);
    expect(detail.findings.map((f) => [f.fingerprint, f.fate])).toEqual([
      ['a1', 'open'],
      ['a2', 'new'],
    ]);
    expect(deliveryDetail(record).findings).toEqual([]);
  });

  it('has a next attempt time only while queued', () => {
    expect(deliveryDetail(testRecord()).nextAttemptAt).toBeNull();
    expect(deliveryDetail(testRecord({ status: 'queued', finishedAt: null })).nextAttemptAt).toBe(
      new Date(T0 + 1_000).toISOString(),
    );
  });
});

describe('the queue of a queued delivery', () => {
  it('gives its place, its expected start and why it waits, times as ISO text', () => {
    const record = testRecord({ status: 'queued', attempts: 0, finishedAt: null });
    const standings = new Map([
      [
        record.id,
        {
          id: record.id,
          route: record.route,
          position: 3,
          queuedOnRoute: 4,
          estimatedStartAt: T0 + 120_000,
          reasons: [{ kind: 'backoff' as const, until: T0 + 30_000 }],
        },
      ],
    ]);
    expect(deliverySummary(record, standings, T0).queue).toEqual({
      position: 3,
      queuedOnRoute: 4,
      estimatedStartAt: '2025-01-15T10:02:00.000Z',
      text: '3rd, about 2 min',
      waitingFor: [
        {
          kind: 'backoff',
          text: 'backoff until 2025-01-15T10:00:30Z',
          until: '2025-01-15T10:00:30.000Z',
        },
      ],
    });
    expect(deliverySummary({ ...record, status: 'running' }, standings, T0).queue).toBeNull();
  });
});
