import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ConfigError } from '@webhook-gateway/core';
import { afterEach, describe, expect, it } from 'vitest';
import { configWatchEnabled, loadConfigForReload } from './reload-load.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('loadConfigForReload', () => {
  it('refuses a missing config file instead of falling back to the defaults', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-reload-load-'));
    dirs.push(home);
    const error = await loadConfigForReload(home, undefined).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems[0]?.message).toBe('config file not found');
  });

  it('reads and validates the file that is there', async () => {
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-reload-load-'));
    dirs.push(home);
    fs.writeFileSync(
      path.join(home, 'config.yaml'),
      'platforms:\n  webhook:\n    extra:\n      port: 9\n',
    );
    expect((await loadConfigForReload(home, undefined)).platforms.webhook.extra.port).toBe(9);
  });
});

describe('configWatchEnabled', () => {
  it('is on unless WEBHOOK_GATEWAY_WATCH_CONFIG turns it off', () => {
    expect(configWatchEnabled({})).toBe(true);
    expect(configWatchEnabled({ WEBHOOK_GATEWAY_WATCH_CONFIG: '1' })).toBe(true);
    for (const off of ['0', 'false', 'OFF', ' no '])
      expect(configWatchEnabled({ WEBHOOK_GATEWAY_WATCH_CONFIG: off })).toBe(false);
  });
});
