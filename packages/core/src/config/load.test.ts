import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ConfigError } from '../errors.js';
import { definePlugin, type GatewayPlugin } from '../plugin.js';
import { loadConfig, parseConfig } from './load.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});
function tempHome(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-config-'));
  dirs.push(dir);
  return dir;
}

function problemsOf(
  raw: unknown,
  env: NodeJS.ProcessEnv = {},
  plugins: readonly GatewayPlugin<unknown>[] = [],
): string[] {
  try {
    parseConfig(raw, env, plugins);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems.map((p) => `${p.path}: ${p.message}`);
    throw error;
  }
  return [];
}

describe('parseConfig', () => {
  it('fills in the spec defaults', () => {
    const config = parseConfig({});
    expect(config.platforms.webhook.extra).toMatchObject({
      host: '0.0.0.0',
      port: 8644,
      rate_limit: 30,
      max_body_bytes: 1_048_576,
      concurrency: 4,
      max_attempts: 5,
      retention_days: 7,
    });
    expect(config.agent.runner).toBe('dry-run');
    expect(config.store.kind).toBe('sqlite');
    const route = parseConfig({ platforms: { webhook: { extra: { routes: { r: {} } } } } })
      .platforms.webhook.extra.routes.r;
    expect(route?.deliver).toBe('log');
    expect(route?.events).toEqual([]);
  });

  it('reports unknown keys and wrong types with their key paths', () => {
    expect(
      problemsOf({
        platforms: { webhook: { extra: { port: 'x', routes: { r: { evnts: [] } } } } },
        agent: { max_turns: 0 },
      }),
    ).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^platforms\.webhook\.extra\.port: /),
        'platforms.webhook.extra.routes.r.evnts: unknown key',
        expect.stringMatching(/^agent\.max_turns: /),
      ]),
    );
  });

  it('expands ${VAR} and ${VAR:-default}, and names unset variables with their key', () => {
    const config = parseConfig(
      { platforms: { webhook: { extra: { secret: '${S}', host: '${HOST:-127.0.0.1}' } } } },
      { S: 'from-env' },
    );
    expect(config.platforms.webhook.extra.secret).toBe('from-env');
    expect(config.platforms.webhook.extra.host).toBe('127.0.0.1');
    expect(problemsOf({ platforms: { webhook: { extra: { secret: '${NOPE}' } } } })).toEqual([
      'platforms.webhook.extra.secret: environment variable NOPE is not set',
    ]);
  });

  it("accepts a plugin's aliases for platform keys and canonicalises target names", () => {
    // A plugin owns the messenger_a slice and its aliases (as deliver-messenger does).
    const messenger = definePlugin({
      name: 'messenger-slice',
      platforms: {
        messenger_a: z
          .strictObject({ enabled: z.boolean().default(false), token: z.string().optional() })
          .prefault({}),
      },
      aliases: { telegram: 'messenger_a', slack: 'messenger_c' },
      setup() {},
    });
    const config = parseConfig(
      {
        platforms: {
          telegram: { enabled: true, token: 't' },
          webhook: { extra: { routes: { r: { deliver: 'slack' } } } },
        },
      },
      {},
      [messenger],
    );
    expect((config.platforms as Record<string, unknown>).messenger_a).toEqual({
      enabled: true,
      token: 't',
    });
    expect(config.platforms.webhook.extra.routes.r?.deliver).toBe('messenger_c');
    expect(
      problemsOf({ platforms: { telegram: {}, messenger_a: {} } }, {}, [messenger])[0],
    ).toContain('same platform');
  });

  it('accepts a list of secrets for rotation', () => {
    const config = parseConfig({ platforms: { webhook: { extra: { secret: ['old', 'new'] } } } });
    expect(config.platforms.webhook.extra.secret).toEqual(['old', 'new']);
  });
});

describe('loadConfig', () => {
  it('uses the embedded defaults when <home>/config.yaml does not exist', async () => {
    const home = tempHome();
    const loaded = await loadConfig({ home });
    expect(loaded.path).toBeUndefined();
    expect(loaded.config.platforms.webhook.extra.port).toBe(8644);
  });

  it('reads YAML and reports a YAML syntax error with the file', async () => {
    const home = tempHome();
    fs.writeFileSync(
      path.join(home, 'config.yaml'),
      'platforms:\n  webhook:\n    extra:\n      port: 9000\n',
    );
    expect((await loadConfig({ home })).config.platforms.webhook.extra.port).toBe(9000);
    fs.writeFileSync(path.join(home, 'config.yaml'), 'platforms: [unclosed\n');
    await expect(loadConfig({ home })).rejects.toThrow(/config\.yaml: cannot be read/);
  });

  it('refuses a --config file that does not exist', async () => {
    const home = tempHome();
    await expect(loadConfig({ home, configFile: path.join(home, 'nope.yaml') })).rejects.toThrow(
      /config file not found/,
    );
  });
});
