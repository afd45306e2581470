import { describe, expect, it } from 'vitest';
import { routeIgnoreReason } from './route-filter.js';

const route = (
  over: Partial<{ events: string[]; actions: string[]; filters: Record<string, unknown> }>,
) =>
  ({
    events: [],
    actions: [],
    filters: {},
    ...over,
  }) as Parameters<typeof routeIgnoreReason>[0];

describe('routeIgnoreReason', () => {
  const pr = {
    action: 'opened',
    pull_request: { draft: false, base: { ref: 'main' } },
    number: 42,
  };

  it('keeps everything when events is empty', () => {
    expect(routeIgnoreReason(route({}), 'anything', null, {})).toBeUndefined();
  });

  it('ignores an unlisted event; the altforge object_kind also matches', () => {
    expect(routeIgnoreReason(route({ events: ['push'] }), 'pull_request', 'opened', pr)).toBe(
      'event',
    );
    expect(
      routeIgnoreReason(route({ events: ['merge_request'] }), 'Merge Request Hook', 'open', {
        object_kind: 'merge_request',
      }),
    ).toBeUndefined();
  });

  it('ignores an unlisted or missing action', () => {
    expect(routeIgnoreReason(route({ actions: ['opened'] }), 'pull_request', 'closed', pr)).toBe(
      'action',
    );
    expect(routeIgnoreReason(route({ actions: ['opened'] }), 'push', null, {})).toBe('action');
    expect(
      routeIgnoreReason(route({ actions: ['opened'] }), 'pull_request', 'opened', pr),
    ).toBeUndefined();
  });

  it('requires every filter to match, with lists as alternatives and numbers matching their text', () => {
    expect(
      routeIgnoreReason(
        route({ filters: { 'pull_request.draft': false } }),
        'pull_request',
        'opened',
        pr,
      ),
    ).toBeUndefined();
    expect(
      routeIgnoreReason(
        route({ filters: { 'pull_request.draft': true } }),
        'pull_request',
        'opened',
        pr,
      ),
    ).toBe('filter');
    expect(
      routeIgnoreReason(
        route({ filters: { 'pull_request.base.ref': ['main', 'release'] } }),
        'pull_request',
        'opened',
        pr,
      ),
    ).toBeUndefined();
    expect(
      routeIgnoreReason(route({ filters: { number: '42' } }), 'pull_request', 'opened', pr),
    ).toBeUndefined();
    expect(
      routeIgnoreReason(route({ filters: { 'missing.path': null } }), 'pull_request', 'opened', pr),
    ).toBe('filter');
  });
});
