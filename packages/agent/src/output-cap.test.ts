import { describe, expect, it } from 'vitest';
import { capOutput } from './output-cap.js';

describe('capOutput', () => {
  it('keeps output within the limit as it is', () => {
    expect(capOutput(Buffer.from('hello\n'), 100, false)).toEqual({ text: 'hello\n' });
  });

  it('cuts longer output and says how much was left out', () => {
    expect(capOutput(Buffer.from('abcdefgh'), 3, false)).toEqual({
      text: 'abc',
      note: 'cut: showing the first 3 of 8 bytes',
    });
  });

  it('says "more than" when the reader already stopped collecting', () => {
    expect(capOutput(Buffer.from('abcdefgh'), 3, true).note).toBe(
      'cut: showing the first 3 of more than 8 bytes',
    );
  });

  it('does not end on half a character', () => {
    // "é" is two bytes in UTF-8; the cut falls between them.
    expect(capOutput(Buffer.from('aé'), 2, false).text).toBe('a');
  });
});
