import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { splitText } from './split-text.js';

describe('splitText', () => {
  it('cuts at a paragraph before a line, and at a line before a word', () => {
    expect(splitText('one one\n\ntwo two\nthree', 16)).toEqual(['one one', 'two two\nthree']);
    expect(splitText('alpha beta gamma delta', 11)).toEqual(['alpha beta', 'gamma delta']);
  });

  it('never splits an emoji when a single word must be cut hard', () => {
    expect(splitText('ab😀cd', 3)).toEqual(['ab', '😀c', 'd']);
  });

  it('keeps every part within the limit and loses no word (property)', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400 }), fc.integer({ min: 2, max: 60 }), (text, limit) => {
        const parts = splitText(text, limit);
        for (const part of parts) expect(part.length).toBeLessThanOrEqual(limit);
        expect(parts.join('').replace(/\s+/g, '')).toBe(text.replace(/\s+/g, ''));
      }),
    );
  });
});
