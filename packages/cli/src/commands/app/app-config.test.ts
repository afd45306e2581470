import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig } from '@webhook-gateway/core/runtime';
import { afterAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { loadPlugins } from '../../builtin-plugins.js';
import { initConfigYaml } from '../init/template.js';
import { ConfigEditError, configWithApp } from './app-config.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-app-config-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

const EDIT = {
  appId: 4242,
  privateKeyFile: 'app.pem',
  route: 'github-app',
  // Digits and an "e": read back as a number unless quoted.
  webhookSecret: '1234e5',
};

interface Written {
  platforms: {
    forge: Record<string, unknown>;
    webhook: { extra: { public_url?: string; routes: Record<string, Record<string, unknown>> } };
  };
}

/** The file as the gateway validates it (core's schema and the built-in plugins' slices). */
async function validated(text: string) {
  const file = path.join(dir, `config-${Math.random().toString(36).slice(2)}.yaml`);
  fs.writeFileSync(file, text);
  return (await loadConfig({ home: dir, configFile: file, env: {}, loadPlugins })).config;
}

const commentLines = (text: string) =>
  text
    .split('\n')
    .filter((line) => line.trim().startsWith('#'))
    .map((line) => line.trim());

describe('configWithApp', () => {
  const initText = initConfigYaml({ secret: 'init-secret' });

  it('adds the App and a new route for its webhook, keeping every comment and key of the file', async () => {
    const text = configWithApp(initText, { ...EDIT, publicUrl: 'https://hooks.example.com' }, 'f');
    expect(commentLines(text)).toEqual(expect.arrayContaining(commentLines(initText)));
    const written = parse(text) as Written;
    expect(written.platforms.forge).toEqual({ app: { app_id: 4242, private_key_file: 'app.pem' } });
    expect(written.platforms.webhook.extra.public_url).toBe('https://hooks.example.com');
    const routes = written.platforms.webhook.extra.routes;
    expect(Object.keys(routes)).toEqual(['pull-requests', 'merge-requests', 'github-app']);
    expect(routes['github-app']).toMatchObject({
      secret: '1234e5',
      events: ['pull_request'],
      deliver: 'forge_comment',
    });
    const before = parse(initText) as Written;
    expect(routes['pull-requests']).toEqual(before.platforms.webhook.extra.routes['pull-requests']);
    const config = await validated(text);
    expect(config.platforms.webhook.extra.routes['github-app']?.secret).toBe('1234e5');
    expect(config.agent).toEqual((await validated(initText)).agent);
  });

  it('gives an existing route the App’s secret and changes nothing else of it', async () => {
    const text = configWithApp(
      initText,
      { ...EDIT, route: 'pull-requests', apiUrl: 'https://ghe.example.com/api/v3' },
      'f',
    );
    const before = (parse(initText) as Written).platforms.webhook.extra.routes['pull-requests'];
    const written = parse(text) as Written;
    expect(written.platforms.webhook.extra.routes['pull-requests']).toEqual({
      ...before,
      secret: '1234e5',
    });
    expect(written.platforms.forge.api_url).toBe('https://ghe.example.com/api/v3');
    expect(commentLines(text)).toEqual(expect.arrayContaining(commentLines(initText)));
    await validated(text);
  });

  it('writes a config the gateway validates when there was none', async () => {
    const text = configWithApp(undefined, { ...EDIT, publicUrl: 'https://hooks.example.com' }, 'f');
    const config = await validated(text);
    expect(Object.keys(config.platforms.webhook.extra.routes)).toEqual(['github-app']);
    expect(config.platforms.webhook.extra.public_url).toBe('https://hooks.example.com');
  });

  it('replaces an App set before, key and all', () => {
    const before =
      'platforms:\n  forge:\n    app: { app_id: 1, private_key: "${KEY}" }  # the old one\n';
    const written = parse(configWithApp(before, EDIT, 'f')) as Written;
    expect(written.platforms.forge.app).toEqual({ app_id: 4242, private_key_file: 'app.pem' });
  });

  it('refuses a file that is not YAML, or whose keys are not where a mapping is needed, naming it', () => {
    expect(() => configWithApp('platforms: [\n', EDIT, '/home/gw/config.yaml')).toThrow(
      ConfigEditError,
    );
    expect(() => configWithApp('platforms: 3\n', EDIT, '/home/gw/config.yaml')).toThrow(
      /^\/home\/gw\/config\.yaml: .*the App was made, but its settings were not saved there$/,
    );
  });
});
