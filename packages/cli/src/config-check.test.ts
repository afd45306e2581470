import { parseConfig } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { builtinPlugins } from './builtin-plugins.js';
import { gatewayProblems } from './config-check.js';

const options = { home: '/tmp/config-check-home', plugins: builtinPlugins() };

/** A config as the CLI reads one: the built-ins own their slices of `platforms:`. */
function configOf(raw: unknown) {
  return parseConfig(
    raw,
    {},
    options.plugins.map(({ plugin }) => plugin),
  );
}

function routes(extra: Record<string, unknown>) {
  return configOf({ platforms: { webhook: { extra } } });
}

describe('gatewayProblems', () => {
  it('finds nothing in a config the gateway would start on', async () => {
    expect(await gatewayProblems(routes({ secret: 's3cret', routes: { a: {} } }), options)).toEqual(
      [],
    );
  });

  it('names a route without a secret', async () => {
    const problems = await gatewayProblems(routes({ routes: { a: {} } }), options);
    expect(problems).toEqual([
      {
        path: 'platforms.webhook.extra.routes.a',
        message: expect.stringContaining('has no secret') as string,
      },
    ]);
  });

  it('refuses INSECURE_NO_AUTH on a public bind but allows it on loopback', async () => {
    const insecure = { secret: 'INSECURE_NO_AUTH', routes: { a: {} } };
    expect(await gatewayProblems(routes({ ...insecure, host: '0.0.0.0' }), options)).toHaveLength(
      1,
    );
    expect(await gatewayProblems(routes({ ...insecure, host: '127.0.0.1' }), options)).toEqual([]);
  });

  it('names the route of an unknown target', async () => {
    const problems = await gatewayProblems(
      routes({ secret: 's', routes: { a: { deliver: 'pager' } } }),
      options,
    );
    expect(problems.map((p) => p.path)).toEqual(['platforms.webhook.extra.routes.a.deliver']);
  });

  it('refuses a route to a messenger platform that is not enabled', async () => {
    const problems = await gatewayProblems(
      routes({ secret: 's', routes: { a: { deliver: 'discord' } } }),
      options,
    );
    expect(problems).toEqual([
      {
        path: 'platforms.webhook.extra.routes.a.deliver',
        message: 'delivers to messenger_b, but platforms.messenger_b.enabled is not true',
      },
    ]);
  });

  it("reports the agent plugin's refusal of an openai runner without a model", async () => {
    const config = configOf({
      agent: { runner: 'openai', base_url: 'http://127.0.0.1:1/v1' },
      platforms: { webhook: { extra: { secret: 's' } } },
    });
    const problems = await gatewayProblems(config, options);
    expect(problems.some((p) => p.message.includes('agent.model'))).toBe(true);
  });
});
