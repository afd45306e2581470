import { describe, expect, it } from 'vitest';
import { formatTime } from '../../table.js';
import {
  COST_HEADER,
  LIST_HEADER,
  QUEUE_HEADER,
  deliveryListRow,
  formatDeliveryList,
} from './list-format.js';
import { testRecord } from './test-support/delivery-record.js';

describe('formatDeliveryList', () => {
  it('marks a partial delivery in its status column', () => {
    const lines = formatDeliveryList([testRecord({ partial: true }), testRecord()]).split('\n');
    expect(lines[1]).toMatch(/ delivered \(partial\) /);
    expect(lines[2]).not.toContain('partial');
  });

  it('shows one aligned row per delivery under the header, whole ids kept', () => {
    const first = testRecord();
    const second = testRecord({
      id: 'c5a1d3e0-0000-4000-8000-000000000002',
      route: 'merge-requests',
      event: 'Merge Request Hook',
      action: null,
      deliveryId: 'mr-1',
      status: 'queued',
      attempts: 0,
      finishedAt: null,
      attemptLog: [],
    });
    const lines = formatDeliveryList([first, second]).split('\n');
    expect(lines).toHaveLength(3);
    for (const name of LIST_HEADER) expect(lines[0]).toContain(name);
    // Every column starts at the same offset on every line.
    const statusAt = lines[0]?.indexOf('STATUS');
    expect(lines[1]?.indexOf('delivered')).toBe(statusAt);
    expect(lines[2]?.indexOf('queued')).toBe(statusAt);
    expect(lines[1]).toContain(first.id);
    expect(lines[1]).toContain(first.deliveryId);
  });

  it('fills a row with readable values', () => {
    expect(deliveryListRow(testRecord())).toEqual([
      '0b8e5a52-2f7c-4f0e-9d55-0c1f3c1f9a11',
      formatTime(testRecord().receivedAt),
      'reviews',
      'pull_request',
      'opened',
      '72d3162e-cc78-11e3-81ab-4c9367dc0958',
      'delivered',
      '2/5',
      '1.9 s',
      '-',
    ]);
    const counted = testRecord({
      agent: {
        runner: 'openai',
        usage: { promptTokens: 900, completionTokens: 334, totalTokens: 1234 },
      },
    });
    expect(deliveryListRow(counted)[9]).toBe('1234');
    const queued = deliveryListRow(
      testRecord({ action: null, status: 'queued', finishedAt: null }),
    );
    expect(queued[4]).toBe('-');
    expect(queued[8]).toBe('-');
  });

  it('adds a cost column only when a listed delivery has a cost', () => {
    const usage = { promptTokens: 1000, completionTokens: 100, totalTokens: 1100 };
    const unpriced = testRecord({ agent: { runner: 'openai', usage } });
    expect(formatDeliveryList([unpriced]).split('\n')[0]).not.toContain(COST_HEADER);
    const priced = testRecord({
      id: 'c5a1d3e0-0000-4000-8000-000000000003',
      agent: { runner: 'openai', usage, cost: { amount: 0.0045, currency: 'USD' } },
    });
    const lines = formatDeliveryList([priced, unpriced]).split('\n');
    expect(lines[0]?.trimEnd().endsWith(COST_HEADER)).toBe(true);
    expect(lines[1]?.trimEnd().endsWith('0.0045 USD')).toBe(true);
    expect(lines[2]?.trimEnd().endsWith('-')).toBe(true);
    expect(deliveryListRow(priced)).toHaveLength(LIST_HEADER.length);
  });

  it('adds a queue column when a listed delivery is queued: its place and expected start', () => {
    const queued = testRecord({ status: 'queued', attempts: 0 });
    const delivered = testRecord({ id: 'c5a1d3e0-0000-4000-8000-000000000004' });
    const standing = {
      id: queued.id,
      route: queued.route,
      position: 2,
      queuedOnRoute: 2,
      estimatedStartAt: 1_000 + 240_000,
      reasons: [{ kind: 'route_concurrency' as const, limit: 1 }],
    };
    expect(formatDeliveryList([delivered]).split('\n')[0]).not.toContain(QUEUE_HEADER);
    const lines = formatDeliveryList(
      [queued, delivered],
      {},
      new Map([[queued.id, standing]]),
      1_000,
    ).split('\n');
    expect(lines[0]?.trimEnd().endsWith(QUEUE_HEADER)).toBe(true);
    expect(lines[1]?.trimEnd().endsWith('2nd, about 4 min')).toBe(true);
    expect(lines[2]?.trimEnd().endsWith('-')).toBe(true);
  });

  it("escapes control characters of the sender's action", () => {
    const row = deliveryListRow(testRecord({ action: 'opened\u001b[8m' }));
    expect(row[4]).toBe('opened\\x1b[8m');
  });

  it('says when nothing matched, naming the filters', () => {
    expect(formatDeliveryList([])).toBe('no deliveries in the journal');
    expect(formatDeliveryList([], { route: 'reviews', status: 'failed' })).toBe(
      'no deliveries with route reviews and status failed',
    );
  });
});
