import { describe, expect, it } from 'vitest';
import { answerText, EMPTY_ANSWER_TEXT } from './answer-text.js';

describe('answerText', () => {
  it('keeps a non-blank answer as it is, SKIP included', () => {
    expect(answerText('  LGTM\n')).toBe('  LGTM\n');
    expect(answerText('SKIP')).toBe('SKIP');
  });

  it('replaces a blank answer with the placeholder', () => {
    expect(answerText(' \n\t')).toBe(EMPTY_ANSWER_TEXT);
    expect(answerText('', '(nothing)')).toBe('(nothing)');
  });
});
