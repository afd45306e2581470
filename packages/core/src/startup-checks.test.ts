import { describe, expect, it } from 'vitest';
import { parseConfig } from './config/load.js';
import { createHooks } from './hooks.js';
import { isLoopbackHost } from './loopback.js';
import {
  runnerProblems,
  schemeProblems,
  startupProblems,
  storeProblems,
  targetProblems,
} from './startup-checks.js';

function configWith(extra: Record<string, unknown>, agent: Record<string, unknown> = {}) {
  return parseConfig({ agent, platforms: { webhook: { extra } } }, {});
}

/** Hooks with the `log` target and the `dry-run` runner tapped, as the built-ins do. */
function builtInHooks() {
  const hooks = createHooks();
  hooks.deliver.for('log').tapPromise('test', async () => undefined);
  hooks.run.for('dry-run').tapPromise('test', async (request) => ({ answer: request.prompt }));
  return hooks;
}

describe('start-up checks', () => {
  it('names the route key and the loaded plugins for a target no plugin provides', () => {
    const config = configWith({ secret: 's', routes: { r: { deliver: 'pager' } } });
    expect(targetProblems(config, builtInHooks(), ['@acme/one', '@acme/two'])).toEqual([
      {
        path: 'platforms.webhook.extra.routes.r.deliver',
        message:
          'route "r" delivers to "pager", but no such target is installed (loaded plugins: @acme/one, @acme/two)',
      },
    ]);
  });

  it('names a scheme a route accepts that no plugin provides, with the loaded schemes', () => {
    const hooks = builtInHooks();
    hooks.authenticate.for('forge').tapPromise('@acme/forge', async () => undefined);
    hooks.authenticate.for('linear').tapPromise('@acme/linear', async () => undefined);
    const plugins = [
      { name: '@acme/forge', provides: { schemes: ['forge'] } },
      { name: '@acme/linear', provides: { schemes: ['linear'] } },
    ];
    const config = configWith({
      secret: 's',
      routes: { a: { schemes: ['forge'] }, b: { schemes: ['linear', 'svix'] } },
    });
    expect(schemeProblems(config, hooks, plugins)).toEqual([
      {
        path: 'platforms.webhook.extra.routes.b.schemes.1',
        message:
          'route "b" accepts the scheme "svix", but no such scheme is loaded (loaded schemes: forge, linear)',
      },
    ]);
    expect(startupProblems(config, hooks, plugins).map((problem) => problem.path)).toEqual([
      'platforms.webhook.extra.routes.b.schemes.1',
    ]);
  });

  it('refuses a global or a route runner that no plugin provides, naming its key', () => {
    const config = configWith(
      { secret: 's', routes: { a: {}, b: { agent: { runner: 'claude' } } } },
      { runner: 'gpt' },
    );
    expect(runnerProblems(config, builtInHooks(), [])).toEqual([
      {
        path: 'agent.runner',
        message: 'no agent runner named "gpt" is installed (no plugins are loaded)',
      },
      {
        path: 'platforms.webhook.extra.routes.b.agent.runner',
        message: 'no agent runner named "claude" is installed (no plugins are loaded)',
      },
    ]);
  });

  it('finds nothing wrong with installed targets and runners and a secret on every route', () => {
    const config = configWith({
      secret: 's',
      routes: { a: {}, b: { agent: { runner: 'dry-run' } } },
    });
    expect(startupProblems(config, builtInHooks(), [{ name: 'x' }])).toEqual([]);
  });

  it("adds each plugin's own check, with its key paths", () => {
    const config = configWith({ secret: 's', routes: { a: {} } });
    const pickyPlugin = {
      name: '@acme/picky',
      check: () => [{ path: 'platforms.pager.url', message: 'must be https' }],
    };
    expect(startupProblems(config, builtInHooks(), [pickyPlugin])).toEqual([
      { path: 'platforms.pager.url', message: 'must be https' },
    ]);
  });

  it('refuses a route without a secret and INSECURE_NO_AUTH on a public bind', () => {
    const config = configWith({
      host: '0.0.0.0',
      routes: { open: {}, insecure: { secret: 'INSECURE_NO_AUTH' } },
    });
    const problems = startupProblems(config, builtInHooks());
    expect(problems.map((problem) => problem.path)).toEqual([
      'platforms.webhook.extra.routes.open',
      'platforms.webhook.extra.host',
    ]);
    expect(problems[0]?.message).toContain('route "open" has no secret');
    expect(problems[1]?.message).toContain(
      'route "insecure" uses INSECURE_NO_AUTH but the gateway binds 0.0.0.0',
    );
  });

  it('refuses a store kind no loaded plugin provides, naming the kinds there are', () => {
    const config = parseConfig({ store: { kind: 'postgres' } }, {});
    const sqlite = {
      name: '@webhook-gateway/store-sqlite',
      stores: { sqlite: async () => never() },
    };
    expect(storeProblems(config, [sqlite])).toEqual([
      {
        path: 'store.kind',
        message:
          'no loaded plugin provides the store "postgres" (stores provided: memory, sqlite); install its package beside the CLI and list it under plugins:',
      },
    ]);
    expect(storeProblems(parseConfig({ store: { kind: 'sqlite' } }, {}), [sqlite])).toEqual([]);
  });

  it('tells loopback addresses from others', () => {
    for (const host of ['127.0.0.1', '127.1.2.3', 'localhost', '::1', '[::1]'])
      expect(isLoopbackHost(host), host).toBe(true);
    for (const host of ['0.0.0.0', '10.0.0.1', '::', 'example.com'])
      expect(isLoopbackHost(host), host).toBe(false);
  });
});

function never(): never {
  throw new Error('not opened in this test');
}
