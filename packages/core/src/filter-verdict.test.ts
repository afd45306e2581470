import { describe, expect, it } from 'vitest';
import { routeFiltersSchema } from './config/filter-schema.js';
import {
  evaluateFilters,
  explainFilters,
  inFilePaths,
  type InFileValues,
} from './filter-verdict.js';
import type { FilterInput } from './filter-values.js';

const input = (payload: Record<string, unknown>, event = 'push', headers = {}): FilterInput => ({
  payload,
  event,
  headers,
});

const noFiles: InFileValues = () => [];

function passes(filters: unknown, at: FilterInput, files: InFileValues = noFiles): boolean {
  const parsed = routeFiltersSchema.parse(filters);
  return explainFilters(parsed, at, files).every((verdict) => verdict.passed);
}

function problems(filters: unknown): string[] {
  const result = routeFiltersSchema.safeParse(filters);
  return result.success
    ? []
    : result.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
}

describe('the map form', () => {
  const pr = input({ action: 'opened', pull_request: { draft: false }, number: 42 });

  it('matches values, lists and { not } as before', () => {
    expect(passes({ 'pull_request.draft': false }, pr)).toBe(true);
    expect(passes({ action: ['opened', 'synchronize'] }, pr)).toBe(true);
    expect(passes({ 'pull_request.draft': { not: true } }, pr)).toBe(true);
    expect(passes({ number: '42' }, pr)).toBe(true);
    expect(passes({ action: 'closed' }, pr)).toBe(false);
  });

  it('lets a missing path pass a negation only', () => {
    expect(passes({ 'pull_request.merged': { not: true } }, pr)).toBe(true);
    expect(passes({ 'pull_request.merged': false }, pr)).toBe(false);
  });
});

describe("Hermes' spec form", () => {
  const pr = input(
    {
      action: 'opened',
      ref: 'refs/heads/release-42',
      pull_request: { draft: false, labels: [{ name: 'bug' }, { name: 'ui' }], head: { sha: 'a' } },
      sender: { login: 'alice' },
      count: 3,
      tags: ['x', 'y'],
    },
    'pull_request',
    { 'x-github-event': 'pull_request', 'x-custom': 'Yes' },
  );

  it('reads a list as all-must-match, and one object as one spec', () => {
    expect(
      passes(
        [
          { field: 'action', equals: 'opened' },
          { field: 'pull_request.draft', equals: false },
        ],
        pr,
      ),
    ).toBe(true);
    expect(passes({ field: 'action', equals: 'closed' }, pr)).toBe(false);
  });

  it('groups clauses with all, any and not', () => {
    expect(
      passes(
        {
          all: [
            {
              any: [
                { field: 'action', equals: 'closed' },
                { field: 'action', equals: 'opened' },
              ],
            },
            { not: { field: 'pull_request.draft', equals: true } },
          ],
        },
        pr,
      ),
    ).toBe(true);
    expect(passes({ any: [] }, pr)).toBe(false);
    expect(passes({ all: [] }, pr)).toBe(true);
  });

  it('resolves the event, headers in any case, payload. and list indexes', () => {
    expect(passes({ field: 'event', equals: 'pull_request' }, pr)).toBe(true);
    expect(passes({ field: 'event_type', equals: 'pull_request' }, pr)).toBe(true);
    expect(passes({ field: 'headers.X-GitHub-Event', equals: 'pull_request' }, pr)).toBe(true);
    expect(passes({ field: 'headers.X-Custom', equals: 'Yes' }, pr)).toBe(true);
    expect(passes({ field: 'payload.sender.login', equals: 'alice' }, pr)).toBe(true);
    expect(passes({ field: 'pull_request.labels.1.name', equals: 'ui' }, pr)).toBe(true);
    expect(passes({ field: 'pull_request.labels.5.name', exists: true }, pr)).toBe(false);
  });

  it("reads payload. from a wrapped payload's own payload object, as Hermes does", () => {
    const wrapped = input({ payload: { fromMe: false, chatId: 'chat-2' } });
    expect(passes({ field: 'payload.fromMe', equals: false }, wrapped)).toBe(true);
    expect(passes({ field: 'payload.chatId', equals: 'chat-2' }, wrapped)).toBe(true);
  });

  it('compares as Python does: numbers with booleans, deep lists and objects', () => {
    expect(passes({ field: 'count', equals: 3.0 }, pr)).toBe(true);
    expect(passes({ field: 'count', equals: '3' }, pr)).toBe(false);
    expect(passes({ field: 'tags', equals: ['x', 'y'] }, pr)).toBe(true);
    expect(passes({ field: 'pull_request.head', equals: { sha: 'a' } }, pr)).toBe(true);
    expect(passes({ field: 'pull_request.draft', equals: 0 }, pr)).toBe(true);
  });

  it('not_equals passes a missing field; equals never does', () => {
    expect(passes({ field: 'nothing', not_equals: 'x' }, pr)).toBe(true);
    expect(passes({ field: 'nothing', equals: null }, pr)).toBe(false);
  });

  it('contains finds list items, object keys and substrings of the text', () => {
    expect(passes({ field: 'tags', contains: 'y' }, pr)).toBe(true);
    expect(passes({ field: 'pull_request.head', contains: 'sha' }, pr)).toBe(true);
    expect(passes({ field: 'ref', contains: 'release' }, pr)).toBe(true);
    expect(passes({ field: 'count', contains: 3 }, pr)).toBe(true);
    expect(passes({ field: 'nothing', contains: '' }, pr)).toBe(false);
  });

  it('in and in_file look the value up in a list', () => {
    expect(passes({ field: 'sender.login', in: ['bob', 'alice'] }, pr)).toBe(true);
    expect(passes({ field: 'nothing', in: [null] }, pr)).toBe(false);
    const files: InFileValues = (file) => (file === 'lists/users.txt' ? ['alice'] : []);
    expect(passes({ field: 'sender.login', in_file: 'lists/users.txt' }, pr, files)).toBe(true);
    expect(passes({ field: 'sender.login', in_file: '~/.hermes/lists/users.txt' }, pr, files)).toBe(
      true,
    );
    expect(passes({ field: 'sender.login', in_file: 'other.txt' }, pr, files)).toBe(false);
  });

  it('regex searches the text: objects as sorted JSON, booleans as Python prints them', () => {
    expect(passes({ field: 'ref', regex: '^refs/heads/(main|release-\\d+)$' }, pr)).toBe(true);
    expect(passes({ field: 'ref', regex: 'heads' }, pr)).toBe(true);
    expect(passes({ field: 'pull_request.head', regex: '^\\{"sha": "a"\\}$' }, pr)).toBe(true);
    expect(passes({ field: 'pull_request.draft', regex: '^False$' }, pr)).toBe(true);
    expect(passes({ field: 'action', regex: '(?i)^OPENED$' }, pr)).toBe(true);
    expect(passes({ field: 'nothing', regex: '.*' }, pr)).toBe(false);
  });

  it('exists and missing', () => {
    expect(passes({ field: 'sender', exists: true }, pr)).toBe(true);
    expect(passes({ field: 'nothing', exists: false }, pr)).toBe(true);
    expect(passes({ field: 'nothing', missing: true }, pr)).toBe(true);
    expect(passes({ field: 'sender', missing: true }, pr)).toBe(false);
  });

  it('explains each clause, with the value the field held', () => {
    const filters = routeFiltersSchema.parse([
      { field: 'action', equals: 'closed' },
      { any: [{ field: 'sender.login', in: ['alice'] }] },
    ]);
    expect(explainFilters(filters, pr, noFiles)).toEqual([
      { clause: 'action equals "closed"', passed: false, actual: '"opened"' },
      {
        clause: 'any',
        passed: true,
        children: [{ clause: 'sender.login in ["alice"]', passed: true, actual: '"alice"' }],
      },
    ]);
  });

  it('lists the in_file paths it reads', () => {
    expect(
      inFilePaths(
        routeFiltersSchema.parse({
          any: [
            { field: 'a', in_file: '~/.hermes/a.json' },
            { not: { field: 'b', in_file: 'b.txt' } },
          ],
        }),
      ),
    ).toEqual(['a.json', 'b.txt']);
  });
});

describe('a regex past the time limit', () => {
  // `(a+)+$` backtracks 2^50000 ways on this text: only the limit ends the search.
  const choking = input({ value: 'a'.repeat(50_000) + '!', ref: 'refs/heads/main' });
  const stopped = { field: 'value', regex: '(a+)+$' };
  const evaluate = (filters: unknown) =>
    evaluateFilters(routeFiltersSchema.parse(filters), choking, noFiles);

  it('does not match, and a not around it does not either (Hermes fails closed)', () => {
    expect(evaluate([stopped]).passed).toBe(false);
    expect(evaluate([{ not: stopped }]).passed).toBe(false);
    expect(evaluate({ not: { not: stopped } }).passed).toBe(false);
  });

  it('fails an any even when another clause matched', () => {
    const evaluation = evaluate({ any: [{ field: 'ref', equals: 'refs/heads/main' }, stopped] });
    expect(evaluation.passed).toBe(false);
    expect(evaluation.clauses).toEqual([
      {
        clause: 'any',
        passed: false,
        timedOut: true,
        children: [
          { clause: 'ref equals "refs/heads/main"', passed: true, actual: '"refs/heads/main"' },
          expect.objectContaining({ clause: 'value regex (a+)+$', passed: false, timedOut: true }),
        ],
      },
    ]);
  });

  it('names each clause that did not finish by its key: the regexes share one limit', () => {
    const evaluation = evaluate([
      stopped,
      { field: 'ref', regex: '^refs/heads/' },
      { all: [{ not: { field: 'value', regex: '(a|aa)+$' } }] },
    ]);
    // The first used the delivery's whole limit: the quick one after it gets none left.
    expect(evaluation.timedOut).toEqual([
      { key: 'filters[0].regex', field: 'value' },
      { key: 'filters[1].regex', field: 'ref' },
      { key: 'filters[2].all[0].not.regex', field: 'value' },
    ]);
    expect(evaluation.clauses.map((clause) => clause.passed)).toEqual([false, false, false]);
  });

  it('leaves quick regexes alone', () => {
    const evaluation = evaluate([{ field: 'ref', regex: '^refs/heads/(main|release-\\d+)$' }]);
    expect(evaluation).toMatchObject({ passed: true, timedOut: [] });
  });
});

describe('checks at start', () => {
  it('refuses a spec with no operator or two, with its key path', () => {
    expect(problems([{ field: 'action' }])).toEqual([
      '0: the spec has no operator; add one of equals, not_equals, contains, in, in_file, regex, exists, missing',
    ]);
    expect(problems({ all: [{ field: 'a', equals: 1, contains: 2 }] })).toEqual([
      'all.0: the spec has 2 operators (equals, contains); keep one',
    ]);
  });

  it('refuses a regex that does not compile, and the verbose flag', () => {
    expect(problems([{ field: 'a', regex: '(' }])[0]).toMatch(
      /^0\.regex: the regular expression does not compile/,
    );
    expect(problems([{ field: 'a', regex: '(?x)a b' }])[0]).toMatch(/verbose flag/);
  });

  it('refuses an in_file outside the home, a spec without field, unknown keys', () => {
    expect(problems([{ field: 'a', in_file: '/etc/passwd' }])[0]).toMatch(/^0\.in_file: /);
    expect(problems([{ field: 'a', in_file: '../x' }])[0]).toMatch(/^0\.in_file: /);
    expect(problems([{ equals: 1 }])).toEqual([
      '0.field: expected a field: a dotted path, as "pull_request.draft"',
    ]);
    expect(problems([{ field: 'a', equal: 1 }])[0]).toMatch(/^0\.equal: unknown key/);
    expect(problems([{ field: 'a', missing: false }])[0]).toMatch(/^0\.missing: expected true/);
    expect(problems({ not: [{ field: 'a', exists: true }] })[0]).toMatch(
      /^not: expected a filter spec/,
    );
  });

  it('keeps the map form checks', () => {
    expect(problems({ 'pull_request.draft': { nope: true } })).toHaveLength(1);
    expect(problems({})).toEqual([]);
  });
});
