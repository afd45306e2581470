import { describe, expect, it } from 'vitest';
import { queueStandings, typicalRunMs, type QueueSnapshot } from './queue-standing.js';
import { ordinal, standingText, waitReasonText } from './queue-standing-text.js';
import type { QueuedDelivery } from './store.js';

const NOW = 1_000_000;
const MINUTE = 60_000;

function queued(seq: number, fields: Partial<QueuedDelivery> = {}): QueuedDelivery {
  return {
    id: `d${seq}`,
    seq,
    route: 'review',
    deliveryId: `g${seq}`,
    orderKey: null,
    nextAttemptAt: NOW - 1,
    attempts: 0,
    ...fields,
  };
}

function snapshot(fields: Partial<QueueSnapshot>): QueueSnapshot {
  return {
    queued: [],
    running: [],
    limits: { concurrency: 4, routeConcurrency: {}, retryBackoffMs: 1000 },
    runMs: new Map([['review', 2 * MINUTE]]),
    now: NOW,
    ...fields,
  };
}

describe('queueStandings', () => {
  it('places a route limited to one at 1st, 2nd, 3rd behind its running attempt, two minutes apart', () => {
    const standings = queueStandings(
      snapshot({
        limits: { concurrency: 4, routeConcurrency: { review: 1 }, retryBackoffMs: 1000 },
        running: [{ id: 'r0', route: 'review', orderKey: null, startedAt: NOW - MINUTE }],
        queued: [queued(1), queued(2), queued(3)],
      }),
    );
    expect([1, 2, 3].map((seq) => standings.get(`d${seq}`)?.position)).toEqual([1, 2, 3]);
    expect(standings.get('d1')?.estimatedStartAt).toBe(NOW + MINUTE);
    expect(standings.get('d3')?.estimatedStartAt).toBe(NOW + 5 * MINUTE);
    expect(standings.get('d1')?.reasons).toEqual([{ kind: 'route_concurrency', limit: 1 }]);
    expect(standingText(standings.get('d3')!, NOW)).toBe('3rd, about 5 min');
  });

  it("names the same pull request's running review for each of its queued deliveries", () => {
    const key = 'review|o/r|7';
    const standings = queueStandings(
      snapshot({
        running: [{ id: 'r0', route: 'review', orderKey: key, startedAt: NOW }],
        queued: [queued(1, { orderKey: key }), queued(2, { orderKey: key }), queued(3)],
      }),
    );
    expect(standings.get('d1')?.reasons).toEqual([
      { kind: 'pull_request', blockedBy: 'r0', blockerRunning: true },
    ]);
    expect(standings.get('d2')?.reasons).toEqual([
      { kind: 'pull_request', blockedBy: 'r0', blockerRunning: true },
    ]);
    // Another request's delivery starts now, ahead of both.
    expect(standings.get('d3')).toMatchObject({ position: 1, reasons: [], estimatedStartAt: NOW });
    expect(standings.get('d1')?.position).toBe(2);
    expect(standings.get('d2')?.estimatedStartAt).toBe(NOW + 4 * MINUTE);
  });

  it('tells a backoff from a coalescing window by the attempts made', () => {
    const standings = queueStandings(
      snapshot({
        queued: [
          queued(1, { attempts: 1, nextAttemptAt: NOW + 30_000 }),
          queued(2, { nextAttemptAt: NOW + 10_000 }),
        ],
      }),
    );
    expect(standings.get('d1')?.reasons).toEqual([{ kind: 'backoff', until: NOW + 30_000 }]);
    expect(standings.get('d2')?.reasons).toEqual([{ kind: 'coalescing', until: NOW + 10_000 }]);
    expect(standings.get('d2')?.position).toBe(1);
    expect(waitReasonText({ kind: 'coalescing', until: 0 })).toBe(
      'coalescing window until 1970-01-01T00:00:00Z',
    );
  });

  it('counts the global concurrency, and gives no estimate for a route with no run time yet', () => {
    const standings = queueStandings(
      snapshot({
        limits: { concurrency: 1, routeConcurrency: {}, retryBackoffMs: 1000 },
        runMs: new Map(),
        running: [{ id: 'r0', route: 'other', orderKey: null, startedAt: NOW }],
        queued: [queued(1), queued(2)],
      }),
    );
    expect(standings.get('d1')?.reasons).toEqual([{ kind: 'concurrency', limit: 1 }]);
    expect(standings.get('d2')).toMatchObject({ position: 2, estimatedStartAt: undefined });
    expect(standingText(standings.get('d2')!, NOW)).toBe('2nd');
  });

  it('names an earlier queued delivery of the same pull request that waits for its backoff', () => {
    const key = 'review|o/r|7';
    const standings = queueStandings(
      snapshot({
        queued: [
          queued(1, { orderKey: key, attempts: 1, nextAttemptAt: NOW + MINUTE }),
          queued(2, { orderKey: key }),
        ],
      }),
    );
    expect(standings.get('d2')?.reasons).toEqual([
      { kind: 'pull_request', blockedBy: 'd1', blockerRunning: false },
    ]);
    expect(standings.get('d2')).toMatchObject({ position: 2, estimatedStartAt: NOW + 3 * MINUTE });
  });

  it('puts a hold from outside first and gives it no start', () => {
    const standings = queueStandings(
      snapshot({ queued: [queued(1)], heldBack: () => ({ kind: 'paused' }) }),
    );
    expect(standings.get('d1')).toMatchObject({
      position: 1,
      estimatedStartAt: undefined,
      reasons: [{ kind: 'paused' }],
    });
    expect(standingText(standings.get('d1')!, NOW)).toBe('1st, paused');
  });
});

describe('typicalRunMs', () => {
  it('is the median of the newest finished attempts', () => {
    const attempt = (ms: number) => ({ attempt: 1, startedAt: 0, finishedAt: ms, error: null });
    expect(
      typicalRunMs([
        { attemptLog: [attempt(10), { ...attempt(0), finishedAt: null }] },
        { attemptLog: [attempt(30), attempt(20)] },
      ]),
    ).toBe(20);
    expect(typicalRunMs([{ attemptLog: [] }])).toBeUndefined();
  });
});

describe('ordinal', () => {
  it('says 1st, 2nd, 3rd, 4th, 11th, 12th, 13th, 21st, 102nd', () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 102].map(ordinal)).toEqual([
      '1st',
      '2nd',
      '3rd',
      '4th',
      '11th',
      '12th',
      '13th',
      '21st',
      '102nd',
    ]);
  });
});
