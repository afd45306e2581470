import { ConfigError, createHooks, parseConfig, silentLogger } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { smsConfigProblems } from './config-problems.js';
import plugin from './index.js';

function config(sms: Record<string, unknown>, routes: Record<string, unknown> = {}) {
  return parseConfig(
    { platforms: { sms, webhook: { extra: { host: '127.0.0.1', secret: 'x', routes } } } },
    {},
  );
}

describe('smsConfigProblems', () => {
  it('names the route when it delivers to sms while sms is not enabled', () => {
    expect(smsConfigProblems(config({}, { pager: { deliver: 'sms' } }))).toEqual([
      {
        path: 'platforms.webhook.extra.routes.pager.deliver',
        message: 'delivers to sms, but platforms.sms.enabled is not true',
      },
    ]);
  });

  it('names each missing credential of an enabled sms platform', () => {
    const problems = smsConfigProblems(config({ enabled: true, home_number: '+1' }));
    expect(problems.map((p) => p.path)).toEqual([
      'platforms.sms.account_sid',
      'platforms.sms.auth_token',
      'platforms.sms.from',
    ]);
  });

  it('flags a route with no deliver_extra.to when there is no home_number', () => {
    const sms = { enabled: true, account_sid: 'AC1', auth_token: 't', from: '+1' };
    expect(smsConfigProblems(config(sms, { pager: { deliver: 'sms' } }))).toEqual([
      {
        path: 'platforms.webhook.extra.routes.pager.deliver_extra.to',
        message:
          'route delivers to sms but names no number: set deliver_extra.to or platforms.sms.home_number',
      },
    ]);
    expect(
      smsConfigProblems(config(sms, { pager: { deliver: 'sms', deliver_extra: { to: '+2' } } })),
    ).toEqual([]);
  });
});

describe('plugin setup', () => {
  it('throws a ConfigError when serving, and only taps the target otherwise', async () => {
    const bad = config({}, { pager: { deliver: 'sms' } });
    const base = { log: silentLogger(), home: '/tmp', config: bad, settings: {} };
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
