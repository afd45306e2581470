import { ConfigError, parseConfig, silentLogger, type GatewayConfig } from '@webhook-gateway/core';
import { createHooks } from '@webhook-gateway/core/runtime';
import { describe, expect, it } from 'vitest';
import { messengerConfigProblems } from './config-problems.js';
import plugin from './index.js';
import { settingsIn } from './test-support/messenger-request.js';

function config(platforms: Record<string, unknown>, routes: Record<string, unknown> = {}) {
  return parseConfig(
    { platforms: { ...platforms, webhook: { extra: { host: '127.0.0.1', secret: 'x', routes } } } },
    {},
    [plugin],
  );
}

/** The problems of a config, with the settings the plugin's setup would get from it. */
function problemsOf(cfg: GatewayConfig) {
  return messengerConfigProblems(settingsIn(cfg), cfg);
}

describe('messengerConfigProblems', () => {
  it('names the route and the platform when a route delivers to a platform not enabled', () => {
    const problems = problemsOf(config({}, { alerts: { deliver: 'telegram' } }));
    expect(problems).toEqual([
      {
        path: 'platforms.webhook.extra.routes.alerts.deliver',
        message: 'delivers to messenger_a, but platforms.messenger_a.enabled is not true',
      },
    ]);
  });

  it('names the missing credential of an enabled platform', () => {
    const problems = problemsOf(
      config({
        discord: { enabled: true, home_channel: '1' },
        signal: { enabled: true, home_channel: '+1' },
      }),
    );
    expect(problems.map((p) => p.path)).toEqual([
      'platforms.messenger_b.token',
      'platforms.messenger_d.number',
    ]);
    expect(problems[0]?.message).toMatch(
      /^is required when platforms.messenger_b.enabled is true: the bot token/,
    );
  });

  it('flags a route with no chat_id on a platform with no home_channel', () => {
    const problems = problemsOf(
      config({ slack: { enabled: true, token: 'xoxb-1' } }, { team: { deliver: 'messenger_c' } }),
    );
    expect(problems).toEqual([
      {
        path: 'platforms.webhook.extra.routes.team.deliver_extra.chat_id',
        message:
          'route delivers to messenger_c but names no channel: set deliver_extra.chat_id or platforms.messenger_c.home_channel',
      },
    ]);
  });

  it('accepts enabled platforms with credentials and routes that name a chat', () => {
    const cfg = config(
      {
        telegram: { enabled: true, token: '1:a' },
        messenger_d: { enabled: true, number: '+1', home_channel: '+2' },
      },
      {
        a: { deliver: 'telegram', deliver_extra: { chat_id: '{chat}' } },
        d: { deliver: 'signal' },
        l: { deliver: 'log' },
      },
    );
    expect(problemsOf(cfg)).toEqual([]);
  });
});

describe('plugin setup', () => {
  const bad = config({}, { alerts: { deliver: 'messenger_b' } });
  const context = {
    hooks: createHooks(),
    log: silentLogger(),
    home: '/tmp',
    settings: () => settingsIn(bad),
    currentConfig: (): never => {
      throw new Error('not read in this test');
    },
    settingsOf: (): never => {
      throw new Error('no dependencies');
    },
  };

  it('throws a ConfigError when the gateway is about to serve', async () => {
    const setup = async () =>
      plugin.setup({ ...context, config: bad, serving: true }, plugin.options!.parse({}));
    const error = (await setup().catch((e: unknown) => e)) as ConfigError;
    expect(error).toBeInstanceOf(ConfigError);
    expect(error.problems[0]?.path).toBe('platforms.webhook.extra.routes.alerts.deliver');
  });

  it('does not check when the gateway is not serving, and taps all four targets', async () => {
    const hooks = createHooks();
    const instance = await plugin.setup(
      { ...context, hooks, config: bad, serving: false },
      plugin.options!.parse({}),
    );
    expect(instance).toBeUndefined();
    for (const target of ['messenger_a', 'messenger_b', 'messenger_c', 'messenger_d']) {
      expect(hooks.deliver.get(target)?.isUsed()).toBe(true);
    }
  });
});
