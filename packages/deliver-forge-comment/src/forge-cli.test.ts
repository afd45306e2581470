import { describe, expect, it } from 'vitest';
import { forgeCommentArgv, forgeEnv, normalizeForgeHost } from './forge-cli.js';
import { forgeSettingsSchema } from './settings.js';

/** `platforms.forge` as the plugin validates it. */
const forgeSettings = (forge: Record<string, unknown>) => forgeSettingsSchema.parse(forge);

describe('forgeCommentArgv', () => {
  it('is `pr comment <n> --repo <owner/repo> --body-file -`', () => {
    expect(forgeCommentArgv({ repo: 'o/r', prNumber: 12 })).toEqual([
      'pr',
      'comment',
      '12',
      '--repo',
      'o/r',
      '--body-file',
      '-',
    ]);
  });
});

describe('forgeEnv', () => {
  it('adds no credentials when none are configured (gh uses its own login)', () => {
    expect(forgeEnv(forgeSettings({}))).toEqual({ GH_PROMPT_DISABLED: '1', NO_COLOR: '1' });
  });

  it('passes the token as GH_TOKEN and the host as GH_HOST', () => {
    const env = forgeEnv(forgeSettings({ token: 'ghp_secret', host: 'github.com' }));
    expect(env).toMatchObject({ GH_TOKEN: 'ghp_secret', GH_HOST: 'github.com' });
    expect(env.GH_ENTERPRISE_TOKEN).toBeUndefined();
  });

  it('passes GH_ENTERPRISE_TOKEN as well for an enterprise host', () => {
    const env = forgeEnv(forgeSettings({ token: 'ghp_secret', host: 'https://ghe.example.com/' }));
    expect(env).toMatchObject({
      GH_TOKEN: 'ghp_secret',
      GH_ENTERPRISE_TOKEN: 'ghp_secret',
      GH_HOST: 'ghe.example.com',
    });
  });

  it('passes a host without a token', () => {
    const env = forgeEnv(forgeSettings({ host: 'ghe.example.com' }));
    expect(env.GH_HOST).toBe('ghe.example.com');
    expect(env.GH_TOKEN).toBeUndefined();
  });
});

describe('normalizeForgeHost', () => {
  it('reduces a pasted URL to its host name', () => {
    expect(normalizeForgeHost(' HTTPS://GHE.example.com/api/v3 ')).toBe('ghe.example.com');
    expect(normalizeForgeHost('github.com')).toBe('github.com');
  });
});
