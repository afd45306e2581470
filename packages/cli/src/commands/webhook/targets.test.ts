import { describe, expect, it } from 'vitest';
import { BUILTIN_TARGETS, canonicalTarget, unknownTargetMessage } from './targets.js';

describe('canonicalTarget', () => {
  it.each([
    ['telegram', 'messenger_a'],
    ['discord', 'messenger_b'],
    ['slack', 'messenger_c'],
    ['signal', 'messenger_d'],
    [' sms ', 'sms'],
    ['forge_comment', 'forge_comment'],
  ])('maps %j to %s', (given, canonical) => {
    expect(canonicalTarget(given)).toBe(canonical);
  });
});

describe('unknownTargetMessage', () => {
  it('names the value, the option and every built-in target and alias', () => {
    const message = unknownTargetMessage('pager');
    expect(message).toContain('"pager" (--deliver)');
    for (const target of [...BUILTIN_TARGETS, 'telegram', 'signal'])
      expect(message).toContain(target);
  });
});
