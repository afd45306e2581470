/** Installation tokens against the TLS fake forge: the JWT it verifies, caching, expiry. */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { AppClient } from './app-client.js';
import { InstallationTokens, TOKEN_REFRESH_MARGIN_MS } from './installation-tokens.js';
import { appKeyPair } from './test-support/app-key.js';
import { startFakeForgeApi, type FakeForgeApi } from './test-support/fake-forge-api.js';
import { trustFakeForge } from './test-support/trust-fake-forge.js';

let forge: FakeForgeApi;
let untrust: () => void;
beforeAll(async () => {
  forge = await startFakeForgeApi({
    app: {
      id: 11,
      slug: 'review-bot',
      publicKey: appKeyPair().publicKey,
      installations: [{ id: 5, account: 'acme', repositories: ['acme/alpha', 'acme/beta'] }],
    },
  });
  untrust = trustFakeForge(forge.certFile);
});
afterAll(async () => {
  untrust();
  await forge.close();
});
beforeEach(() => forge.app?.exchanges.splice(0));

/** A client and cache on the fake's clock, so moving it on moves both. */
function onFakeClock(appId = 11) {
  const now = () => forge.app?.now() ?? Date.now();
  const client = new AppClient({
    appId,
    privateKey: appKeyPair().privateKey,
    apiUrl: forge.apiUrl,
    now,
  });
  return { client, tokens: new InstallationTokens(client, now) };
}

const COMMENTS = { contents: 'read', pull_requests: 'write' } as const;

describe('installation tokens', () => {
  it('are exchanged with a JWT the forge verifies with the App’s public key', async () => {
    const { tokens } = onFakeClock();
    expect(await tokens.get(5, 'alpha', COMMENTS)).toMatch(/^ghs_/);
    expect(forge.app?.exchanges).toEqual([
      { installationId: 5, repositories: ['alpha'], permissions: COMMENTS, status: 201 },
    ]);
  });

  it('are refused for a JWT signed as another App', async () => {
    const { tokens } = onFakeClock(12);
    await expect(tokens.get(5, 'alpha', COMMENTS)).rejects.toThrow(
      /installation 5 \(alpha\) was refused: .*HTTP 401: 'Issuer' claim/,
    );
  });

  it('are cached per installation, repository and permission set (in any order)', async () => {
    const { tokens } = onFakeClock();
    const first = await tokens.get(5, 'alpha', COMMENTS);
    expect(await tokens.get(5, 'alpha', { pull_requests: 'write', contents: 'read' })).toBe(first);
    expect(await tokens.get(5, 'beta', COMMENTS)).not.toBe(first);
    expect(await tokens.get(5, 'alpha', { contents: 'read' })).not.toBe(first);
    expect(forge.app?.exchanges).toHaveLength(3);
  });

  it('share one exchange between callers asking at the same time', async () => {
    const { tokens } = onFakeClock();
    const all = await Promise.all(
      Array.from({ length: 20 }, () => tokens.get(5, 'alpha', COMMENTS)),
    );
    expect(new Set(all).size).toBe(1);
    expect(forge.app?.exchanges).toHaveLength(1);
  });

  it('are replaced 5 minutes before they expire, with the clock moved on', async () => {
    const { tokens } = onFakeClock();
    const first = await tokens.get(5, 'alpha', COMMENTS);
    // The forge's tokens live an hour: 54 minutes on, the cached one is still used.
    forge.app?.advance(60 * 60_000 - TOKEN_REFRESH_MARGIN_MS - 60_000);
    expect(await tokens.get(5, 'alpha', COMMENTS)).toBe(first);
    // Two minutes later it is within the margin: a new one, still live on the forge.
    forge.app?.advance(2 * 60_000);
    const second = await tokens.get(5, 'alpha', COMMENTS);
    expect(second).not.toBe(first);
    expect(forge.app?.grant(`token ${second}`)).toMatchObject({ repositories: ['acme/alpha'] });
    expect(forge.app?.exchanges).toHaveLength(2);
  });

  it('read the App’s slug from GET /app once', async () => {
    const { client } = onFakeClock();
    const before = forge.requests.filter((r) => r === 'GET /api/v3/app').length;
    expect((await client.identity()).slug).toBe('review-bot');
    await client.identity();
    expect(forge.requests.filter((r) => r === 'GET /api/v3/app').length).toBe(before + 1);
  });
});
