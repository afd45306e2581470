import { parseConfig } from '@webhook-gateway/core';
import { createHooks } from '@webhook-gateway/core/runtime';
import { afterEach, describe, expect, it } from 'vitest';
import { settingsIn } from './test-support/messenger-request.js';
import plugin from './index.js';
import { capturingLogger } from '@webhook-gateway/core/testing';
import { startFakeService, type FakeService } from '@webhook-gateway/target-kit/testing';

const TELEGRAM_TOKEN = '777:telegram-secret';
const DISCORD_TOKEN = 'discord-secret';

const fakes: FakeService[] = [];
afterEach(async () => {
  await Promise.all(fakes.splice(0).map((fake) => fake.close()));
});

async function fakeService(...args: Parameters<typeof startFakeService>) {
  const fake = await startFakeService(...args);
  fakes.push(fake);
  return fake;
}

describe('start-time credential checks', () => {
  it('logs each enabled platform as connected or not connected, and never fails the start', async () => {
    const telegram = await fakeService(() => ({
      status: 200,
      body: { ok: true, result: { id: 1, is_bot: true, first_name: 'Rev', username: 'rev_bot' } },
    }));
    const discord = await fakeService(() => ({
      status: 401,
      body: { message: '401: Unauthorized', code: 0 },
    }));
    const slack = await fakeService(() => ({ status: 200, body: { ok: true } }));
    const config = parseConfig(
      {
        platforms: {
          telegram: {
            enabled: true,
            token: TELEGRAM_TOKEN,
            home_channel: '1',
            api_base: telegram.url,
          },
          discord: {
            enabled: true,
            token: DISCORD_TOKEN,
            home_channel: '2',
            api_base: discord.url,
          },
          slack: { enabled: false, token: 'xoxb-unused', api_base: slack.url },
        },
      },
      {},
      [plugin],
    );
    const capture = capturingLogger();
    const instance = await plugin.setup(
      {
        hooks: createHooks(),
        log: capture.log,
        config,
        home: '/tmp',
        serving: true,
        settings: () => settingsIn(config),
        currentConfig: (): never => {
          throw new Error('not read in this test');
        },
        settingsOf: (): never => {
          throw new Error('no dependencies');
        },
      },
      plugin.options!.parse({}),
    );
    await expect(instance?.start?.()).resolves.toBeUndefined();

    expect(capture.lines).toContainEqual({
      level: 'info',
      fields: { platform: 'messenger_a', identity: '@rev_bot' },
      message: 'messenger_a (Telegram) connected as @rev_bot',
    });
    expect(capture.lines).toContainEqual({
      level: 'warn',
      fields: { platform: 'messenger_b' },
      message:
        'messenger_b (Discord) not connected: Discord rejected the bot token: 401: Unauthorized (HTTP 401)',
    });
    expect(slack.requests).toHaveLength(0);
    expect(capture.text()).not.toContain(TELEGRAM_TOKEN);
    expect(capture.text()).not.toContain(DISCORD_TOKEN);
    await instance?.stop?.();
  });

  it('reports an unreachable service as not connected', async () => {
    const gone = await fakeService(() => ({ status: 200 }));
    await gone.close();
    const config = parseConfig(
      {
        platforms: {
          signal: { enabled: true, number: '+1555', home_channel: '+1666', api_base: gone.url },
        },
      },
      {},
      [plugin],
    );
    const capture = capturingLogger();
    const instance = await plugin.setup(
      {
        hooks: createHooks(),
        log: capture.log,
        config,
        home: '/tmp',
        serving: true,
        settings: () => settingsIn(config),
        currentConfig: (): never => {
          throw new Error('not read in this test');
        },
        settingsOf: (): never => {
          throw new Error('no dependencies');
        },
      },
      plugin.options!.parse({}),
    );
    await instance?.start?.();
    expect(capture.lines).toHaveLength(1);
    expect(capture.lines[0]?.level).toBe('warn');
    expect(capture.lines[0]?.message).toMatch(
      /^messenger_d \(signal-cli REST API\) not connected: could not reach signal-cli REST API at http:\/\/127\.0\.0\.1:\d+: ECONNREFUSED$/,
    );
  });
});
