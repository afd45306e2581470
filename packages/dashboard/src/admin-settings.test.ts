import { describe, expect, it } from 'vitest';
import { adminSettingsProblems } from './admin-settings.js';

const TOKEN = 'a-long-enough-admin-token';

describe('adminSettingsProblems', () => {
  it('accepts a loopback listener with a long token', () => {
    expect(adminSettingsProblems({ host: '127.0.0.1', port: 8645, token: TOKEN })).toEqual([]);
  });

  it('accepts a public listener with a long token', () => {
    expect(adminSettingsProblems({ host: '0.0.0.0', port: 8645, token: TOKEN })).toEqual([]);
  });

  it('refuses a public listener without a token and says the host is not loopback', () => {
    const [problem, ...rest] = adminSettingsProblems({ host: '0.0.0.0', port: 8645 });
    expect(rest).toEqual([]);
    expect(problem?.path).toBe('platforms.webhook.extra.admin.token');
    expect(problem?.message).toContain('0.0.0.0, which is not a loopback address');
  });

  it('refuses a loopback listener without a token too', () => {
    const problems = adminSettingsProblems({ host: '127.0.0.1', port: 8645 });
    expect(problems.map((p) => p.path)).toEqual(['platforms.webhook.extra.admin.token']);
    expect(problems[0]?.message).toContain('is not set');
  });

  it('refuses a short token without repeating it', () => {
    const problems = adminSettingsProblems({ host: '127.0.0.1', port: 8645, token: 'short-tok' });
    expect(problems[0]?.message).toContain('too short');
    expect(problems[0]?.message).not.toContain('short-tok');
  });
});
