/** The App's status and the manifest conversion against the TLS fake forge. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AppClient } from './app-client.js';
import { convertAppManifest } from './app-manifest.js';
import { readAppStatus } from './app-status.js';
import { appKeyPair } from './test-support/app-key.js';
import { startFakeForgeApi, type FakeForgeApi } from './test-support/fake-forge-api.js';
import { trustFakeForge } from './test-support/trust-fake-forge.js';

const PEM_OF_NEW_APP =
  '-----BEGIN RSA PRIVATE KEY-----\nnew-app-key\n-----END RSA PRIVATE KEY-----\n';
const HOOK_SECRET = 'hook-secret-from-the-forge';

let forge: FakeForgeApi;
let untrust: () => void;
beforeAll(async () => {
  forge = await startFakeForgeApi({
    app: {
      id: 21,
      slug: 'review-bot',
      publicKey: appKeyPair().publicKey,
      installations: [
        { id: 7, account: 'acme', repositories: ['acme/alpha', 'acme/beta', 'acme/gamma'] },
        {
          id: 8,
          account: 'octo',
          accountType: 'User',
          repositorySelection: 'all',
          repositories: ['octo/dots'],
        },
      ],
      hookConfig: {
        url: 'https://hooks.example.com/webhooks/reviews',
        content_type: 'json',
        insecure_ssl: '0',
      },
      conversion: { code: 'code-1', pem: PEM_OF_NEW_APP, webhook_secret: HOOK_SECRET },
    },
  });
  untrust = trustFakeForge(forge.certFile);
});
afterAll(async () => {
  untrust();
  await forge.close();
});

const client = () =>
  new AppClient({ appId: 21, privateKey: appKeyPair().privateKey, apiUrl: forge.apiUrl });

describe('readAppStatus', () => {
  it('lists each installation with its account, repository selection and count, and the webhook', async () => {
    const status = await readAppStatus(client());
    expect(status.app.slug).toBe('review-bot');
    expect(status.installations).toEqual([
      {
        id: 7,
        account: 'acme',
        accountType: 'Organization',
        repositorySelection: 'selected',
        repositories: { count: 3 },
        suspended: false,
      },
      {
        id: 8,
        account: 'octo',
        accountType: 'User',
        repositorySelection: 'all',
        repositories: { count: 1 },
        suspended: false,
      },
    ]);
    expect(status.webhook).toEqual({
      url: 'https://hooks.example.com/webhooks/reviews',
      active: true,
      contentType: 'json',
    });
  });

  it('counts with tokens that may only read metadata, for the whole installation', async () => {
    forge.app?.exchanges.splice(0);
    await readAppStatus(client());
    expect(
      forge.app?.exchanges.map((e) => [e.installationId, e.repositories, e.permissions]),
    ).toEqual(
      expect.arrayContaining([
        [7, [], { metadata: 'read' }],
        [8, [], { metadata: 'read' }],
      ]),
    );
  });

  it('shows an installation whose token is refused with the reason instead of a count', async () => {
    forge.app?.failExchanges(403, 'This installation has been suspended', 2);
    const status = await readAppStatus(client());
    for (const installation of status.installations) {
      const { repositories } = installation;
      expect('error' in repositories ? repositories.error : repositories).toContain(
        'HTTP 403: This installation has been suspended',
      );
    }
  });

  it('takes a webhook without a URL as inactive', async () => {
    forge.app?.setHookConfig({ url: '', content_type: 'json', insecure_ssl: '0' });
    expect((await readAppStatus(client())).webhook.active).toBe(false);
  });

  it('fails naming the endpoint when the JWT is refused', async () => {
    const wrongApp = new AppClient({
      appId: 99,
      privateKey: appKeyPair().privateKey,
      apiUrl: forge.apiUrl,
    });
    await expect(readAppStatus(wrongApp)).rejects.toThrow(
      `GET ${forge.apiUrl}/app: HTTP 401: 'Issuer' claim`,
    );
  });
});

describe('convertAppManifest', () => {
  it('exchanges the code for the new App’s id, key and webhook secret', async () => {
    const created = await convertAppManifest(`${forge.apiUrl}/`, 'code-1');
    expect(created).toMatchObject({
      id: 21,
      slug: 'review-bot',
      htmlUrl: `https://${forge.host}/apps/review-bot`,
      pem: PEM_OF_NEW_APP,
      webhookSecret: HOOK_SECRET,
    });
  });

  it('fails naming the endpoint, and nothing secret, for a code the forge does not take', async () => {
    // The code was used by the test above: the forge's codes are good once.
    const failed = await convertAppManifest(forge.apiUrl, 'code-1').catch(
      (error: unknown) => error,
    );
    expect(String(failed)).toContain(
      `POST ${forge.apiUrl}/app-manifests/{code}/conversions: HTTP 404: Not Found`,
    );
    // Until it is used, a code buys the App's key: it is not printed.
    expect(String(failed)).not.toContain('code-1');
    expect(String(failed)).not.toContain(HOOK_SECRET);
  });
});
