/**
 * A GitHub App for the e2e tests: the TLS fake forge playing the App (it verifies each JWT with
 * the App's public key, issues installation tokens and records them, and takes comments only
 * with a live token for their repository), the App's key in a file, what a gateway child process
 * needs to reach the fake, and the App's signed `pull_request` deliveries.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  appKeyPair,
  writeAppKey,
} from '../../packages/deliver-forge-comment/src/test-support/app-key.js';
import {
  startFakeForgeApi,
  type FakeForgeApi,
} from '../../packages/deliver-forge-comment/src/test-support/fake-forge-api.js';
import { fixture, newDeliveryId, post, signForge, type Sent } from './requests.js';

const APP_ID = 424242;
export const APP_SLUG = 'review-bot';
export const INSTALLATION_ID = 7001;

export interface TestApp {
  forge: FakeForgeApi;
  /** The private key file (absolute: each gateway process has a home of its own). */
  keyFile: string;
  /** The key's PEM text, to look for where it must not be. */
  privateKey: string;
  /** The environment a gateway process needs: gh and Node trusting the fake, no gh login. */
  env: Record<string, string | undefined>;
  /** `platforms.forge` for the config: the App, and api_url pointing at the fake. */
  forgeSettings: Record<string, unknown>;
  close(): Promise<void>;
}

/** Starts the fake forge with the App installed on `repositories` (`owner/name`). */
export async function startTestApp(repositories: string[]): Promise<TestApp> {
  const forge = await startFakeForgeApi({
    app: {
      id: APP_ID,
      slug: APP_SLUG,
      publicKey: appKeyPair().publicKey,
      installations: [{ id: INSTALLATION_ID, account: 'acme', repositories }],
    },
  });
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-e2e-app-'));
  const keyFile = writeAppKey(dir);
  const ghConfig = path.join(dir, 'gh-config');
  fs.mkdirSync(ghConfig);
  return {
    forge,
    keyFile,
    privateKey: appKeyPair().privateKey,
    env: {
      // gh is Go and reads SSL_CERT_FILE; the gateway's own HTTPS (the token exchange) is Node's.
      SSL_CERT_FILE: forge.certFile,
      NODE_EXTRA_CA_CERTS: forge.certFile,
      GH_CONFIG_DIR: ghConfig,
      GH_TOKEN: undefined,
      GITHUB_TOKEN: undefined,
      GH_ENTERPRISE_TOKEN: undefined,
      GITHUB_ENTERPRISE_TOKEN: undefined,
      GH_HOST: undefined,
    },
    forgeSettings: {
      api_url: forge.apiUrl,
      app: { app_id: APP_ID, private_key_file: keyFile },
      timeout_s: 30,
    },
    async close() {
      await forge.close();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * The bytes of an App's `pull_request` delivery about `repo` (`owner/name`): the recorded
 * `opened` payload, its repository and installation made the App's.
 */
export function appPullRequest(repo: string, installationId = INSTALLATION_ID): string {
  const payload = JSON.parse(fixture('forge/pull_request_opened.json').toString('utf8')) as {
    repository: Record<string, unknown> & { owner: Record<string, unknown> };
    installation: Record<string, unknown>;
  };
  const [owner = '', name = ''] = repo.split('/');
  payload.repository = {
    ...payload.repository,
    name,
    full_name: repo,
    owner: { ...payload.repository.owner, login: owner },
  };
  payload.installation = { ...payload.installation, id: installationId };
  return JSON.stringify(payload, null, 2);
}

/** POSTs `body` to `<url>/webhooks/<route>` as the App's webhook does, signed with `secret`. */
export async function sendAppDelivery(
  url: string,
  route: string,
  body: string,
  secret: string,
): Promise<Sent & { deliveryId: string }> {
  const deliveryId = newDeliveryId();
  const sent = await post(`${url}/webhooks/${route}`, body, {
    'Content-Type': 'application/json',
    'User-Agent': 'GitHub-Hookshot/e2e',
    'X-GitHub-Event': 'pull_request',
    'X-GitHub-Delivery': deliveryId,
    'X-GitHub-Hook-Installation-Target-Type': 'integration',
    'X-GitHub-Hook-Installation-Target-ID': String(APP_ID),
    'X-Hub-Signature-256': signForge(body, secret),
  });
  return { ...sent, deliveryId };
}
