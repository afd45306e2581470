/** The plugin's config slices, validated by core's parseConfig as a gateway validates them. */
import { ConfigError, parseConfig } from '@webhook-gateway/core';
import { configJsonSchema, configSlicesOf } from '@webhook-gateway/core/runtime';
import { describe, expect, it } from 'vitest';
import plugin from './index.js';

/** The slices of `platforms` a config gets once the plugin is loaded. */
function platformsWith(platforms: Record<string, unknown>): Record<string, unknown> {
  return parseConfig({ platforms }, {}, [plugin]).platforms;
}

function problemsOf(platforms: Record<string, unknown>, plugins = [plugin]) {
  try {
    parseConfig({ platforms }, {}, plugins);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('the config was accepted');
}

describe('platforms.forge and platforms.altforge', () => {
  it('fill in the defaults when the config leaves them out', () => {
    expect(platformsWith({})).toMatchObject({
      forge: { cli: 'gh', timeout_s: 60 },
      altforge: { cli: 'glab', timeout_s: 60 },
    });
  });

  it('keep what the config sets', () => {
    expect(
      platformsWith({
        forge: { cli: '/opt/gh', host: 'ghe.example.com', token: 't', timeout_s: 5 },
        altforge: { host: 'gitlab.example.com' },
      }),
    ).toMatchObject({
      forge: { cli: '/opt/gh', host: 'ghe.example.com', token: 't', timeout_s: 5 },
      altforge: { cli: 'glab', host: 'gitlab.example.com', timeout_s: 60 },
    });
  });

  it('name the key path of a bad value and of an unknown key', () => {
    const problems = problemsOf({
      forge: { timeout_s: 0 },
      altforge: { cli: '', tokn: 'x' },
    });
    expect(problems.map((problem) => problem.path).sort()).toEqual([
      'platforms.altforge.cli',
      'platforms.altforge.tokn',
      'platforms.forge.timeout_s',
    ]);
  });

  it('are unknown keys to a gateway without the plugin', () => {
    expect(problemsOf({ forge: { cli: 'gh' } }, []).map((problem) => problem.path)).toEqual([
      'platforms.forge',
    ]);
  });

  it('appear in the config JSON Schema with their defaults', () => {
    const schema = configJsonSchema(configSlicesOf([plugin])) as {
      properties: { platforms: { properties: Record<string, { properties: object }> } };
    };
    const { forge, altforge } = schema.properties.platforms.properties;
    expect(forge?.properties).toMatchObject({
      cli: { default: 'gh' },
      timeout_s: { default: 60 },
    });
    expect(altforge?.properties).toMatchObject({ cli: { default: 'glab' } });
  });
});
