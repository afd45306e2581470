import { describe, expect, it } from 'vitest';
import { builtinPlugins } from '../../builtin-plugins.js';
import { canonicalTarget, unknownTargetMessage } from './targets.js';

const plugins = builtinPlugins();

describe('canonicalTarget', () => {
  it.each([
    ['telegram', 'messenger_a'],
    ['discord', 'messenger_b'],
    ['slack', 'messenger_c'],
    ['signal', 'messenger_d'],
    [' sms ', 'sms'],
    ['forge_comment', 'forge_comment'],
  ])('maps %j to %s', (given, canonical) => {
    expect(canonicalTarget(given, plugins)).toBe(canonical);
  });

  it('knows no alias without the plugin that declares it', () => {
    expect(canonicalTarget('telegram', [])).toBe('telegram');
  });
});

describe('unknownTargetMessage', () => {
  it('names the value, the option and every target and alias the loaded plugins provide', () => {
    const message = unknownTargetMessage('pager', plugins);
    expect(message).toContain('"pager" (--deliver)');
    const targets = [
      'log',
      'forge_comment',
      'altforge_comment',
      'messenger_a',
      'messenger_b',
      'messenger_c',
      'messenger_d',
      'sms',
    ];
    for (const target of [...targets, 'telegram', 'signal']) expect(message).toContain(target);
  });
});
