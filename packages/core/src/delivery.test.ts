import { describe, expect, it } from 'vitest';
import { answerText } from './delivery.js';

describe('answerText', () => {
  it('is the summary alone when there are no line comments', () => {
    expect(answerText('Looks good.\n', [])).toBe('Looks good.\n');
  });

  it('puts one line per comment, path:line — body, after the summary', () => {
    expect(
      answerText('Two remarks.\n', [
        { path: 'src/a.ts', line: 12, body: 'off by one' },
        { path: 'b.ts', line: 1, body: 'typo' },
      ]),
    ).toBe('Two remarks.\n\nsrc/a.ts:12 — off by one\nb.ts:1 — typo');
  });

  it('is the comments alone when the summary is empty', () => {
    expect(answerText('  ', [{ path: 'a.ts', line: 2, body: 'x' }])).toBe('a.ts:2 — x');
  });
});
