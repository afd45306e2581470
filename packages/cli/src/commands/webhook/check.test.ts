import { parseConfig, type Subscription } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { builtinPlugins } from '../../builtin-plugins.js';
import {
  configWithOnlyRoute,
  isInstalledTarget,
  subscriptionProblemSource,
  subscriptionProblems,
} from './check.js';

const home = '/tmp/webhook-check-home';
const plugins = builtinPlugins();

/** A config as the CLI reads one: the built-ins own their slices of `platforms:`. */
function configOf(raw: unknown) {
  return parseConfig(
    raw,
    {},
    plugins.map(({ plugin }) => plugin),
  );
}

const subscription: Subscription = {
  name: 'ci',
  description: null,
  events: [],
  prompt: null,
  deliver: 'log',
  deliverChatId: null,
  skills: [],
  secret: 'a-strong-subscription-secret',
  createdAt: 0,
  updatedAt: 0,
};

describe('isInstalledTarget', () => {
  const config = configOf({});

  it.each(['log', 'forge_comment', 'altforge_comment', 'messenger_a', 'messenger_d', 'sms'])(
    'knows the built-in target %s',
    async (target) => {
      expect(await isInstalledTarget(target, { config, home, plugins })).toBe(true);
    },
  );

  it('does not know a target no plugin installs', async () => {
    expect(await isInstalledTarget('pager', { config, home, plugins })).toBe(false);
  });
});

describe('subscriptionProblems', () => {
  it('finds nothing wrong with a log subscription', async () => {
    expect(
      await subscriptionProblems(subscription, { config: configOf({}), home, plugins }),
    ).toEqual([]);
  });

  it('refuses a messenger target whose platform is not enabled, naming --deliver', async () => {
    const problems = await subscriptionProblems(
      { ...subscription, deliver: 'messenger_a' },
      { config: configOf({}), home, plugins },
    );
    expect(problems).toEqual([
      {
        path: '--deliver',
        message: expect.stringContaining('platforms.messenger_a.enabled') as string,
      },
    ]);
  });

  it('asks for --deliver-chat-id when the messenger platform has no home channel', async () => {
    const config = configOf({ platforms: { telegram: { enabled: true, token: 't0k3n' } } });
    const problems = await subscriptionProblems(
      { ...subscription, deliver: 'messenger_a' },
      { config, home, plugins },
    );
    expect(problems.map((p) => p.path)).toEqual(['--deliver-chat-id']);
    const withChat = { ...subscription, deliver: 'messenger_a', deliverChatId: '-1001' };
    expect(await subscriptionProblems(withChat, { config, home, plugins })).toEqual([]);
  });

  it('refuses INSECURE_NO_AUTH while the gateway binds a public address', async () => {
    const problems = await subscriptionProblems(
      { ...subscription, secret: 'INSECURE_NO_AUTH' },
      { config: configOf({}), home, plugins },
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]?.message).toContain('INSECURE_NO_AUTH');
  });

  it('ignores problems of the static routes: only the subscription is checked', async () => {
    const config = configOf({
      platforms: { webhook: { extra: { routes: { broken: { deliver: 'sms' } } } } },
    });
    expect(await subscriptionProblems(subscription, { config, home, plugins })).toEqual([]);
  });
});

describe('configWithOnlyRoute', () => {
  it('keeps every other setting and swaps the routes for the subscription', () => {
    const config = configOf({
      platforms: { webhook: { extra: { port: 9000, routes: { other: { secret: 'x' } } } } },
    });
    const checked = configWithOnlyRoute(config, subscription);
    expect(checked.platforms.webhook.extra.port).toBe(9000);
    expect(Object.keys(checked.platforms.webhook.extra.routes)).toEqual(['ci']);
    expect(checked.platforms.webhook.extra.routes.ci?.secret).toBe(subscription.secret);
  });
});

describe('subscriptionProblemSource', () => {
  it('names the option that sets a route key, and leaves other paths as they are', () => {
    expect(subscriptionProblemSource('ci', 'platforms.webhook.extra.routes.ci.deliver')).toBe(
      '--deliver',
    );
    expect(subscriptionProblemSource('ci', 'platforms.messenger_a.token')).toBe(
      'platforms.messenger_a.token',
    );
  });
});
