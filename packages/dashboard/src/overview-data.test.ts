import type { AgentAccounting, AgentCost, DeliveryRecord } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import {
  agentTimeByRoute,
  agentTimeMs,
  costOf,
  DAY_MS,
  HOUR_MS,
  largestSeries,
  outcomesPerHour,
  percentile,
  unitStarts,
  usagePerDay,
} from './overview-data.js';
import { deliveryRecord } from './test-support/records.js';

/** 2025-01-10 12:30 UTC. */
const now = Date.UTC(2025, 0, 10, 12, 30);
const thisHour = Date.UTC(2025, 0, 10, 12);
const today = Date.UTC(2025, 0, 10);

/** A row that ran one attempt of `ms` with `tokens`, received at `receivedAt`. */
function ran(
  overrides: Partial<DeliveryRecord> & { ms?: number; tokens?: number; cost?: AgentCost },
): DeliveryRecord {
  const { ms = 1000, tokens = 100, cost, ...rest } = overrides;
  const receivedAt = rest.receivedAt ?? now - 60_000;
  const agent: AgentAccounting = {
    runner: 'openai',
    usage: { promptTokens: tokens - 10, completionTokens: 10, totalTokens: tokens },
    ...(cost === undefined ? {} : { cost }),
  };
  return deliveryRecord({
    receivedAt,
    attemptLog: [
      { attempt: 1, startedAt: receivedAt + 10, finishedAt: receivedAt + 10 + ms, error: null },
    ],
    agent,
    ...rest,
  });
}

describe('unitStarts', () => {
  it('gives the units ending with the one that holds now, oldest first', () => {
    expect(unitStarts(now, HOUR_MS, 3)).toEqual([
      thisHour - 2 * HOUR_MS,
      thisHour - HOUR_MS,
      thisHour,
    ]);
    expect(unitStarts(now, DAY_MS, 2)).toEqual([today - DAY_MS, today]);
  });
});

describe('outcomesPerHour', () => {
  it('counts finished rows by the hour they arrived, with ignored requests from the tally', () => {
    const rows = [
      deliveryRecord({ status: 'delivered', receivedAt: thisHour + 1 }),
      deliveryRecord({ status: 'delivered', receivedAt: thisHour + 2 }),
      deliveryRecord({ status: 'failed', receivedAt: thisHour - 1 }),
      deliveryRecord({ status: 'denied', receivedAt: thisHour - HOUR_MS }),
      deliveryRecord({ status: 'over_budget', receivedAt: thisHour - 2 * HOUR_MS }),
      deliveryRecord({ status: 'superseded', receivedAt: thisHour }),
      // Not finished: no outcome yet.
      deliveryRecord({ status: 'queued', receivedAt: thisHour }),
      deliveryRecord({ status: 'running', receivedAt: thisHour }),
      // Before the window.
      deliveryRecord({ status: 'delivered', receivedAt: thisHour - 2 * HOUR_MS - 1 }),
    ];
    const ignoredByHour = new Map([
      [thisHour, 4],
      [thisHour - 9 * HOUR_MS, 7],
    ]);
    const hours = outcomesPerHour(rows, { now, hours: 3, ignoredByHour });
    expect(hours).toEqual([
      {
        start: thisHour - 2 * HOUR_MS,
        counts: {
          delivered: 0,
          failed: 0,
          ignored: 0,
          superseded: 0,
          denied: 0,
          over_budget: 1,
          silent: 0,
          skipped: 0,
        },
      },
      {
        start: thisHour - HOUR_MS,
        counts: {
          delivered: 0,
          failed: 1,
          ignored: 0,
          superseded: 0,
          denied: 1,
          over_budget: 0,
          silent: 0,
          skipped: 0,
        },
      },
      {
        start: thisHour,
        counts: {
          delivered: 2,
          failed: 0,
          ignored: 4,
          superseded: 1,
          denied: 0,
          over_budget: 0,
          silent: 0,
          skipped: 0,
        },
      },
    ]);
  });
});

describe('agent time', () => {
  it('sums the finished attempts of a row whose agent ran', () => {
    const row = deliveryRecord({
      agent: { runner: 'openai' },
      attemptLog: [
        { attempt: 1, startedAt: 1000, finishedAt: 4000, error: 'timeout' },
        { attempt: 2, startedAt: 9000, finishedAt: 9500, error: null },
        { attempt: 3, startedAt: 9900, finishedAt: null, error: null },
      ],
    });
    expect(agentTimeMs(row)).toBe(3500);
    expect(agentTimeMs({ ...row, agent: null })).toBeNull();
    expect(agentTimeMs({ ...row, attemptLog: [] })).toBeNull();
  });

  it('takes nearest-rank percentiles', () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(values, 0.5)).toBe(5);
    expect(percentile(values, 0.95)).toBe(10);
    expect(percentile([42], 0.95)).toBe(42);
  });

  it('gives p50 and p95 per route over delivered and failed rows of the window', () => {
    const rows = [
      ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20].map((s) =>
        ran({ route: 'reviews', ms: s * 1000 }),
      ),
      ran({ route: 'triage', ms: 400, status: 'failed' }),
      ran({ route: 'triage', ms: 800 }),
      // Left out: refused before running, still running, and before the window.
      ran({ route: 'triage', ms: 99_000, status: 'denied', agent: null }),
      ran({ route: 'triage', ms: 99_000, status: 'running' }),
      ran({ route: 'triage', ms: 99_000, receivedAt: now - DAY_MS - 1 }),
    ];
    expect(agentTimeByRoute(rows, { since: now - DAY_MS })).toEqual([
      { route: 'reviews', runs: 20, p50Ms: 10_000, p95Ms: 19_000 },
      { route: 'triage', runs: 2, p50Ms: 400, p95Ms: 800 },
    ]);
  });
});

describe('usagePerDay', () => {
  it('sums tokens per route per UTC day of reception', () => {
    const rows = [
      ran({ route: 'reviews', tokens: 1500, receivedAt: today + 1 }),
      ran({ route: 'reviews', tokens: 500, receivedAt: today + 2 }),
      ran({ route: 'reviews', tokens: 300, receivedAt: today - 1 }),
      ran({ route: 'triage', tokens: 70, receivedAt: today - DAY_MS }),
      // The day before the window, and a row without usage.
      ran({ route: 'triage', tokens: 9999, receivedAt: today - DAY_MS - 1 }),
      deliveryRecord({ route: 'pushes', receivedAt: today + 3, agent: { runner: 'command' } }),
    ];
    const usage = usagePerDay(rows, { now, days: 2 });
    expect(usage.days).toEqual([today - DAY_MS, today]);
    expect(Object.fromEntries(usage.tokens)).toEqual({ reviews: [300, 2000], triage: [70, 0] });
    expect(usage.money.size).toBe(0);
    // Prompt tokens: each row's tokens less its 10 completion tokens; none said they were cached.
    expect(usage.prompt).toEqual({ tokens: 1490 + 490 + 290 + 60, cached: 0 });
  });

  it("sums the days' prompt tokens and their cached part, a row that did not say counting none cached", () => {
    const cached = (
      route: string,
      promptTokens: number,
      cachedPromptTokens: number,
      receivedAt = today + 1,
    ) =>
      deliveryRecord({
        route,
        receivedAt,
        agent: {
          runner: 'openai',
          usage: {
            promptTokens,
            cachedPromptTokens,
            completionTokens: 10,
            totalTokens: promptTokens + 10,
          },
        },
      });
    const rows = [
      cached('reviews', 2000, 1536),
      cached('triage', 1200, 1024),
      ran({ route: 'reviews', tokens: 510, receivedAt: today + 2 }),
      // Before the window: not counted.
      cached('reviews', 9000, 9000, today - 2 * DAY_MS),
    ];
    expect(usagePerDay(rows, { now, days: 2 }).prompt).toEqual({ tokens: 3700, cached: 2560 });
  });

  it('sums money per currency when rows carry a cost, ignoring malformed ones', () => {
    const rows = [
      ran({ route: 'reviews', receivedAt: today + 1, cost: { amount: 0.25, currency: 'USD' } }),
      ran({ route: 'reviews', receivedAt: today + 2, cost: { amount: 0.5, currency: 'USD' } }),
      ran({ route: 'triage', receivedAt: today - 5, cost: { amount: 1.5, currency: 'EUR' } }),
      ran({ route: 'triage', receivedAt: today + 5, cost: { amount: -1, currency: 'USD' } }),
      ran({
        route: 'triage',
        receivedAt: today + 6,
        cost: { amount: Number.NaN, currency: 'USD' },
      }),
    ];
    const usage = usagePerDay(rows, { now, days: 2 });
    expect([...usage.money.keys()]).toEqual(['USD', 'EUR']);
    expect(Object.fromEntries(usage.money.get('USD') ?? [])).toEqual({ reviews: [0, 0.75] });
    expect(Object.fromEntries(usage.money.get('EUR') ?? [])).toEqual({ triage: [1.5, 0] });
  });

  it('reads a cost only when it is a non-negative amount with a currency', () => {
    expect(costOf(ran({ cost: { amount: 0, currency: 'USD' } }))).toEqual({
      amount: 0,
      currency: 'USD',
    });
    expect(costOf(ran({ cost: { amount: Number.NaN, currency: 'USD' } }))).toBeUndefined();
    expect(costOf(ran({}))).toBeUndefined();
    expect(costOf(deliveryRecord({ agent: null }))).toBeUndefined();
  });
});

describe('largestSeries', () => {
  it('keeps the largest series and sums the rest as other routes', () => {
    const series = new Map([
      ['a', [1, 1]],
      ['b', [10, 0]],
      ['c', [0, 3]],
      ['d', [2, 2]],
    ]);
    expect([...largestSeries(series, 3)]).toEqual([
      ['b', [10, 0]],
      ['d', [2, 2]],
      ['other routes', [1, 4]],
    ]);
    expect([...largestSeries(series, 4)].map(([name]) => name)).toEqual(['b', 'd', 'c', 'a']);
  });
});
