import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMPTY_ANSWER_TEXT, messageParts, splitMessage } from './split-message.js';

const noSpace = (text: string) => text.replace(/\s+/g, '');

describe('splitMessage', () => {
  it('keeps a message that fits as it is', () => {
    expect(splitMessage('hello  world\n', 20)).toEqual(['hello  world\n']);
  });

  it('cuts at the last paragraph break that fits', () => {
    const text = 'one one\n\ntwo two\n\nthree three';
    expect(splitMessage(text, 18)).toEqual(['one one\n\ntwo two', 'three three']);
  });

  it('prefers a paragraph break to a later line break', () => {
    const text = 'aaaa\n\nbbbb\ncccc\ndddd';
    expect(splitMessage(text, 16)).toEqual(['aaaa', 'bbbb\ncccc\ndddd']);
  });

  it('falls back to line breaks, then to spaces between words', () => {
    expect(splitMessage('line one\nline two\nline three', 18)).toEqual([
      'line one\nline two',
      'line three',
    ]);
    expect(splitMessage('alpha beta gamma delta', 11)).toEqual(['alpha beta', 'gamma delta']);
  });

  it('keeps the indentation of the line after a cut', () => {
    expect(splitMessage('intro text\n\n    code();', 14)).toEqual(['intro text', '    code();']);
  });

  it('cuts inside a word only when the word alone is longer than the limit', () => {
    expect(splitMessage('ab ' + 'x'.repeat(12) + ' cd', 5)).toEqual([
      'ab',
      'xxxxx',
      'xxxxx',
      'xx cd',
    ]);
  });

  it('never splits an emoji (a surrogate pair) in a hard cut', () => {
    const parts = splitMessage('aa😀😀', 3);
    expect(parts).toEqual(['aa', '😀', '😀']);
  });

  it('handles Windows line endings', () => {
    expect(splitMessage('one\r\n\r\ntwo\r\nthree', 10)).toEqual(['one', 'two\r\nthree']);
  });

  it('rejects a limit too small to make progress', () => {
    expect(() => splitMessage('abc', 1)).toThrow(/at least 2/);
  });

  it('keeps every part within the limit, in order, losing only whitespace (property)', () => {
    const text = fc.string({
      unit: fc.constantFrom('a', 'b', ' ', '\n', '\n\n', 'é', '😀', '\t', 'word '),
      maxLength: 400,
    });
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 60 }), (input, limit) => {
        const parts = splitMessage(input, limit);
        expect(parts.length).toBeGreaterThan(0);
        for (const part of parts) expect(part.length).toBeLessThanOrEqual(limit);
        if (parts.length > 1) for (const part of parts) expect(part.trim()).not.toBe('');
        expect(noSpace(parts.join(''))).toBe(noSpace(input));
      }),
    );
  });
});

describe('messageParts', () => {
  it('sends a placeholder for an empty or blank answer', () => {
    expect(messageParts('', 100)).toEqual([EMPTY_ANSWER_TEXT]);
    expect(messageParts(' \n ', 100)).toEqual([EMPTY_ANSWER_TEXT]);
  });

  it('sends SKIP as it is', () => {
    expect(messageParts('SKIP', 100)).toEqual(['SKIP']);
  });
});
