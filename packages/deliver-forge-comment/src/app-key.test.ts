/** The App's private key as the config names it: the problems and the warning, with key paths. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError, parseConfig } from '@webhook-gateway/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { readAppKey } from './app-key.js';
import plugin from './index.js';
import { appKeyPair, writeAppKey } from './test-support/app-key.js';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-app-key-'));
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const FILE = 'platforms.forge.app.private_key_file';

describe('the App’s private key', () => {
  it('is read from a file relative to the gateway home, without warnings at mode 0600', () => {
    writeAppKey(dir);
    const key = readAppKey({ app_id: 1, private_key_file: 'app.pem' }, dir);
    expect(key).toMatchObject({ ok: true, warnings: [] });
  });

  it('names the key path of a missing file', () => {
    expect(readAppKey({ app_id: 1, private_key_file: 'none.pem' }, dir)).toEqual({
      ok: false,
      problem: { path: FILE, message: `${path.join(dir, 'none.pem')} does not exist` },
    });
  });

  it('names the key path of a file it cannot read', () => {
    const file = writeAppKey(dir, 0o000);
    const key = readAppKey({ app_id: 1, private_key_file: file }, dir);
    // root reads any file: then the check has nothing to find.
    if (process.getuid?.() === 0) return expect(key.ok).toBe(true);
    expect(key).toEqual({
      ok: false,
      problem: { path: FILE, message: `${file} cannot be read by the gateway (permission denied)` },
    });
  });

  it('names the key path of a file that holds no PEM key', () => {
    fs.writeFileSync(path.join(dir, 'app.pem'), 'ghp_not_a_key\n', { mode: 0o600 });
    const key = readAppKey({ app_id: 1, private_key_file: 'app.pem' }, dir);
    expect(key).toMatchObject({
      ok: false,
      problem: {
        path: FILE,
        message: expect.stringMatching(/is not a PEM private key/) as unknown,
      },
    });
  });

  it('names the key path of a truncated key', () => {
    const pem = appKeyPair().privateKey;
    fs.writeFileSync(
      path.join(dir, 'app.pem'),
      pem.slice(0, 200) + '\n-----END RSA PRIVATE KEY-----\n',
      { mode: 0o600 },
    );
    expect(readAppKey({ app_id: 1, private_key_file: 'app.pem' }, dir)).toMatchObject({
      ok: false,
      problem: {
        path: FILE,
        message: expect.stringMatching(/malformed PEM private key/) as unknown,
      },
    });
  });

  it('warns when others can read the key file', () => {
    const file = writeAppKey(dir, 0o644);
    expect(readAppKey({ app_id: 1, private_key_file: file }, dir)).toMatchObject({
      ok: true,
      warnings: [
        {
          path: FILE,
          message: `${file} can be read by other users (mode 644); run chmod 600 ${file}`,
        },
      ],
    });
  });

  it('takes the key from the config, with escaped line breaks as an environment variable has them', () => {
    const escaped = appKeyPair().privateKey.replace(/\n/g, '\\n');
    expect(readAppKey({ app_id: 1, private_key: escaped }, dir)).toMatchObject({ ok: true });
    expect(readAppKey({ app_id: 1, private_key: 'nope' }, dir)).toMatchObject({
      ok: false,
      problem: { path: 'platforms.forge.app.private_key' },
    });
  });
});

function problemsOf(forge: Record<string, unknown>) {
  try {
    parseConfig({ platforms: { forge } }, {}, [plugin]);
  } catch (error) {
    if (error instanceof ConfigError) return error.problems;
    throw error;
  }
  return [];
}

describe('platforms.forge.app', () => {
  it('takes app_id as a number or as digits from an environment variable', () => {
    expect(problemsOf({ app: { app_id: 12, private_key_file: 'a.pem' } })).toEqual([]);
    expect(problemsOf({ app: { app_id: '12', private_key_file: 'a.pem' } })).toEqual([]);
  });

  it.each([0, -3, 1.5, 'abc'])('refuses app_id %s, naming the key', (appId) => {
    expect(problemsOf({ app: { app_id: appId, private_key_file: 'a.pem' } })).toEqual([
      {
        path: 'platforms.forge.app.app_id',
        message: expect.stringMatching(/positive integer/) as unknown,
      },
    ]);
  });

  it('wants exactly one of private_key_file and private_key', () => {
    expect(problemsOf({ app: { app_id: 1 } })).toMatchObject([
      {
        path: 'platforms.forge.app',
        message: expect.stringMatching(
          /exactly one of private_key_file and private_key/,
        ) as unknown,
      },
    ]);
  });

  it('wants api_url to be an http(s) URL', () => {
    expect(problemsOf({ api_url: 'ghe.example.com' })).toMatchObject([
      { path: 'platforms.forge.api_url' },
    ]);
  });
});
