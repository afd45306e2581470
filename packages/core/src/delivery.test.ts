import { describe, expect, it } from 'vitest';
import { answerWithLineComments } from './delivery.js';

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
});
