import { describe, expect, it } from 'vitest';
import type { AttemptEvent, RequestEvent } from '@webhook-gateway/core';
import { createGatewayMetrics, requestRouteLabel } from './metrics.js';
import { deliveryRecord } from './test-support/records.js';

function metricsFor(queue = { queuedCount: 0, runningCount: 0 }) {
  return createGatewayMetrics({ queue, configuredRoutes: ['reviews'], defaultMetrics: false });
}

/** The value of one series of a counter or gauge, by metric name and exact labels. */
async function valueOf(
  metrics: ReturnType<typeof metricsFor>,
  name: string,
  labels: Record<string, string> = {},
): Promise<number | undefined> {
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  const key = (entries: Record<string, unknown>) => JSON.stringify(Object.entries(entries).sort());
  return metric?.values.find((v) => key(v.labels) === key(labels))?.value;
}

const request = (route: string, outcome: RequestEvent['outcome']): RequestEvent => ({
  route,
  outcome,
  status: 200,
  durationMs: 1,
});

const attempt = (overrides: Partial<AttemptEvent>): AttemptEvent => ({
  record: deliveryRecord(),
  target: 'log',
  status: 'delivered',
  durationMs: 10,
  runMs: 2_000,
  spent: undefined,
  ...overrides,
});

describe('requestRouteLabel', () => {
  it('labels unknown routes with the empty route, whatever the path said', () => {
    expect(requestRouteLabel(request('../../etc', 'unknown_route'), new Set())).toBe('');
  });

  it('labels an error on a route never resolved as unknown', () => {
    expect(requestRouteLabel(request('random-123', 'error'), new Set(['reviews']))).toBe('');
    expect(requestRouteLabel(request('reviews', 'error'), new Set(['reviews']))).toBe('reviews');
  });

  it('keeps the route of any outcome reached after the route was resolved', () => {
    expect(requestRouteLabel(request('dynamic-sub', 'unauthorized'), new Set())).toBe(
      'dynamic-sub',
    );
  });
});

describe('createGatewayMetrics', () => {
  it('counts requests by route and outcome, folding unknown routes into one series', async () => {
    const metrics = metricsFor();
    metrics.observeRequest(request('reviews', 'accepted'));
    metrics.observeRequest(request('reviews', 'accepted'));
    metrics.observeRequest(request('reviews', 'duplicate'));
    metrics.observeRequest(request('nope-1', 'unknown_route'));
    metrics.observeRequest(request('nope-2', 'unknown_route'));
    expect(
      await valueOf(metrics, 'webhook_requests_total', { route: 'reviews', outcome: 'accepted' }),
    ).toBe(2);
    expect(
      await valueOf(metrics, 'webhook_requests_total', { route: 'reviews', outcome: 'duplicate' }),
    ).toBe(1);
    expect(
      await valueOf(metrics, 'webhook_requests_total', { route: '', outcome: 'unknown_route' }),
    ).toBe(2);
    const text = await metrics.registry.metrics();
    expect(text).not.toContain('nope-1');
  });

  it('counts superseded deliveries by route from accepted requests', async () => {
    const metrics = metricsFor();
    metrics.observeRequest({ ...request('reviews', 'accepted'), superseded: 2 });
    metrics.observeRequest(request('reviews', 'accepted'));
    metrics.observeRequest({ ...request('reviews', 'accepted'), superseded: 1 });
    expect(
      await valueOf(metrics, 'webhook_deliveries_superseded_total', { route: 'reviews' }),
    ).toBe(3);
  });

  it('counts what reviews did with their findings by route and outcome, thread errors too', async () => {
    const metrics = metricsFor();
    const counts = { new: 3, stillOpen: 0, resolved: 0, suppressed: 0, resolveErrors: 0 };
    metrics.observeFindings({ route: 'reviews', target: 'forge_review', counts });
    metrics.observeFindings({
      route: 'reviews',
      target: 'forge_review',
      counts: { new: 1, stillOpen: 2, resolved: 2, suppressed: 1, resolveErrors: 1 },
    });
    const value = (outcome: string) =>
      valueOf(metrics, 'webhook_review_findings_total', { route: 'reviews', outcome });
    expect(await value('new')).toBe(4);
    expect(await value('still_open')).toBe(2);
    expect(await value('resolved')).toBe(2);
    expect(await value('suppressed')).toBe(1);
    expect(await value('thread_error')).toBe(1);
  });

  it('reads the pauses at scrape time: 1 for a paused route, all of them under a pause of every route', async () => {
    let pauses: { route: string | null; reason: string | null; since: number }[] = [
      { route: 'reviews', reason: null, since: 1 },
    ];
    const metrics = createGatewayMetrics({
      queue: { queuedCount: 0, runningCount: 0 },
      configuredRoutes: ['reviews', 'pushes'],
      pauses: async () => pauses,
      defaultMetrics: false,
    });
    expect(await valueOf(metrics, 'webhook_route_paused', { route: 'reviews' })).toBe(1);
    expect(await valueOf(metrics, 'webhook_route_paused', { route: 'pushes' })).toBe(0);
    pauses = [{ route: null, reason: 'outage', since: 2 }];
    expect(await valueOf(metrics, 'webhook_route_paused', { route: 'pushes' })).toBe(1);
    pauses = [];
    expect(await valueOf(metrics, 'webhook_route_paused', { route: 'reviews' })).toBe(0);
  });

  it('reads the queue gauges at scrape time', async () => {
    const queue = { queuedCount: 3, runningCount: 1 };
    const metrics = metricsFor(queue);
    expect(await valueOf(metrics, 'webhook_queue_depth')).toBe(3);
    expect(await valueOf(metrics, 'webhook_deliveries_running')).toBe(1);
    queue.queuedCount = 0;
    expect(await valueOf(metrics, 'webhook_queue_depth')).toBe(0);
  });

  it('counts attempts by target and status, and final failures apart', async () => {
    const metrics = metricsFor();
    metrics.observeAttempt(attempt({ status: 'retry', error: 'boom' }));
    metrics.observeAttempt(attempt({ status: 'failed', error: 'boom', runMs: undefined }));
    metrics.observeAttempt(attempt({ target: 'sms', status: 'delivered' }));
    expect(
      await valueOf(metrics, 'webhook_delivery_attempts_total', { target: 'log', status: 'retry' }),
    ).toBe(1);
    expect(
      await valueOf(metrics, 'webhook_delivery_attempts_total', {
        target: 'log',
        status: 'failed',
      }),
    ).toBe(1);
    expect(
      await valueOf(metrics, 'webhook_delivery_attempts_total', {
        target: 'sms',
        status: 'delivered',
      }),
    ).toBe(1);
    expect(await valueOf(metrics, 'webhook_delivery_failures_total', { target: 'log' })).toBe(1);
    expect(
      await valueOf(metrics, 'webhook_delivery_failures_total', { target: 'sms' }),
    ).toBeUndefined();
  });

  it('counts partial deliveries by route, and only when delivered', async () => {
    const metrics = metricsFor();
    const partial = deliveryRecord({ route: 'reviews', partial: true });
    metrics.observeAttempt(attempt({ record: partial }));
    metrics.observeAttempt(attempt({ record: partial, status: 'retry', error: 'sink 502' }));
    metrics.observeAttempt(attempt({ record: deliveryRecord({ route: 'reviews' }) }));
    expect(await valueOf(metrics, 'webhook_deliveries_partial_total', { route: 'reviews' })).toBe(
      1,
    );
  });

  it('observes run durations in seconds by route', async () => {
    const metrics = metricsFor();
    metrics.observeAttempt(attempt({ runMs: 2_000 }));
    metrics.observeAttempt(attempt({ runMs: 40_000 }));
    const text = await metrics.registry.metrics();
    expect(text).toContain('webhook_agent_run_duration_seconds_count{route="reviews"} 2');
    expect(text).toContain('webhook_agent_run_duration_seconds_sum{route="reviews"} 42');
    expect(text).toContain('webhook_agent_run_duration_seconds_bucket{le="2.5",route="reviews"} 1');
  });

  it('counts redactions and hidden content by route, from what each attempt took out', async () => {
    const metrics = metricsFor();
    metrics.observeAttempt(attempt({ safety: { redactions: 3 } }));
    metrics.observeAttempt(
      attempt({
        safety: {
          hidden: [
            { field: 'pull_request.body', removed: { 'HTML comment': 1, 'bidi control': 3 } },
            { field: 'pull_request.title', removed: { 'zero-width character': 2 } },
          ],
        },
      }),
    );
    metrics.observeAttempt(attempt({}));
    expect(await valueOf(metrics, 'webhook_secrets_redacted_total', { route: 'reviews' })).toBe(3);
    expect(await valueOf(metrics, 'webhook_hidden_content_total', { route: 'reviews' })).toBe(6);
  });

  it('adds tokens by route only for attempts in which the agent ran', async () => {
    const usage = { promptTokens: 120, completionTokens: 30, totalTokens: 150 };
    const spent = { runner: 'openai', usage };
    const record = deliveryRecord({ agent: spent });
    const metrics = metricsFor();
    metrics.observeAttempt(attempt({ record, spent, status: 'retry', error: 'target down' }));
    // the next attempt reuses the kept answer: no new run, no new tokens
    metrics.observeAttempt(attempt({ record, runMs: undefined, spent: undefined }));
    expect(
      await valueOf(metrics, 'webhook_agent_tokens_total', {
        route: 'reviews',
        model: 'openai',
        kind: 'prompt',
      }),
    ).toBe(120);
    expect(
      await valueOf(metrics, 'webhook_agent_tokens_total', {
        route: 'reviews',
        model: 'openai',
        kind: 'completion',
      }),
    ).toBe(30);
  });

  it('counts the tokens of a run that failed, and each attempt only once', async () => {
    const first = {
      runner: 'openai',
      model: 'gpt-x',
      usage: { promptTokens: 900, completionTokens: 100, totalTokens: 1000 },
    };
    const second = {
      runner: 'openai',
      model: 'gpt-x',
      usage: { promptTokens: 500, completionTokens: 50, totalTokens: 550 },
    };
    const metrics = metricsFor();
    metrics.observeAttempt(
      attempt({ status: 'retry', runMs: undefined, spent: first, error: 'upstream 502' }),
    );
    // the delivery's total is on the record; the counter takes this attempt's run alone
    const total = {
      ...second,
      usage: { promptTokens: 1400, completionTokens: 150, totalTokens: 1550 },
    };
    metrics.observeAttempt(attempt({ record: deliveryRecord({ agent: total }), spent: second }));
    expect(
      await valueOf(metrics, 'webhook_agent_tokens_total', {
        route: 'reviews',
        model: 'gpt-x',
        kind: 'prompt',
      }),
    ).toBe(1400);
  });

  it('counts the cached part of the prompt tokens on a counter of its own, leaving the kinds as they were', async () => {
    const metrics = metricsFor();
    const usage = {
      promptTokens: 2000,
      cachedPromptTokens: 1536,
      completionTokens: 90,
      totalTokens: 2090,
    };
    metrics.observeAttempt(attempt({ spent: { runner: 'openai', model: 'm', usage } }));
    // A row of a runner that does not say what was cached adds none.
    const older = { promptTokens: 500, completionTokens: 10, totalTokens: 510 };
    metrics.observeAttempt(attempt({ spent: { runner: 'openai', model: 'm', usage: older } }));
    expect(
      await valueOf(metrics, 'webhook_agent_cached_prompt_tokens_total', {
        route: 'reviews',
        model: 'm',
      }),
    ).toBe(1536);
    const kinds = (await metrics.registry.getSingleMetricAsString('webhook_agent_tokens_total'))
      .split('\n')
      .filter((line) => line.startsWith('webhook_agent_tokens_total{'));
    expect(kinds).toEqual([
      'webhook_agent_tokens_total{route="reviews",model="m",kind="prompt"} 2500',
      'webhook_agent_tokens_total{route="reviews",model="m",kind="completion"} 100',
    ]);
  });

  it('adds money by route, model and currency when the run has a cost', async () => {
    const metrics = metricsFor();
    const usage = { promptTokens: 1000, completionTokens: 1000, totalTokens: 2000 };
    metrics.observeAttempt(attempt({ spent: { runner: 'openai', model: 'm', usage } }));
    expect(await valueOf(metrics, 'webhook_agent_cost_total', {})).toBeUndefined();
    const cost = { amount: 0.018, currency: 'USD' };
    metrics.observeAttempt(attempt({ spent: { runner: 'openai', model: 'm', usage, cost } }));
    metrics.observeAttempt(attempt({ spent: { runner: 'openai', model: 'm', usage, cost } }));
    expect(
      await valueOf(metrics, 'webhook_agent_cost_total', {
        route: 'reviews',
        model: 'm',
        currency: 'USD',
      }),
    ).toBeCloseTo(0.036, 9);
  });

  it('ignores a negative token count instead of throwing in a hook', () => {
    const usage = { promptTokens: -1, completionTokens: Number.NaN, totalTokens: 0 };
    const metrics = metricsFor();
    expect(() =>
      metrics.observeAttempt(
        attempt({
          spent: { runner: 'x', usage, cost: { amount: Number.NaN, currency: 'USD' } },
        }),
      ),
    ).not.toThrow();
  });
});

describe('reconcile passes', () => {
  it('show the last pass per route and outcome, count redeliveries, and flag a route that failed', async () => {
    const metrics = metricsFor();
    expect(metrics.lastReconcile).toBeUndefined();
    metrics.observeReconcile({
      startedAt: 1_000,
      finishedAt: 2_000,
      routes: [{ route: 'reviews', listed: 9, journaled: 5, redelivered: 4, failed: 0 }],
    });
    metrics.observeReconcile({
      startedAt: 600_000,
      finishedAt: 601_000,
      routes: [
        { route: 'reviews', listed: 10, journaled: 9, redelivered: 1, failed: 0 },
        {
          route: 'merges',
          listed: 0,
          journaled: 0,
          redelivered: 0,
          failed: 0,
          error: 'glab is not authenticated',
        },
      ],
    });
    expect(await valueOf(metrics, 'webhook_reconcile_last_pass_timestamp_seconds')).toBe(601);
    expect(
      await valueOf(metrics, 'webhook_reconcile_last_pass_deliveries', {
        route: 'reviews',
        outcome: 'listed',
      }),
    ).toBe(10);
    expect(
      await valueOf(metrics, 'webhook_reconcile_last_pass_deliveries', {
        route: 'reviews',
        outcome: 'journaled',
      }),
    ).toBe(9);
    expect(
      await valueOf(metrics, 'webhook_reconcile_redeliveries_total', { route: 'reviews' }),
    ).toBe(5);
    expect(await valueOf(metrics, 'webhook_reconcile_last_pass_error', { route: 'merges' })).toBe(
      1,
    );
    expect(await valueOf(metrics, 'webhook_reconcile_last_pass_error', { route: 'reviews' })).toBe(
      0,
    );
    expect(metrics.lastReconcile?.routes.map((r) => r.route)).toEqual(['reviews', 'merges']);
  });
});
