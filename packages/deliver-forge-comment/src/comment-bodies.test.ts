import { describe, expect, it } from 'vitest';
import { commentBodies, EMPTY_ANSWER_PLACEHOLDER } from './comment-bodies.js';

describe('commentBodies', () => {
  it('posts SKIP as it is', () => {
    expect(commentBodies('SKIP', 100)).toEqual(['SKIP']);
  });

  it('posts a placeholder for an empty or blank answer, which the CLIs would refuse', () => {
    expect(commentBodies('', 100)).toEqual([EMPTY_ANSWER_PLACEHOLDER]);
    expect(commentBodies(' \n\t', 100)).toEqual([EMPTY_ANSWER_PLACEHOLDER]);
  });

  it('splits a long answer', () => {
    expect(commentBodies('word '.repeat(100), 100).length).toBeGreaterThan(1);
  });
});
