import { describe, expect, it } from 'vitest';
import { favourMemoryFootprint } from './v8-footprint.js';

describe('favourMemoryFootprint', () => {
  it('leaves V8 alone when the operator opts out', () => {
    expect(favourMemoryFootprint({ WEBHOOK_GATEWAY_V8_DEFAULTS: '0' })).toBe(false);
  });

  it('asks V8 for a conservative heap otherwise', () => {
    expect(favourMemoryFootprint({})).toBe(true);
  });
});
