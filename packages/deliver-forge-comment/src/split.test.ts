import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chunkText, partHeader, splitForComments } from './split.js';

/** Half of a surrogate pair without its other half. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** A part's text without its `(i/n)` header. */
function bodyOf(part: string): string {
  return part.replace(/^\(\d+\/\d+\)\n\n/, '');
}

describe('splitForComments', () => {
  it('returns a text within the limit as it is, unnumbered', () => {
    expect(splitForComments('short answer', 100)).toEqual(['short answer']);
    expect(splitForComments('x'.repeat(100), 100)).toEqual(['x'.repeat(100)]);
    expect(splitForComments('', 100)).toEqual(['']);
  });

  it('cuts on paragraph boundaries first and numbers the parts', () => {
    const text = ['First paragraph.', 'Second paragraph.', 'Third paragraph.'].join('\n\n');
    const parts = splitForComments(text, 45);
    expect(parts).toEqual([
      '(1/2)\n\nFirst paragraph.\n\nSecond paragraph.',
      '(2/2)\n\nThird paragraph.',
    ]);
  });

  it('falls back to line boundaries when a paragraph is too long', () => {
    const text = 'line one\nline two\nline three\nline four';
    const parts = splitForComments(text, 27);
    expect(parts).toEqual(['(1/2)\n\nline one\nline two', '(2/2)\n\nline three\nline four']);
  });

  it('falls back to word boundaries when a line is too long', () => {
    const text = 'alpha beta gamma delta epsilon zeta';
    expect(splitForComments(text, 25)).toEqual([
      '(1/2)\n\nalpha beta gamma',
      '(2/2)\n\ndelta epsilon zeta',
    ]);
  });

  it('cuts a word longer than a whole part, but never inside a surrogate pair', () => {
    const parts = splitForComments('y'.repeat(50), 20);
    expect(parts.every((part) => part.length <= 20)).toBe(true);
    expect(parts.map(bodyOf).join('')).toBe('y'.repeat(50));

    const emoji = '😀'.repeat(30); // 60 UTF-16 code units, 30 characters
    const emojiParts = splitForComments(emoji, 20);
    expect(emojiParts.every((part) => part.length <= 20)).toBe(true);
    expect(emojiParts.map(bodyOf).join('')).toBe(emoji);
    for (const part of emojiParts) expect(part).not.toMatch(LONE_SURROGATE);
  });

  it('widens the numbering once there are ten parts or more, still within the limit', () => {
    const words = Array.from({ length: 60 }, (_, i) => `word${i}`);
    const parts = splitForComments(words.join(' '), 22);
    expect(parts.length).toBeGreaterThanOrEqual(10);
    expect(parts[0]?.startsWith(`(1/${parts.length})\n\n`)).toBe(true);
    expect(parts.at(-1)?.startsWith(`(${parts.length}/${parts.length})\n\n`)).toBe(true);
    for (const part of parts) expect(part.length).toBeLessThanOrEqual(22);
    expect(parts.map(bodyOf).join(' ')).toBe(words.join(' '));
  });

  it("splits an answer above the forge's 65,536 characters into parts within it", () => {
    const paragraph = 'The quick brown fox jumps over the lazy dog. '.repeat(40).trim();
    const text = Array.from({ length: 80 }, () => paragraph).join('\n\n');
    expect(text.length).toBeGreaterThan(65_536 * 2);
    const parts = splitForComments(text, 65_536);
    expect(parts).toHaveLength(3);
    for (const [i, part] of parts.entries()) {
      expect(part.length).toBeLessThanOrEqual(65_536);
      expect(part.startsWith(`(${i + 1}/3)\n\n`)).toBe(true);
    }
    // paragraph boundaries: no part starts or ends mid-paragraph
    expect(parts.map(bodyOf).join('\n\n')).toBe(text);
  });

  it('keeps only whitespace past the limit out of the comment instead of numbering one part', () => {
    expect(splitForComments(`${'a'.repeat(10)}${' '.repeat(20)}`, 20)).toEqual(['a'.repeat(10)]);
  });

  it('refuses a limit that leaves no room for text', () => {
    expect(() => splitForComments('x'.repeat(20), 7)).toThrow(/no room/);
    expect(() => splitForComments('x', 0)).toThrow(RangeError);
  });

  it('keeps every part within the limit and every word, in order (property)', () => {
    const word = fc.stringMatching(/^[a-z]{1,8}$/);
    const separator = fc.constantFrom(' ', '\n', '\n\n', '  ');
    const text = fc
      .array(fc.tuple(word, separator), { minLength: 1, maxLength: 300 })
      .map((pairs) => pairs.map(([w, s]) => w + s).join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 30, max: 400 }), (input, limit) => {
        const parts = splitForComments(input, limit);
        for (const part of parts) expect(part.length).toBeLessThanOrEqual(limit);
        if (parts.length > 1) {
          parts.forEach((part, i) =>
            expect(part.startsWith(partHeader(i + 1, parts.length))).toBe(true),
          );
        }
        const words = (s: string) => s.split(/\s+/).filter(Boolean);
        expect(words(parts.map(bodyOf).join(' '))).toEqual(words(input));
      }),
    );
  });
});

describe('chunkText', () => {
  it('drops the whitespace at each cut and keeps the rest', () => {
    expect(chunkText('aaa\n\n\n\nbbb', 5)).toEqual(['aaa', 'bbb']);
  });

  it('returns one empty chunk for an empty text', () => {
    expect(chunkText('', 5)).toEqual(['']);
  });
});
