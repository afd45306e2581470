import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { parseConfig } from './config/load.js';
import { agentForRoute } from './config/schema.js';
import { ConfigError } from './errors.js';
import { createGateway } from './gateway.js';
import { createHooks } from './hooks.js';
import { silentLogger } from './logger.js';
import { MemoryStore } from './memory-store.js';
import { configSlicesOf, definePlugin, settingsIn } from './plugin.js';
import { setupPlugin } from './plugin-loader.js';
import { setUpPlugins } from './plugin-setup.js';

const pager = definePlugin({
  name: '@acme/pager',
  provides: { targets: ['pager'] },
  platforms: { pager: z.strictObject({ url: z.url(), retries: z.int().default(2) }) },
  setup({ hooks, settings }) {
    hooks.deliver.for('pager').tapPromise('@acme/pager', async () => {
      seen.push(settings().pager);
    });
  },
});
const seen: unknown[] = [];

function context(config = parseConfig({}, {})) {
  return { hooks: createHooks(), log: silentLogger(), config, home: '/tmp', serving: false };
}

describe('plugin settings slices', () => {
  it("validate a plugin's slice with the config, naming the key path of a bad value", () => {
    const parse = () =>
      parseConfig({ platforms: { pager: { url: 'nope', retries: 1.5 } } }, {}, [pager]);
    expect(parse).toThrow(ConfigError);
    const problems = (() => {
      try {
        parse();
      } catch (error) {
        return (error as ConfigError).problems.map((problem) => problem.path);
      }
    })();
    expect(problems).toEqual(['platforms.pager.url', 'platforms.pager.retries']);
  });

  it('hand setup its slice, validated and defaulted', async () => {
    const config = parseConfig({ platforms: { pager: { url: 'http://127.0.0.1:9/' } } }, {}, [
      pager,
    ]);
    const ctx = context(config);
    await setupPlugin({ plugin: pager, options: undefined }, ctx);
    await ctx.hooks.deliver.get('pager')?.promise({} as never);
    expect(seen.at(-1)).toEqual({ url: 'http://127.0.0.1:9/', retries: 2 });
  });

  it("give setup a settings() that reads the live config, so a gateway's reload is seen", async () => {
    const reads: (() => string)[] = [];
    const watcher = definePlugin({
      name: '@acme/pager-watcher',
      platforms: pager.platforms,
      setup({ hooks, settings }) {
        // A gateway needs the runner its config names.
        hooks.run.for('fixed').tapPromise('@acme/pager-watcher', async () => ({ answer: 'ok' }));
        reads.push(() => settings().pager.url);
      },
    });
    const withUrl = (url: string) =>
      parseConfig({ agent: { runner: 'fixed' }, platforms: { pager: { url } } }, {}, [watcher]);
    const gateway = await createGateway({
      config: withUrl('http://127.0.0.1:9/'),
      home: '/nonexistent-home',
      store: new MemoryStore(),
      log: silentLogger(),
      plugins: [{ plugin: watcher, options: undefined }],
    });
    try {
      expect(reads.map((read) => read())).toEqual(['http://127.0.0.1:9/']);
      gateway.reload(withUrl('http://127.0.0.1:10/'));
      expect(reads.map((read) => read())).toEqual(['http://127.0.0.1:10/']);
    } finally {
      await gateway.stop();
    }
  });

  it('refuse a slice that two plugins own, naming both', () => {
    const other = definePlugin({ ...pager, name: '@acme/other-pager' });
    expect(() => configSlicesOf([pager, other])).toThrow(
      'plugins @acme/pager and @acme/other-pager both own platforms.pager',
    );
  });
});

describe('dependencies', () => {
  const pagerSettings: { pager: { url: string } }[] = [];
  const escalation = definePlugin({
    name: '@acme/escalation',
    dependencies: ['@acme/pager'],
    setup({ hooks, settingsOf }) {
      hooks.deliver.for('escalate').tapPromise('@acme/escalation', async (request) => {
        pagerSettings.push(settingsOf<{ pager: { url: string } }>('@acme/pager', request.config));
      });
    },
  });
  const withPager = (url: string) => parseConfig({ platforms: { pager: { url } } }, {}, [pager]);

  it('read the settings of a plugin they name from the config given, so a reload is seen', async () => {
    const ctx = context(withPager('http://127.0.0.1:9/'));
    const loaded = [pager, escalation].map((plugin) => ({ plugin, options: undefined }));
    await setUpPlugins(loaded, ctx);
    const deliver = ctx.hooks.deliver.get('escalate');
    await deliver?.promise({ config: ctx.config } as never);
    await deliver?.promise({ config: withPager('http://127.0.0.1:10/') } as never);
    expect(pagerSettings.map((settings) => settings.pager.url)).toEqual([
      'http://127.0.0.1:9/',
      'http://127.0.0.1:10/',
    ]);
  });

  it('stop the start when a dependency is not loaded, naming both plugins', async () => {
    await expect(
      setUpPlugins([{ plugin: escalation, options: undefined }], context()),
    ).rejects.toThrow('@acme/escalation: depends on @acme/pager, which is not loaded');
  });

  it('refuse to read the settings of a plugin the dependencies do not name', async () => {
    const nosy = definePlugin({
      name: '@acme/nosy',
      setup({ settingsOf, config }) {
        settingsOf('@acme/pager', config);
      },
    });
    await expect(
      setUpPlugins(
        [pager, nosy].map((plugin) => ({ plugin, options: undefined })),
        context(withPager('http://127.0.0.1:9/')),
      ),
    ).rejects.toThrow(
      '@acme/nosy: reads the settings of @acme/pager, which its dependencies do not name',
    );
  });
});

describe('agent keys', () => {
  const llm = definePlugin({
    name: '@acme/llm',
    provides: { runners: ['llm'] },
    agent: {
      settings: {
        model: z.string().default('small'),
        limits: z
          .strictObject({ turns: z.int().default(3), tokens: z.int().default(9) })
          .prefault({}),
      },
      overrides: {
        model: z.string().optional(),
        limits: z.strictObject({ turns: z.int(), tokens: z.int() }).partial().optional(),
      },
    },
    setup() {},
  });

  it("add keys to agent: and to a route's agent:, defaulted and merged key by key", () => {
    const config = parseConfig(
      {
        agent: { runner: 'llm' },
        platforms: {
          webhook: {
            extra: { routes: { review: { secret: 's', agent: { limits: { turns: 7 } } } } },
          },
        },
      },
      {},
      [llm],
    );
    expect(config.agent).toEqual({
      runner: 'llm',
      timeout_s: 600,
      on_limit: 'partial',
      model: 'small',
      limits: { turns: 3, tokens: 9 },
    });
    const route = config.platforms.webhook.extra.routes.review;
    expect(agentForRoute(config.agent, route?.agent)).toEqual({
      runner: 'llm',
      timeout_s: 600,
      on_limit: 'partial',
      model: 'small',
      limits: { turns: 7, tokens: 9 },
    });
  });

  it('are unknown keys without the plugin, and a bad value names its key path', () => {
    const problems = (raw: unknown, plugins: (typeof llm)[]) => {
      try {
        parseConfig(raw, {}, plugins);
        return [];
      } catch (error) {
        return (error as ConfigError).problems.map((problem) => problem.path);
      }
    };
    expect(problems({ agent: { model: 'm' } }, [])).toEqual(['agent.model']);
    const route = { secret: 's', agent: { limits: { turns: 'many' } } };
    expect(
      problems({ platforms: { webhook: { extra: { routes: { review: route } } } } }, [llm]),
    ).toEqual(['platforms.webhook.extra.routes.review.agent.limits.turns']);
  });
});

describe('aliases', () => {
  const chat = definePlugin({
    name: '@acme/chat',
    provides: { targets: ['chat_a'] },
    platforms: { chat_a: z.strictObject({ token: z.string() }) },
    aliases: { acmechat: 'chat_a' },
    setup() {},
  });

  it('are accepted for platform keys and route targets, as their canonical names', () => {
    const config = parseConfig(
      {
        platforms: {
          acmechat: { token: 't' },
          webhook: { extra: { routes: { r: { secret: 's', deliver: 'acmechat' } } } },
        },
      },
      {},
      [chat],
    );
    expect(settingsIn(chat, config).chat_a).toEqual({ token: 't' });
    expect(config.platforms.webhook.extra.routes.r?.deliver).toBe('chat_a');
  });

  it('mean nothing without their plugin', () => {
    const config = parseConfig(
      {
        platforms: { webhook: { extra: { routes: { r: { secret: 's', deliver: 'acmechat' } } } } },
      },
      {},
      [],
    );
    expect(config.platforms.webhook.extra.routes.r?.deliver).toBe('acmechat');
  });
});

describe('settingsIn', () => {
  it("reads a plugin's slices from a config, as a tap reads the attempt's config after a reload", () => {
    const before = parseConfig({ platforms: { pager: { url: 'http://127.0.0.1:9/a' } } }, {}, [
      pager,
    ]);
    const after = parseConfig({ platforms: { pager: { url: 'http://127.0.0.1:9/b' } } }, {}, [
      pager,
    ]);
    expect(settingsIn(pager, before).pager).toEqual({ url: 'http://127.0.0.1:9/a', retries: 2 });
    expect(settingsIn(pager, after).pager.url).toBe('http://127.0.0.1:9/b');
  });
});

describe('provides', () => {
  it('is checked after setup: a declared target the plugin did not tap is its error', async () => {
    const forgetful = definePlugin({
      name: '@acme/forgetful',
      provides: { targets: ['pager'], runners: ['llm'] },
      setup() {},
    });
    await expect(setupPlugin({ plugin: forgetful, options: undefined }, context())).rejects.toThrow(
      'plugin @acme/forgetful: declares target "pager", runner "llm" in provides, but its setup did not tap them',
    );
  });
});
