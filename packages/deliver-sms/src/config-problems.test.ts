import { ConfigError, parseConfig, silentLogger } from '@webhook-gateway/core';
import { createHooks } from '@webhook-gateway/core/runtime';
import { describe, expect, it } from 'vitest';
import { smsConfigProblems } from './config-problems.js';
import plugin from './index.js';
import { smsSettingsSchema } from './settings.js';

/** The problems of `platforms.sms` with these routes, read as the gateway reads a config. */
function problemsOf(sms: Record<string, unknown>, routes: Record<string, unknown> = {}) {
  const config = parseConfig(
    { platforms: { sms, webhook: { extra: { host: '127.0.0.1', secret: 'x', routes } } } },
    {},
    [plugin],
  );
  return smsConfigProblems(smsSettingsSchema.parse(sms), config);
}

describe('smsConfigProblems', () => {
  it('names the route when it delivers to sms while sms is not enabled', () => {
    expect(problemsOf({}, { pager: { deliver: 'sms' } })).toEqual([
      {
        path: 'platforms.webhook.extra.routes.pager.deliver',
        message: 'delivers to sms, but platforms.sms.enabled is not true',
      },
    ]);
  });

  it('names each missing credential of an enabled sms platform', () => {
    const problems = problemsOf({ enabled: true, home_number: '+1' });
    expect(problems.map((p) => p.path)).toEqual([
      'platforms.sms.account_sid',
      'platforms.sms.auth_token',
      'platforms.sms.from',
    ]);
  });

  it('flags a route with no deliver_extra.to when there is no home_number', () => {
    const sms = { enabled: true, account_sid: 'AC1', auth_token: 't', from: '+1' };
    expect(problemsOf(sms, { pager: { deliver: 'sms' } })).toEqual([
      {
        path: 'platforms.webhook.extra.routes.pager.deliver_extra.to',
        message:
          'route delivers to sms but names no number: set deliver_extra.to or platforms.sms.home_number',
      },
    ]);
    expect(problemsOf(sms, { pager: { deliver: 'sms', deliver_extra: { to: '+2' } } })).toEqual([]);
  });
});

describe('plugin setup', () => {
  it('throws a ConfigError when serving, and only taps the target otherwise', async () => {
    const bad = parseConfig(
      { platforms: { webhook: { extra: { routes: { pager: { deliver: 'sms' } } } } } },
      {},
      [plugin],
    );
    const settings = { sms: smsSettingsSchema.parse({}) };
    const settingsOf = (): never => {
      throw new Error('no dependencies');
    };
    const base = {
      log: silentLogger(),
      home: '/tmp',
      config: bad,
      settings: () => settings,
      settingsOf,
      currentConfig: () => bad,
    };
    const serve = async () =>
      plugin.setup({ ...base, hooks: createHooks(), serving: true }, plugin.options!.parse({}));
    await expect(serve()).rejects.toBeInstanceOf(ConfigError);
    const hooks = createHooks();
    expect(
      await plugin.setup({ ...base, hooks, serving: false }, plugin.options!.parse({})),
    ).toBeUndefined();
    expect(hooks.deliver.get('sms')?.isUsed()).toBe(true);
  });
});
