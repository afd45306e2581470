import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_ANSWER_TEXT, smsParts, splitMessage } from './split-message.js';

const noSpace = (text: string) => text.replace(/\s+/g, '');

describe('splitMessage', () => {
  it('cuts at paragraphs, then lines, then words', () => {
    expect(splitMessage('one one\n\ntwo two\n\nthree', 18)).toEqual([
      'one one\n\ntwo two',
      'three',
    ]);
    expect(splitMessage('line one\nline two\nline three', 18)).toEqual([
      'line one\nline two',
      'line three',
    ]);
    expect(splitMessage('alpha beta gamma delta', 11)).toEqual(['alpha beta', 'gamma delta']);
  });

  it('hard-cuts only a word longer than the limit, never inside an emoji', () => {
    expect(splitMessage('ab xxxxxxx', 4)).toEqual(['ab', 'xxxx', 'xxx']);
    expect(splitMessage('aa😀😀', 3)).toEqual(['aa', '😀', '😀']);
  });

  it('keeps every part within the limit, losing only whitespace (property)', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', ' ', '\n', '\n\n', '😀', 'word '),
      maxLength: 300,
    });
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 50 }), (input, limit) => {
        const parts = splitMessage(input, limit);
        for (const part of parts) expect(part.length).toBeLessThanOrEqual(limit);
        expect(noSpace(parts.join(''))).toBe(noSpace(input));
      }),
    );
  });
});

describe('smsParts', () => {
  it('sends an answer of up to 1,600 characters as one unnumbered text', () => {
    const answer = 'y'.repeat(1600);
    expect(smsParts(answer)).toEqual([answer]);
  });

  it('numbers the parts of a longer answer and keeps each within 1,600 characters', () => {
    const paragraphs = ['a'.repeat(1000), 'b'.repeat(1000), 'c'.repeat(1000)];
    const parts = smsParts(paragraphs.join('\n\n'));
    expect(parts).toEqual([
      `(1/3) ${paragraphs[0]}`,
      `(2/3) ${paragraphs[1]}`,
      `(3/3) ${paragraphs[2]}`,
    ]);
  });

  it('leaves room for the number when a part would otherwise be exactly full', () => {
    const parts = smsParts('z'.repeat(3200));
    expect(parts.length).toBe(3);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(1600);
    expect(parts.map((p) => p.replace(/^\(\d+\/\d+\) /, '')).join('')).toBe('z'.repeat(3200));
  });

  it('sends SKIP as it is and a placeholder for an empty answer', () => {
    expect(smsParts('SKIP')).toEqual(['SKIP']);
    expect(smsParts('  ')).toEqual([EMPTY_ANSWER_TEXT]);
  });
});
