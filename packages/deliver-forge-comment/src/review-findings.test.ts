import { findingFingerprint, type Finding } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { planFindings, withResolved, type FindingsInput } from './review-findings.js';

const comment = { path: 'src/a.ts', line: 2, body: 'b is unused' };
const lineText = 'const b = 2;';
const fingerprint = findingFingerprint('reviews', comment.body, lineText);
const known = (state: Finding['state']): Finding => ({
  ...comment,
  fingerprint,
  lineText,
  state,
  raisedBy: 'd-1',
});

function plan(overrides: Partial<FindingsInput>) {
  return planFindings({
    route: 'reviews',
    deliveryId: 'd-2',
    raised: [{ comment, lineText }],
    previous: [],
    threads: new Map(),
    diffTexts: () => new Set([lineText]),
    ...overrides,
  });
}

describe('planFindings', () => {
  it('posts a finding the gateway marked fixed again when it comes back', () => {
    const planned = plan({ previous: [known('fixed')] });
    expect(planned.toPost).toEqual([{ comment, fingerprint }]);
    expect(planned.findings).toEqual([{ ...known('open'), raisedBy: 'd-2' }]);
  });

  it('closes nothing and resolves nothing when the threads could not be read', () => {
    const planned = plan({
      raised: [],
      previous: [known('open')],
      threads: undefined,
      diffTexts: () => undefined,
    });
    expect(planned.toResolve).toEqual([]);
    expect(planned.findings).toEqual([known('open')]);
    expect(planned.counts).toMatchObject({ new: 0, stillOpen: 0, resolved: 0 });
  });

  it('resolves a finding no longer raised only when its line left the diff, and counts it once resolved', () => {
    const threads = new Map([[fingerprint, { threadId: 'T1', resolved: false, dismissed: false }]]);
    expect(plan({ raised: [], previous: [known('open')], threads }).toResolve).toEqual([]);
    const planned = plan({
      raised: [],
      previous: [known('open')],
      threads,
      diffTexts: () => new Set(['const b = 3;']),
    });
    expect(planned.toResolve).toEqual([{ fingerprint, threadId: 'T1' }]);
    expect(withResolved(planned, new Set([fingerprint]), 'd-2')).toMatchObject({
      findings: [{ state: 'fixed', closedBy: 'd-2' }],
      counts: { resolved: 1, resolveErrors: 0 },
    });
    expect(withResolved(planned, new Set(), 'd-2')).toMatchObject({
      findings: [{ state: 'open' }],
      counts: { resolved: 0, resolveErrors: 1 },
    });
  });
});
