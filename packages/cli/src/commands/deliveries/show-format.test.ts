import { describe, expect, it } from 'vitest';
import { formatDeliveryDetail, formatFields } from './show-format.js';
import { T0, testRecord } from './test-support/delivery-record.js';

describe('formatDeliveryDetail', () => {
  it('shows ids, status, timings, headers, each attempt with its error, prompt and answer', () => {
    const text = formatDeliveryDetail(testRecord());
    expect(text).toContain('id           0b8e5a52-2f7c-4f0e-9d55-0c1f3c1f9a11');
    expect(text).toContain('delivery id  72d3162e-cc78-11e3-81ab-4c9367dc0958');
    expect(text).toContain('event        pull_request (opened)');
    expect(text).toContain('status       delivered (2 of 5 attempts)');
    expect(text).toContain('waited       40 ms');
    expect(text).toContain('duration     1.9 s');
    expect(text).toContain('last error   messenger_c (Slack): sending to channel C1 failed');
    expect(text).toMatch(/headers\n {2}user-agent {5}Forge-Hookshot\/044aadd\n {2}x-forge-event/);
    const attempts = text.split('attempts\n')[1]?.split('\n\n')[0]?.split('\n') ?? [];
    expect(attempts[0]).toMatch(/#\s+STARTED\s+FINISHED\s+DURATION\s+OUTCOME/);
    expect(attempts[1]).toMatch(/^ {2}1 .* 500 ms +messenger_c \(Slack\): .*HTTP 500$/);
    expect(attempts[2]).toMatch(/^ {2}2 .* 400 ms +ok$/);
    expect(text).toContain('prompt\n  Review PR #2');
    expect(text.endsWith('answer\n  Looks good.')).toBe(true);
  });

  it('says a delivered answer is partial when a limit stopped the agent', () => {
    const text = formatDeliveryDetail(testRecord({ partial: true }));
    expect(text).toContain(
      'status       delivered, partial: a limit stopped the agent (2 of 5 attempts)',
    );
  });

  it("shows a comment's range and its suggestion as text", () => {
    const text = formatDeliveryDetail(
      testRecord({
        lineComments: [
          { path: 'src/a.ts', start_line: 3, line: 5, body: 'simpler', suggestion: 'return a;' },
        ],
      }),
    );
    expect(text).toContain(
      '  src/a.ts:3-5\n    simpler\n    Suggested change:\n    ```\n    return a;\n    ```',
    );
  });

  it("shows the agent's line comments after the answer, each under its path and line", () => {
    const text = formatDeliveryDetail(
      testRecord({
        answer: 'Two remarks.',
        lineComments: [
          { path: 'src/a.ts', line: 12, body: 'off by one' },
          { path: 'README.md', line: 3, body: 'a typo\nand another' },
        ],
      }),
    );
    expect(
      text.endsWith(
        'answer\n  Two remarks.\n\nline comments (2)\n' +
          '  src/a.ts:12\n    off by one\n  README.md:3\n    a typo\n    and another',
      ),
    ).toBe(true);
  });

  it("shows the agent's conclusion last, with its reason", () => {
    const text = formatDeliveryDetail(
      testRecord({ conclusion: { value: 'failure', reason: 'a leaked key' } }),
    );
    expect(text.endsWith('conclusion\n  failure: a leaked key')).toBe(true);
    expect(formatDeliveryDetail(testRecord())).not.toContain('conclusion');
  });

  it("lists the request's findings with each one's fate as this review saw it", () => {
    const record = testRecord();
    const base = { path: 'src/a.ts', lineText: 'x', state: 'open' as const, raisedBy: 'earlier' };
    const text = formatDeliveryDetail(record, [
      { ...base, fingerprint: 'a1', line: 2, body: 'posted now', raisedBy: record.deliveryId },
      { ...base, fingerprint: 'a2', line: 3, body: 'kept', seenBy: record.deliveryId },
      {
        ...base,
        fingerprint: 'a3',
        line: 4,
        body: 'waved off',
        state: 'dismissed',
        closedBy: record.deliveryId,
      },
      {
        ...base,
        fingerprint: 'a4',
        line: 5,
        body: 'gone',
        state: 'fixed',
        closedBy: record.deliveryId,
      },
      {
        ...base,
        fingerprint: 'a5',
        line: 6,
        body: 'from before',
        state: 'resolved',
        closedBy: 'later',
      },
    ]);
    const section = text.split('findings on this request (5)\n')[1]?.split('\n') ?? [];
    expect(section[0]).toMatch(/LINE\s+FATE\s+FINDING/);
    expect(section.slice(1).map((line) => line.trim().replace(/\s{2,}/g, ' | '))).toEqual([
      'src/a.ts:2 | new: posted by this review | posted now',
      'src/a.ts:3 | still open: raised again, not posted again | kept',
      'src/a.ts:4 | dismissed by a person: never raised again | waved off',
      'src/a.ts:5 | fixed: the gateway resolved its thread | gone',
      'src/a.ts:6 | resolved by a person | from before',
    ]);
    // Without findings there is no section.
    expect(formatDeliveryDetail(record)).not.toContain('findings on this request');
  });

  it('shows what hygiene and redaction took out, before the prompt, and no section otherwise', () => {
    const text = formatDeliveryDetail(
      testRecord({
        safety: {
          hidden: [
            { field: 'pull_request.body', removed: { 'HTML comment': 1, 'bidi control': 3 } },
          ],
          redactions: 2,
        },
      }),
    );
    expect(text).toContain(
      'taken out\n  hidden content removed: pull_request.body: 1 HTML comment, 3 bidi controls\n' +
        '  secrets redacted from the answer: 2\n\nprompt\n',
    );
    expect(formatDeliveryDetail(testRecord())).not.toContain('taken out');
  });

  it('shows the agent accounting: model, turns, tool calls and tokens', () => {
    const text = formatDeliveryDetail(
      testRecord({
        agent: {
          runner: 'openai',
          model: 'qwen2.5-coder',
          turns: 3,
          toolCalls: [
            { tool: 'terminal', command: 'gh pr diff 2', exitCode: 0, durationMs: 812 },
            { tool: 'terminal', command: 'false', exitCode: 1, durationMs: 4 },
          ],
          usage: { promptTokens: 1200, completionTokens: 300, totalTokens: 1500 },
          cost: { amount: 0.0081, currency: 'USD' },
        },
      }),
    );
    expect(text).toContain('  cost        0.0081 USD');
    expect(text).toContain('  runner      openai');
    expect(text).toContain('  model       qwen2.5-coder');
    expect(text).toContain('  turns       3');
    expect(text).toContain('  tool calls  2');
    expect(text).toContain(
      '  tokens      1500 (prompt 1200: 0 cached, 1200 uncached; completion 300)',
    );
    expect(text).toMatch(/1 +terminal +0 +812 ms +gh pr diff 2/);
    expect(text).toMatch(/2 +terminal +1 +4 ms +false/);
  });

  it('splits the prompt tokens into those the provider served from its cache and the rest', () => {
    const text = formatDeliveryDetail(
      testRecord({
        agent: {
          runner: 'openai',
          usage: {
            promptTokens: 5210,
            cachedPromptTokens: 4096,
            completionTokens: 412,
            totalTokens: 5622,
          },
        },
      }),
    );
    expect(text).toContain(
      '  tokens  5622 (prompt 5210: 4096 cached, 1114 uncached; completion 412)',
    );
  });

  it('says what is not there yet for a queued delivery', () => {
    const text = formatDeliveryDetail(
      testRecord({
        status: 'queued',
        attempts: 0,
        prompt: null,
        answer: null,
        lastError: null,
        startedAt: null,
        finishedAt: null,
        attemptLog: [],
      }),
    );
    expect(text).toContain('status       queued\n');
    expect(text).toContain('last error   -');
    expect(text).toContain('attempts\n  (none yet)');
    expect(text).toContain('prompt\n  (none)');
    expect(text).not.toContain('agent\n');
  });

  it('says where a queued delivery stands and why it waits', () => {
    const record = testRecord({ status: 'queued', attempts: 0, finishedAt: null });
    const text = formatDeliveryDetail(
      record,
      [],
      {
        id: record.id,
        route: record.route,
        position: 1,
        queuedOnRoute: 2,
        estimatedStartAt: T0 + 30_000,
        reasons: [{ kind: 'pull_request', blockedBy: 'journal-9', blockerRunning: true }],
      },
      T0,
    );
    expect(text).toContain(
      `queue\n  1st, under a minute (of 2 queued on route ${record.route})\n  waits: behind the same pull request's running review (journal-9)\n`,
    );
  });

  it('says when a retry is due and that an empty answer was empty', () => {
    const text = formatDeliveryDetail(
      testRecord({
        status: 'queued',
        attempts: 1,
        finishedAt: null,
        nextAttemptAt: T0,
        answer: '',
      }),
    );
    expect(text).toMatch(/status {7}queued for a retry \(1 of 5 attempts made; next at .+\)/);
    expect(text).toContain('answer\n  (empty)');
  });

  it('never sends a control character from a payload to the terminal', () => {
    const text = formatDeliveryDetail(testRecord({ prompt: 'Review \u001b[2J"title"' }));
    expect(text).not.toContain('\u001b');
    expect(text).toContain('Review \\x1b[2J"title"');
  });
});

describe('formatFields', () => {
  it('aligns values after the longest label', () => {
    expect(
      formatFields(
        [
          ['a', '1'],
          ['longer', '2'],
        ],
        '  ',
      ),
    ).toBe('  a       1\n  longer  2');
  });

  it('names the delivery that superseded this one', () => {
    const text = formatDeliveryDetail(
      testRecord({ status: 'superseded', supersededBy: 'j-newer', attempts: 0, attemptLog: [] }),
    );
    expect(text).toContain('status       superseded by j-newer (never run)\n');
  });
});
