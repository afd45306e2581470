/**
 * For a test file that runs the real gh (/usr/bin/gh): the GitHub-compatible fake over TLS on
 * 127.0.0.1, started once for the file, gh trusting its certificate and reading an empty config
 * (nothing of the machine's own gh login), and the forge settings that point at it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, vi } from 'vitest';
import { forgeSettingsSchema, type ForgeSettings } from '../settings.js';
import { startFakeForgeApi, type FakeForgeApi } from './fake-forge-api.js';

export interface GhAgainstFakeForge {
  api: FakeForgeApi;
  settings: ForgeSettings;
}

/** Registers the file's beforeAll/afterAll; the fields are set once beforeAll has run. */
export function useGhAgainstFakeForge(): GhAgainstFakeForge {
  const forge = {} as GhAgainstFakeForge;
  beforeAll(async () => {
    forge.api = await startFakeForgeApi();
    vi.stubEnv('SSL_CERT_FILE', forge.api.certFile);
    vi.stubEnv('GH_CONFIG_DIR', mkdtempSync(path.join(tmpdir(), 'gh-config-')));
    forge.settings = forgeSettingsSchema.parse({ host: forge.api.host, token: forge.api.token });
  });
  afterAll(async () => {
    vi.unstubAllEnvs();
    await forge.api.close();
  });
  return forge;
}
