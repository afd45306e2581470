import { describe, expect, it } from 'vitest';
import {
  deliveredChange,
  failedChange,
  interruptedChange,
  replayChange,
  retryChange,
  rowAfter,
  runningChange,
  type RowHead,
} from './row-changes.js';
import { sampleDelivery } from '@webhook-gateway/core/testing';
import { queuedRecord } from '@webhook-gateway/core/store-kit';

const head: RowHead = {
  id: 'j-1',
  rev: 3,
  route: 'reviews',
  deliveryId: 'd-1',
  orderKey: 'reviews|octo/repo|7',
  status: 'queued',
  attempts: 1,
  startedAt: 100,
  attemptLog: [{ attempt: 1, startedAt: 100, finishedAt: 150, error: 'boom' }],
};

describe('row changes', () => {
  it('a run counts the attempt, opens it in the log and keeps the first start', () => {
    const change = runningChange(head, 200);
    expect(change?.status).toBe('running');
    expect(change?.set?.attempts).toBe('2');
    expect(change?.set?.startedAt).toBeUndefined();
    expect(JSON.parse(change?.set?.attemptLog ?? '')).toEqual([
      ...head.attemptLog,
      { attempt: 2, startedAt: 200, finishedAt: null, error: null },
    ]);
    expect(runningChange({ ...head, startedAt: null }, 200)?.set?.startedAt).toBe('200');
  });

  it('a superseded row never runs', () => {
    expect(runningChange({ ...head, status: 'superseded' }, 200)).toBeUndefined();
  });

  it('a finished row leaves its line; only a failure releases the idempotency key', () => {
    expect(deliveredChange(head, 300)).toMatchObject({
      status: 'delivered',
      finishedAt: '300',
      leaveLine: true,
    });
    expect(deliveredChange(head, 300).release).toBeUndefined();
    expect(failedChange(head, 'gone', 300)).toMatchObject({ release: true, leaveLine: true });
    expect(failedChange({ ...head, orderKey: null }, 'gone', 300).leaveLine).toBe(false);
  });

  it('a replay starts over under a new seq and joins the line again', () => {
    expect(replayChange(head, 400)).toEqual({
      status: 'queued',
      set: { attempts: '0', nextAttemptAt: '400' },
      unset: [
        'answer',
        'lineComments',
        'conclusion',
        'partial',
        'safety',
        'lastError',
        'finishedAt',
        'supersededBy',
      ],
      newSeq: true,
      unfinish: true,
      joinLine: true,
    });
  });

  it('only a running row is put back after an interruption', () => {
    expect(interruptedChange(head, 500)).toBeUndefined();
    expect(interruptedChange({ ...head, status: 'running' }, 500)?.status).toBe('queued');
  });

  it('rowAfter is the row as a change leaves it: status, set fields, removed fields', () => {
    const row = {
      ...queuedRecord(sampleDelivery({ receivedAt: 50 }), 'j-1', 4),
      status: 'running' as const,
      attempts: 1,
      startedAt: 100,
      answer: 'old answer',
      lastError: 'earlier',
    };
    const retried = rowAfter(row, retryChange(head, 'boom', 150, 900));
    expect(retried).toMatchObject({
      status: 'queued',
      lastError: 'boom',
      nextAttemptAt: 900,
      attempts: 1,
      startedAt: 100,
      finishedAt: null,
      answer: 'old answer',
    });
    expect(rowAfter(row, deliveredChange(head, 300))).toMatchObject({
      status: 'delivered',
      finishedAt: 300,
      lastError: 'earlier',
    });
    expect(rowAfter(row, replayChange(head, 400))).toMatchObject({
      status: 'queued',
      attempts: 0,
      answer: null,
      lastError: null,
      finishedAt: null,
    });
  });
});
