import { parseConfig, silentLogger } from '@webhook-gateway/core';
import { createHooks } from '@webhook-gateway/core/runtime';
import { describe, expect, it, vi } from 'vitest';
import agentPlugin from './index.js';
import { localTerminalWarning, openAISetupProblems } from './setup-checks.js';

const openai = { runner: 'openai', base_url: 'http://127.0.0.1:1/v1', model: 'm' };

function config(
  host: string,
  agent: Record<string, unknown>,
  routeAgent?: Record<string, unknown>,
) {
  return parseConfig(
    {
      agent,
      platforms: {
        webhook: {
          extra: {
            host,
            routes: { review: { secret: 's', ...(routeAgent ? { agent: routeAgent } : {}) } },
          },
        },
      },
    },
    {},
    [agentPlugin],
  );
}

describe('localTerminalWarning', () => {
  it('warns when a local terminal serves a public bind, naming the key to change', () => {
    expect(localTerminalWarning(config('0.0.0.0', openai))).toMatch(
      /0\.0\.0\.0.*not a loopback address.*docker or ssh via agent\.terminal\.backend/,
    );
  });

  it('stays quiet on a loopback bind, with a sandbox, or without the openai runner', () => {
    expect(localTerminalWarning(config('127.0.0.1', openai))).toBeUndefined();
    expect(
      localTerminalWarning(
        config('0.0.0.0', { ...openai, terminal: { backend: 'docker', image: 'alpine' } }),
      ),
    ).toBeUndefined();
    expect(
      localTerminalWarning(config('0.0.0.0', { ...openai, terminal: { enabled: false } })),
    ).toBeUndefined();
    expect(localTerminalWarning(config('0.0.0.0', { runner: 'dry-run' }))).toBeUndefined();
  });

  it('names a route whose own agent runs openai locally', () => {
    expect(localTerminalWarning(config('0.0.0.0', { runner: 'dry-run' }, openai))).toMatch(
      /routes: review/,
    );
  });
});

describe('openAISetupProblems', () => {
  it('names agent.base_url and agent.model when they are missing', () => {
    const problems = openAISetupProblems(config('127.0.0.1', { runner: 'openai' }));
    expect(problems.join('\n')).toMatch(/agent\.base_url is not set/);
    expect(problems.join('\n')).toMatch(/agent\.model is not set/);
  });

  it('checks the merged block of a route that switches to openai', () => {
    expect(
      openAISetupProblems(config('127.0.0.1', { runner: 'dry-run' }, { runner: 'openai' }))[0],
    ).toMatch(/^route "review": agent.runner is "openai" but agent.base_url/);
    expect(
      openAISetupProblems(config('127.0.0.1', { runner: 'dry-run', model: 'm' }, openai)),
    ).toEqual([]);
  });
});

describe('agent plugin setup', () => {
  it('logs the sandbox warning when the gateway is about to serve', async () => {
    const log = silentLogger();
    const warn = vi.spyOn(log, 'warn');
    const context = {
      hooks: createHooks(),
      log,
      config: config('0.0.0.0', openai),
      home: '/tmp',
      settings: () => ({}),
      currentConfig: (): never => {
        throw new Error('not read in this test');
      },
      settingsOf: (): never => {
        throw new Error('no dependencies');
      },
    };
    await agentPlugin.setup({ ...context, serving: false }, undefined);
    expect(warn).not.toHaveBeenCalled();
    await agentPlugin.setup({ ...context, hooks: createHooks(), serving: true }, undefined);
    expect(String(warn.mock.calls[0]?.[0])).toMatch(/agent\.terminal\.backend/);
  });

  it('refuses an openai agent without a model', async () => {
    const context = {
      hooks: createHooks(),
      log: silentLogger(),
      home: '/tmp',
      serving: true,
      settings: () => ({}),
      currentConfig: (): never => {
        throw new Error('not read in this test');
      },
      settingsOf: (): never => {
        throw new Error('no dependencies');
      },
    };
    const setup = async () =>
      agentPlugin.setup(
        { ...context, config: config('127.0.0.1', { runner: 'openai' }) },
        undefined,
      );
    await expect(setup()).rejects.toThrow(/agent\.model/);
  });
});
