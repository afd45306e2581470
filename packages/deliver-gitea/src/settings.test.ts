/** `platforms.gitea`, validated by core's parseConfig as a gateway validates it, and its checks. */
import { ConfigError, parseConfig } from '@webhook-gateway/core';
import { configJsonSchema, configSlicesOf } from '@webhook-gateway/core/runtime';
import { describe, expect, it } from 'vitest';
import plugin, { giteaApiBase, giteaConfigProblems, giteaSettingsSchema } from './index.js';

function problemsOf(platforms: Record<string, unknown>) {
  try {
    parseConfig({ platforms }, {}, [plugin]);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  throw new Error('the config was accepted');
}

/** A config whose route `reviews` delivers with `route`'s keys. */
function configWith(gitea: Record<string, unknown>, route: Record<string, unknown>) {
  return parseConfig(
    {
      platforms: {
        gitea,
        webhook: { extra: { routes: { reviews: { secret: 's', ...route } } } },
      },
    },
    {},
    [plugin],
  );
}

describe('platforms.gitea', () => {
  it('names the key of a bad value and of an unknown key', () => {
    const problems = problemsOf({ gitea: { base_url: 'ftp://x', tokn: 't' } });
    expect(problems.map((problem) => [problem.path, problem.message])).toEqual([
      ['platforms.gitea.base_url', expect.stringContaining('http(s)')],
      ['platforms.gitea.tokn', 'unknown key'],
    ]);
  });

  it('finds the API under /api/v1 of the address, given with or without it', () => {
    expect(giteaApiBase('https://gitea.example.com/')).toBe('https://gitea.example.com/api/v1');
    expect(giteaApiBase('https://h.example/git/api/v1')).toBe('https://h.example/git/api/v1');
  });

  it('a route delivering to Gitea needs the address and the token', () => {
    const config = configWith({}, { deliver: 'gitea_review' });
    const problems = giteaConfigProblems(giteaSettingsSchema.parse({}), config);
    expect(problems.map((problem) => problem.path)).toEqual([
      'platforms.gitea.base_url',
      'platforms.gitea.token',
    ]);
    expect(problems[0]?.message).toContain('route reviews delivers to Gitea');
    expect(problems[1]?.message).toContain('GITEA_TOKEN');
  });

  it('refuses a mode that is neither new nor update', () => {
    const settings = { base_url: 'https://g.example', token: 't' };
    const config = configWith(settings, {
      deliver: 'gitea_comment',
      deliver_extra: { mode: 'edit' },
    });
    expect(plugin.check?.(config)).toEqual([
      {
        path: 'platforms.webhook.extra.routes.reviews.deliver_extra.mode',
        message: 'gitea_comment: deliver_extra.mode is "edit"; use "new" or "update"',
      },
    ]);
  });

  it('appears in the config JSON Schema', () => {
    const schema = configJsonSchema(configSlicesOf([plugin])) as {
      properties: { platforms: { properties: Record<string, { properties: object }> } };
    };
    expect(Object.keys(schema.properties.platforms.properties.gitea?.properties ?? {})).toEqual([
      'base_url',
      'token',
      'bot',
    ]);
  });
});
