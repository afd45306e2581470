import { describe, expect, it } from 'vitest';
import { answerWithLineComments, promptTokenSplit } from './delivery.js';

describe('answerWithLineComments', () => {
  it('is the summary alone when there are no line comments', () => {
    expect(answerWithLineComments('Looks good.\n', [])).toBe('Looks good.\n');
  });

  it('puts one line per comment, path:line — body, after the summary', () => {
    expect(
      answerWithLineComments('Two remarks.\n', [
        { path: 'src/a.ts', line: 12, body: 'off by one' },
        { path: 'b.ts', line: 1, body: 'typo' },
      ]),
    ).toBe('Two remarks.\n\nsrc/a.ts:12 — off by one\nb.ts:1 — typo');
  });

  it('is the comments alone when the summary is empty', () => {
    expect(answerWithLineComments('  ', [{ path: 'a.ts', line: 2, body: 'x' }])).toBe('a.ts:2 — x');
  });

  it('writes a range as path:start-line and a suggestion as plain text, never a suggestion block', () => {
    const text = answerWithLineComments('One remark.', [
      { path: 'src/a.ts', start_line: 3, line: 5, body: 'simpler', suggestion: 'return a;' },
      { path: 'src/b.ts', line: 7, body: 'dead code', suggestion: '' },
      { path: 'src/c.md', line: 1, body: 'fence', suggestion: 'use ``` here' },
    ]);
    expect(text).toBe(
      'One remark.\n\n' +
        'src/a.ts:3-5 — simpler\nSuggested change:\n```\nreturn a;\n```\n' +
        'src/b.ts:7 — dead code\nSuggested change: delete these lines.\n' +
        'src/c.md:1 — fence\nSuggested change:\n````\nuse ``` here\n````',
    );
    expect(text).not.toContain('suggestion');
  });
});

describe('promptTokenSplit', () => {
  const usage = { promptTokens: 2000, completionTokens: 90, totalTokens: 2090 };

  it('splits prompt tokens into the cached part and the rest', () => {
    expect(promptTokenSplit({ ...usage, cachedPromptTokens: 1536 })).toEqual({
      cached: 1536,
      uncached: 464,
    });
  });

  it('counts none cached when the usage does not say (rows written before it was counted)', () => {
    expect(promptTokenSplit(usage)).toEqual({ cached: 0, uncached: 2000 });
  });

  it('holds a cached count past the prompt tokens, or below 0, to them', () => {
    expect(promptTokenSplit({ ...usage, cachedPromptTokens: 5000 })).toEqual({
      cached: 2000,
      uncached: 0,
    });
    expect(promptTokenSplit({ ...usage, cachedPromptTokens: -3 })).toEqual({
      cached: 0,
      uncached: 2000,
    });
  });
});
