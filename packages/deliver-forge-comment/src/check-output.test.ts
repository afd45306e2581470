import { describe, expect, it } from 'vitest';
import {
  batches,
  checkTitle,
  cutSummary,
  dashboardPage,
  deliveredCheck,
  queuedTitle,
  statusDescription,
  statusState,
} from './check-output.js';

describe("a review check's output", () => {
  it('titles the check with the reason, else the conclusion, and the comment count', () => {
    expect(checkTitle({ value: 'failure', reason: ' A leaked\nkey ' }, 2)).toBe(
      'A leaked key (2 comments)',
    );
    expect(checkTitle({ value: 'success' }, 1)).toBe('No problems found (1 comment)');
    expect(checkTitle({ value: 'neutral' }, 0)).toBe('Reviewed');
  });

  it('says a queued review’s place, and that an operator paused its route', () => {
    expect(queuedTitle({ position: 2, reasons: [] })).toBe('Queued, 2nd');
    expect(
      queuedTitle({ position: 3, reasons: [{ kind: 'paused', reason: 'deploy freeze' }] }),
    ).toBe('Paused by operator, queued 3rd');
  });

  it('cuts a summary over the limit at a line end, with a notice, within the limit', () => {
    const summary = `${'a'.repeat(70)}\n${'b'.repeat(70)}`;
    const cut = cutSummary(summary, 120);
    expect(cut.length).toBeLessThanOrEqual(120);
    expect(cut.startsWith('a'.repeat(10))).toBe(true);
    expect(cut).toContain('_(Cut at 120 characters');
    expect(cutSummary('short', 120)).toBe('short');
  });

  it('batches annotations 50 at a time', () => {
    expect(batches(Array.from({ length: 120 }, (_, i) => i)).map((b) => b.length)).toEqual([
      50, 50, 20,
    ]);
    expect(batches([])).toEqual([]);
  });

  it('never leaves a check run with an empty summary', () => {
    const comment = { path: 'a.ts', line: 1, body: 'x' };
    expect(deliveredCheck('', { value: 'neutral' }, [comment], []).summary).toBe(
      '(the agent wrote no summary; see the annotations)',
    );
  });

  it('maps the conclusion to a status state per forge, and cuts the description to 140', () => {
    expect(
      ['success', 'neutral', 'failure'].map((c) => statusState(c as 'success', 'forge')),
    ).toEqual(['success', 'success', 'failure']);
    expect(statusState('failure', 'altforge')).toBe('failed');
    expect(statusDescription('x'.repeat(200))).toHaveLength(140);
  });

  it('links the delivery’s dashboard page only when the public address is set', () => {
    expect(dashboardPage('https://gw.example/base/', 'j 1')).toBe(
      'https://gw.example/base/dashboard/deliveries/j%201',
    );
    expect(dashboardPage(undefined, 'j1')).toBeUndefined();
  });
});
