import type { StandingsRead } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { queuePage, queueTables } from './queue-page.js';

const NOW = Date.UTC(2026, 0, 2, 3, 4, 5);

const read: StandingsRead = {
  now: NOW,
  running: [
    { id: 'j-1', route: 'reviews', orderKey: 'reviews|octo/repo|7', startedAt: NOW - 65_000 },
  ],
  queued: [
    {
      id: 'j-2',
      seq: 2,
      route: 'reviews',
      deliveryId: '<b>hostile</b>',
      orderKey: 'reviews|octo/repo|7',
      nextAttemptAt: NOW,
      attempts: 0,
    },
  ],
  standings: new Map([
    [
      'j-2',
      {
        id: 'j-2',
        route: 'reviews',
        position: 1,
        queuedOnRoute: 1,
        estimatedStartAt: NOW + 120_000,
        reasons: [{ kind: 'pull_request', blockedBy: 'j-1', blockerRunning: true }],
      },
    ],
  ]),
};

describe('queuePage', () => {
  it('shows the running attempt and the queued delivery with its place, start and reason, escaped', () => {
    const text = queueTables(read).toString();
    expect(text).toMatch(/data-running-id="j-1"[\s\S]*octo\/repo#7[\s\S]*1 min 5 s/);
    expect(text).toMatch(/data-queued-id="j-2" data-position="1"/);
    expect(text).toContain('&lt;b&gt;hostile&lt;/b&gt;');
    expect(text).toContain('1st, about 2 min');
    expect(text).toContain('2026-01-02 03:06:05 UTC');
    expect(text).toContain('behind the same pull request&#39;s running review (j-1)');
  });

  it('says when nothing runs or waits, and refreshes its tables from the fragment', () => {
    const empty = { now: NOW, running: [], queued: [], standings: new Map() };
    const text = queuePage({ read: empty, refreshMs: 3000 }).toString();
    expect(text).toContain('Nothing is running.');
    expect(text).toContain('Nothing is queued.');
    expect(text).toContain('data-refresh="/dashboard/fragments/queue"');
    expect(text).toContain('<a href="/dashboard/queue" aria-current="page">Queue</a>');
  });
});
