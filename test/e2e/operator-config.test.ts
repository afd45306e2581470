/**
 * `init`, `config validate` and `config schema` as an operator meets them: the files init writes,
 * that they validate and start the gateway, and every refusal validate shares with the gateway.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { cleanupHomes, makeHome, runCli, startGateway, writeConfig } from '../support/gateway.js';
import { fixture, sendAltforge, sendForge } from '../support/requests.js';

afterAll(() => cleanupHomes());

const mode = (file: string) => fs.statSync(file).mode & 0o777;

/** A home `init` wrote into (a fresh directory below a temporary one). */
async function initHome(): Promise<string> {
  const home = path.join(makeHome(), 'gateway');
  const result = await runCli(['init', '--home', home]);
  expect(result.code).toBe(0);
  return home;
}

function initSecret(home: string): string {
  const config = parse(fs.readFileSync(path.join(home, 'config.yaml'), 'utf8')) as {
    platforms: { webhook: { extra: { secret: string } } };
  };
  return config.platforms.webhook.extra.secret;
}

describe('webhook-gateway init', () => {
  it('writes a commented config.yaml (0600) with a schema line, the schema and a skill', async () => {
    const home = path.join(makeHome(), 'gateway');
    const result = await runCli(['init', '--home', home]);
    expect(result.code).toBe(0);
    expect(result.stderr).toBe('');
    expect(result.stdout).toContain(`wrote ${path.join(home, 'config.yaml')} (mode 0600`);

    const configFile = path.join(home, 'config.yaml');
    const text = fs.readFileSync(configFile, 'utf8');
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./config.schema.json');
    expect(mode(configFile)).toBe(0o600);
    expect(initSecret(home)).toMatch(/^[0-9a-f]{64}$/);
    expect(result.stdout).not.toContain(initSecret(home));

    const schema = await runCli(['config', 'schema']);
    expect(fs.readFileSync(path.join(home, 'config.schema.json'), 'utf8')).toBe(schema.stdout);
    expect(fs.readFileSync(path.join(home, 'skills/code-review/SKILL.md'), 'utf8')).toMatch(
      /^# Code review/,
    );
  });

  it('refuses to overwrite an existing config.yaml unless --force', async () => {
    const home = await initHome();
    const before = fs.readFileSync(path.join(home, 'config.yaml'), 'utf8');
    const refused = await runCli(['init', '--home', home]);
    expect(refused.code).toBe(1);
    expect(refused.stderr.trim()).toBe(
      `${path.join(home, 'config.yaml')} already exists; keeping it (use --force to overwrite it)`,
    );
    expect(fs.readFileSync(path.join(home, 'config.yaml'), 'utf8')).toBe(before);

    const forced = await runCli(['init', '--home', home, '--force']);
    expect(forced.code).toBe(0);
    expect(fs.readFileSync(path.join(home, 'config.yaml'), 'utf8')).not.toBe(before);
  });

  it('writes a config that passes `config validate`', async () => {
    const home = await initHome();
    const result = await runCli(['config', 'validate', '--home', home]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toBe(
      `config OK: ${path.join(home, 'config.yaml')} — routes: pull-requests, merge-requests`,
    );
  });

  it('writes a config the gateway starts on and serves its example routes with', async () => {
    const home = await initHome();
    const configFile = path.join(home, 'config.yaml');
    // Any free port instead of 8644, so the test does not depend on it being free.
    fs.writeFileSync(
      configFile,
      fs.readFileSync(configFile, 'utf8').replace('port: 8644', 'port: 0'),
    );
    const secret = initSecret(home);
    // The routes' prompts name the prepared review context, so their deliveries ask gh and glab:
    // without credentials or a login of their own, they fail there and reach no forge.
    const noLogin = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-no-login-'));
    const gateway = await startGateway({
      home,
      env: {
        GH_CONFIG_DIR: noLogin,
        GLAB_CONFIG_DIR: noLogin,
        GH_TOKEN: undefined,
        GITHUB_TOKEN: undefined,
        GH_ENTERPRISE_TOKEN: undefined,
        GITHUB_ENTERPRISE_TOKEN: undefined,
        GITLAB_TOKEN: undefined,
      },
    });
    try {
      const opened = await sendForge(gateway.url, 'pull-requests', {
        body: fixture('forge/pull_request_opened.json'),
        secret,
        event: 'pull_request',
      });
      expect(opened.status).toBe(202);
      const closed = await sendForge(gateway.url, 'pull-requests', {
        body: fixture('forge/pull_request_closed.json'),
        secret,
        event: 'pull_request',
      });
      expect(closed.body).toEqual({ status: 'ignored', event: 'pull_request', reason: 'action' });
      const mergeRequest = await sendAltforge(gateway.url, 'merge-requests', {
        body: fixture('altforge/merge_request_open.json'),
        token: secret,
      });
      expect(mergeRequest.status).toBe(202);
    } finally {
      await gateway.stop();
    }
  });
});

describe('webhook-gateway config validate', () => {
  async function validate(config: Record<string, unknown> | string) {
    const home = makeHome();
    writeConfig(home, config);
    return runCli(['config', 'validate', '--home', home]);
  }

  it('prints each schema problem with its key path on stderr and exits 1', async () => {
    const result = await validate(
      'platforms:\n  webhook:\n    extra:\n      port: "eighty"\n      rate_limt: 5\nagent:\n  max_turns: -1\n',
    );
    expect(result.code).toBe(1);
    expect(result.stdout).toBe('');
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^invalid config: platforms\.webhook\.extra\.port: /),
        'invalid config: platforms.webhook.extra.rate_limt: unknown key',
        expect.stringMatching(/^invalid config: agent\.max_turns: /),
      ]),
    );
    expect(lines).toHaveLength(3);
  });

  it("names the key path of a route's bad agent.prices", async () => {
    const result = await validate({
      platforms: {
        webhook: {
          extra: {
            routes: {
              reviews: {
                secret: 'a-secret-of-enough-length',
                agent: { prices: { prompt_per_1k: 0.003, completion_per_1k: -1, currency: 'usd' } },
              },
            },
          },
        },
      },
    });
    expect(result.code).toBe(1);
    const lines = result.stderr.trim().split('\n');
    expect(lines).toEqual(
      expect.arrayContaining([
        expect.stringMatching(
          /^invalid config: platforms\.webhook\.extra\.routes\.reviews\.agent\.prices\.completion_per_1k: /,
        ),
        expect.stringMatching(
          /^invalid config: platforms\.webhook\.extra\.routes\.reviews\.agent\.prices\.currency: must be a three-letter currency code/,
        ),
      ]),
    );
  });

  it.each([
    [
      'a route without a secret',
      { platforms: { webhook: { extra: { routes: { reviews: {} } } } } },
      /^invalid config: platforms\.webhook\.extra\.routes\.reviews: route "reviews" has no secret/,
    ],
    [
      'INSECURE_NO_AUTH on a public bind',
      {
        platforms: {
          webhook: { extra: { host: '0.0.0.0', secret: 'INSECURE_NO_AUTH', routes: { open: {} } } },
        },
      },
      /^invalid config: platforms\.webhook\.extra\.host: route "open" uses INSECURE_NO_AUTH/,
    ],
    [
      'an unknown target',
      { platforms: { webhook: { extra: { secret: 's', routes: { r: { deliver: 'pager' } } } } } },
      /^invalid config: platforms\.webhook\.extra\.routes\.r\.deliver: route "r" delivers to "pager"/,
    ],
    [
      'a route to a disabled messenger platform',
      { platforms: { webhook: { extra: { secret: 's', routes: { r: { deliver: 'slack' } } } } } },
      /^invalid config: platforms\.webhook\.extra\.routes\.r\.deliver: delivers to messenger_c, but platforms\.messenger_c\.enabled is not true$/,
    ],
  ])('refuses %s, as the gateway would at start', async (_what, config, line) => {
    const result = await validate(config);
    expect(result.code).toBe(1);
    expect(result.stderr.trim()).toMatch(line);
    const started = await runCli([
      'gateway',
      '--home',
      path.dirname(writeConfig(makeHome(), config)),
    ]);
    expect(started.code).toBe(1);
  });

  it('prints a machine-readable result with --json', async () => {
    const home = makeHome();
    writeConfig(home, { platforms: { webhook: { extra: { routes: { a: {} } } } } });
    const result = await runCli(['config', 'validate', '--home', home, '--json']);
    expect(result.code).toBe(1);
    const printed = JSON.parse(result.stdout) as { ok: boolean; problems: { path: string }[] };
    expect(printed.ok).toBe(false);
    expect(printed.problems.map((p) => p.path)).toEqual(['platforms.webhook.extra.routes.a']);
  });

  it('checks the file given with --config', async () => {
    const home = makeHome();
    const file = path.join(home, 'elsewhere.yaml');
    fs.writeFileSync(file, 'platforms:\n  webhook:\n    extra:\n      secret: s\n');
    const result = await runCli(['config', 'validate', '--home', home, '--config', file]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain(`config OK: ${file}`);
  });
});

describe('webhook-gateway config schema', () => {
  it('prints the JSON Schema of the config, with its top-level keys', async () => {
    const result = await runCli(['config', 'schema']);
    expect(result.code).toBe(0);
    const schema = JSON.parse(result.stdout) as {
      $schema: string;
      properties: Record<string, unknown>;
      additionalProperties: boolean;
    };
    expect(schema.$schema).toContain('json-schema.org');
    expect(Object.keys(schema.properties)).toEqual([
      'plugins',
      'store',
      'agent',
      'review',
      'hygiene',
      'observability',
      'platforms',
    ]);
    expect(schema.additionalProperties).toBe(false);
  });

  it("includes the agent's spending keys", async () => {
    const result = await runCli(['config', 'schema']);
    const schema = JSON.parse(result.stdout) as {
      properties: {
        agent: {
          properties: Record<string, { required?: string[]; properties?: Record<string, unknown> }>;
        };
      };
    };
    const agent = schema.properties.agent.properties;
    expect(agent.max_tokens_per_delivery).toMatchObject({ type: 'integer' });
    expect(agent.prices).toMatchObject({ required: ['prompt_per_1k', 'completion_per_1k'] });
    expect(agent.prices?.properties).toHaveProperty('cached_prompt_per_1k');
  });
});
