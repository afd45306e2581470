import { GATEWAY_MARKER } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { commentBodies, EMPTY_ANSWER_PLACEHOLDER } from './comment-bodies.js';

const MARKER = '\n\n<!-- webhook-gateway:delivery d-1 -->';

describe('commentBodies', () => {
  it('posts SKIP as it is, with the gateway marker after it', () => {
    expect(commentBodies('SKIP', 100, 'd-1')).toEqual([`SKIP${MARKER}`]);
  });

  it('posts a placeholder for an empty or blank answer, which the CLIs would refuse', () => {
    expect(commentBodies('', 100, 'd-1')).toEqual([EMPTY_ANSWER_PLACEHOLDER + MARKER]);
    expect(commentBodies(' \n\t', 100, 'd-1')).toEqual([EMPTY_ANSWER_PLACEHOLDER + MARKER]);
  });

  it('splits a long answer, each part marked and within the limit', () => {
    const bodies = commentBodies('word '.repeat(100), 100, 'd-1');
    expect(bodies.length).toBeGreaterThan(1);
    for (const body of bodies) {
      expect(body.length).toBeLessThanOrEqual(100);
      expect(body).toContain(GATEWAY_MARKER);
    }
  });
});
