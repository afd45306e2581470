import { generateKeyPairSync } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { GatewayConfig } from '@webhook-gateway/core';
import { loadConfig } from '@webhook-gateway/core/runtime';
import { afterAll, describe, expect, it } from 'vitest';
import { builtinPlugins, loadPlugins } from '../../builtin-plugins.js';
import { gatewayProblems } from '../../config-check.js';
import { initConfigYaml } from './template.js';

const secret = 'f'.repeat(64);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-init-template-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Parses the text the way the gateway reads config.yaml. */
async function load(text: string): Promise<GatewayConfig> {
  const file = path.join(dir, `config-${Math.random().toString(36).slice(2)}.yaml`);
  fs.writeFileSync(file, text);
  return (await loadConfig({ home: dir, configFile: file, env: {}, loadPlugins })).config;
}

describe('initConfigYaml', () => {
  const text = initConfigYaml({ secret });

  it('points editors at the schema file on its first line', () => {
    expect(text.split('\n')[0]).toBe('# yaml-language-server: $schema=./config.schema.json');
  });

  it('points at what an npm user has (the schema file, config schema), not at repository docs', () => {
    const text = initConfigYaml({ secret });
    expect(text).not.toMatch(/docs\/|\.md\b/);
    expect(text).toContain('webhook-gateway config schema');
  });

  it('is a config the gateway starts on, with a forge and an altforge route', async () => {
    const config = await load(text);
    expect(Object.keys(config.platforms.webhook.extra.routes)).toEqual([
      'pull-requests',
      'merge-requests',
    ]);
    expect(config.platforms.webhook.extra.secret).toBe(secret);
    expect(config.platforms.webhook.extra.host).toBe('127.0.0.1');
    expect(await gatewayProblems(config, { home: dir, plugins: builtinPlugins() })).toEqual([]);
  });

  it('filters pull requests by action and draft state', async () => {
    const route = (await load(text)).platforms.webhook.extra.routes['pull-requests'];
    expect(route?.actions).toEqual(['opened', 'synchronize', 'reopened']);
    expect(route?.filters).toEqual({ 'pull_request.draft': false });
    expect(route?.skills).toEqual(['code-review']);
  });

  it('allows only read-only forge commands to the agent by default', async () => {
    const config = await load(text);
    const terminal = config.agent.terminal as { allow?: string[] };
    expect(terminal.allow).toContain('gh pr diff *');
    for (const pattern of terminal.allow ?? []) {
      expect(pattern).toMatch(
        /^(gh pr (diff|view) |gh api repos\/\*\/compare\/|glab api projects\/\*\/repository\/compare|glab mr (diff|view) |git (log|diff) )/,
      );
    }
  });

  it('reviews only what a push changed, from a prepared context, a newer push replacing a waiting one, on both forges', async () => {
    const routes = (await load(text)).platforms.webhook.extra.routes;
    for (const name of ['pull-requests', 'merge-requests']) {
      expect(routes[name]?.supersede).toBe(true);
      expect(routes[name]?.review).toEqual({ incremental: true });
      const prompt = routes[name]?.prompt ?? '';
      for (const value of ['diff', 'diff_stats', 'skipped_files', 'instructions', 'guidance'])
        expect(prompt).toContain(`{_gateway.${value}}`);
      // Stable first: the guidance and rules before anything of this delivery.
      expect(prompt.indexOf('{_gateway.guidance}')).toBe(prompt.indexOf('{'));
    }
  });

  it('offers the top-level review block in comments that, uncommented, still validate', async () => {
    const uncommented = text.replace(
      /^# review:\n((?:# {3}.*\n)+)/m,
      (_block, keys: string) => `review:\n${keys.replaceAll(/^# /gm, '')}`,
    );
    expect(uncommented).not.toBe(text);
    const config = await load(uncommented);
    expect(config.review).toMatchObject({ max_diff_tokens: 24000, ignore: ['**/*.snap'] });
  });

  it('offers the living comment in comments that, uncommented, still validate', async () => {
    const uncommented = text
      .replace('# deliver: forge_comment', 'deliver: forge_comment')
      .replace('# deliver: altforge_comment', 'deliver: altforge_comment')
      .replaceAll('# deliver_extra: { mode: update }', 'deliver_extra: { mode: update }')
      .replaceAll(/^ {10}deliver: log\n/gm, '');
    const config = await load(uncommented);
    const routes = config.platforms.webhook.extra.routes;
    expect(routes['pull-requests']).toMatchObject({
      deliver: 'forge_comment',
      deliver_extra: { mode: 'update' },
    });
    expect(routes['merge-requests']).toMatchObject({
      deliver: 'altforge_comment',
      deliver_extra: { mode: 'update' },
    });
    expect(await gatewayProblems(config, { home: dir, plugins: builtinPlugins() })).toEqual([]);
  });

  it('offers the review targets in comments that, uncommented, still validate', async () => {
    const uncommented = text
      .replace('# deliver: forge_review', 'deliver: forge_review')
      .replace('# deliver: altforge_review', 'deliver: altforge_review')
      .replaceAll(/^ {10}deliver: log\n/gm, '');
    const config = await load(uncommented);
    const routes = config.platforms.webhook.extra.routes;
    expect(routes['pull-requests']?.deliver).toBe('forge_review');
    expect(routes['merge-requests']?.deliver).toBe('altforge_review');
    expect(await gatewayProblems(config, { home: dir, plugins: builtinPlugins() })).toEqual([]);
  });

  it('offers the GitHub App block in comments that, uncommented, still validate', async () => {
    const { privateKey } = generateKeyPairSync('rsa', {
      modulusLength: 2048,
      privateKeyEncoding: { type: 'pkcs1', format: 'pem' },
      publicKeyEncoding: { type: 'spki', format: 'pem' },
    });
    fs.writeFileSync(path.join(dir, 'app.pem'), privateKey, { mode: 0o600 });
    const uncommented = text.replace(
      /^ {2}# (forge:| {2}app:| {4}app_id:| {4}private_key_file:| {2}api_url:)/gm,
      '  $1',
    );
    const config = await load(uncommented);
    expect((config.platforms as Record<string, unknown>).forge).toMatchObject({
      app: { app_id: 123456, private_key_file: 'app.pem' },
      api_url: 'https://api.github.com',
    });
    expect(await gatewayProblems(config, { home: dir, plugins: builtinPlugins() })).toEqual([]);
  });

  it('offers the Gitea block in comments that, uncommented, still validate', async () => {
    const at = text.indexOf('  # gitea:');
    const end = text.indexOf('\n\n', at);
    const block = text
      .slice(at, end)
      .replace(/^ {2}# (gitea:| {2}base_url:| {2}bot:)/gm, '  $1')
      .replace(/^ {2}# {3}token: .*$/m, '    token: gitea-test-token');
    const uncommented = text.slice(0, at) + block + text.slice(end);
    const config = await load(uncommented);
    expect((config.platforms as Record<string, unknown>).gitea).toEqual({
      base_url: 'https://gitea.example.com',
      token: 'gitea-test-token',
      bot: 'review-bot',
    });
    expect(await gatewayProblems(config, { home: dir, plugins: builtinPlugins() })).toEqual([]);
  });

  it('offers the Bitbucket block in comments that, uncommented, still validate', async () => {
    const at = text.indexOf('  # bitbucket:');
    const block = text
      .slice(at)
      .replace(/^ {2}# (bitbucket:| {2}bot:| {2}data_center:| {4}base_url:| {4}bot:)/gm, '  $1')
      .replace(/^ {2}# {3}token: .*$/m, '    token: bitbucket-test-token')
      .replace(/^ {2}# {5}token: .*$/m, '      token: data-center-test-token');
    const config = await load(text.slice(0, at) + block);
    expect((config.platforms as Record<string, unknown>).bitbucket).toEqual({
      base_url: 'https://api.bitbucket.org/2.0',
      token: 'bitbucket-test-token',
      bot: '{bot-account-uuid}',
      data_center: {
        base_url: 'https://bitbucket.example.com',
        token: 'data-center-test-token',
        bot: 'review-bot',
      },
    });
    expect(await gatewayProblems(config, { home: dir, plugins: builtinPlugins() })).toEqual([]);
  });

  it('writes the port it is given', async () => {
    const config = await load(initConfigYaml({ secret, port: 9999 }));
    expect(config.platforms.webhook.extra.port).toBe(9999);
  });
});
