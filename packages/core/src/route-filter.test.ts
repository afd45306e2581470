import { describe, expect, it } from 'vitest';
import { routeIgnoreReason, routeVerdict } from './route-filter.js';

const route = (
  over: Partial<{
    events: string[];
    actions: string[];
    filters: Record<string, unknown>;
    commands: string[];
    allow_bots: boolean;
  }>,
) =>
  ({
    events: [],
    actions: [],
    filters: {},
    ...over,
  }) as Parameters<typeof routeIgnoreReason>[0];

/** The rules' answer for a delivery without headers. */
const reasonOf = (
  rules: Parameters<typeof routeIgnoreReason>[0],
  event: string,
  action: string | null,
  payload: Record<string, unknown>,
) => routeIgnoreReason(rules, { event, action, payload, headers: {} });

describe('routeIgnoreReason', () => {
  const pr = {
    action: 'opened',
    pull_request: { draft: false, base: { ref: 'main' } },
    number: 42,
  };

  it('keeps everything when events is empty, but ping unless listed', () => {
    expect(reasonOf(route({}), 'anything', null, {})).toBeUndefined();
    expect(reasonOf(route({}), 'ping', null, {})).toBe('event');
    expect(reasonOf(route({ events: ['ping'] }), 'ping', null, {})).toBeUndefined();
  });

  it('ignores an unlisted event; the altforge object_kind also matches', () => {
    expect(reasonOf(route({ events: ['push'] }), 'pull_request', 'opened', pr)).toBe('event');
    expect(
      reasonOf(route({ events: ['merge_request'] }), 'Merge Request Hook', 'open', {
        object_kind: 'merge_request',
      }),
    ).toBeUndefined();
  });

  it('ignores an unlisted or missing action', () => {
    expect(reasonOf(route({ actions: ['opened'] }), 'pull_request', 'closed', pr)).toBe('action');
    expect(reasonOf(route({ actions: ['opened'] }), 'push', null, {})).toBe('action');
    expect(reasonOf(route({ actions: ['opened'] }), 'pull_request', 'opened', pr)).toBeUndefined();
  });

  it('requires every filter to match, with lists as alternatives and numbers matching their text', () => {
    expect(
      reasonOf(route({ filters: { 'pull_request.draft': false } }), 'pull_request', 'opened', pr),
    ).toBeUndefined();
    expect(
      reasonOf(route({ filters: { 'pull_request.draft': true } }), 'pull_request', 'opened', pr),
    ).toBe('filter');
    expect(
      reasonOf(
        route({ filters: { 'pull_request.base.ref': ['main', 'release'] } }),
        'pull_request',
        'opened',
        pr,
      ),
    ).toBeUndefined();
    expect(
      reasonOf(route({ filters: { number: '42' } }), 'pull_request', 'opened', pr),
    ).toBeUndefined();
    expect(
      reasonOf(route({ filters: { 'missing.path': null } }), 'pull_request', 'opened', pr),
    ).toBe('filter');
  });

  it('negates a filter with { not: … }; a missing path passes a negation', () => {
    const bot = { ...pr, sender: { login: 'dependabot[bot]' } };
    const notDependabot = route({ filters: { 'sender.login': { not: ['dependabot[bot]'] } } });
    expect(reasonOf(notDependabot, 'pull_request', 'opened', bot)).toBe('filter');
    expect(
      reasonOf(notDependabot, 'pull_request', 'opened', {
        ...pr,
        sender: { login: 'octocat' },
      }),
    ).toBeUndefined();
    const notDraft = route({ filters: { 'pull_request.draft': { not: true } } });
    expect(reasonOf(notDraft, 'pull_request', 'opened', pr)).toBeUndefined();
    expect(
      reasonOf(notDraft, 'pull_request', 'opened', {
        ...pr,
        pull_request: { draft: true },
      }),
    ).toBe('filter');
    expect(reasonOf(notDraft, 'push', null, {})).toBeUndefined();
  });

  // Hermes Agent's webhook intake tests, `TestFilterAuthority.
  // test_pathological_regex_is_timed_out_outside_the_gateway_process`: the same filter and
  // payload, and the same expectation (no match). Its `elapsed < 1.0 s` becomes the verdict
  // that the search was stopped at the limit (no timing assertions here); a search that was
  // not stopped would outlast this test's timeout.
  it('test_pathological_regex_is_timed_out_outside_the_gateway_process', () => {
    const pathological = route({ filters: { field: 'value', regex: '(a+)+$' } });
    const input = {
      event: 'push',
      action: null,
      payload: { value: 'a'.repeat(50_000) + '!' },
      headers: {},
    };
    const verdict = routeVerdict(pathological, input);
    expect(verdict.reason).toBe('filter');
    expect(verdict.filters?.timedOut).toEqual([{ key: 'filters.regex', field: 'value' }]);
    expect(routeIgnoreReason(pathological, input)).toBe('filter');
  });

  describe('comments', () => {
    const comment = (body: string, senderType = 'User') => ({
      action: 'created',
      issue: { number: 7, pull_request: { url: 'https://forge.example/pulls/7' } },
      comment: { body },
      sender: { login: 'octocat', type: senderType },
    });

    it('ignores a comment carrying the gateway marker on every route, as self', () => {
      const own = comment('Looks fine.\n\n<!-- webhook-gateway:delivery d-1 -->');
      expect(reasonOf(route({}), 'issue_comment', 'created', own)).toBe('self');
      expect(reasonOf(route({ commands: ['/review'] }), 'issue_comment', 'created', own)).toBe(
        'self',
      );
    });

    it('runs only comments naming a command on a command route', () => {
      const commands = route({ commands: ['/review', '@review-bot'] });
      expect(
        reasonOf(commands, 'issue_comment', 'created', comment('/review please')),
      ).toBeUndefined();
      expect(
        reasonOf(commands, 'issue_comment', 'created', comment('cc @review-bot')),
      ).toBeUndefined();
      expect(reasonOf(commands, 'issue_comment', 'created', comment('nice'))).toBe('command');
      expect(reasonOf(commands, 'pull_request', 'opened', pr)).toBe('command');
    });

    it('ignores bots on a command route unless allow_bots is set', () => {
      const fromBot = comment('/review', 'Bot');
      expect(reasonOf(route({ commands: ['/review'] }), 'issue_comment', 'created', fromBot)).toBe(
        'bot',
      );
      expect(
        reasonOf(
          route({ commands: ['/review'], allow_bots: true }),
          'issue_comment',
          'created',
          fromBot,
        ),
      ).toBeUndefined();
      expect(reasonOf(route({}), 'issue_comment', 'created', fromBot)).toBeUndefined();
    });
  });
});
