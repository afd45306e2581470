/**
 * No secret in any log, through the built CLI at the most verbose level: the config's secrets, the
 * credentials and signatures requests carry (accepted and refused ones), and what the `log` target
 * writes never reach `<home>/logs/gateway.log`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupHomes, startGateway, waitFor } from '../support/gateway.js';
import { fixture, newDeliveryId, post, signForge } from '../support/requests.js';

const WEBHOOK_SECRET = 'log-secrets-global-8c1d0f3a';
const ROUTE_SECRET = 'log-secrets-route-4e9b27d6';
const BEARER = 'bearer-credential-71a0c5e2';
const COOKIE = 'session-cookie-93f4b8d1';
const WRONG_TOKEN = 'wrong-token-2d6e8a40';

afterAll(() => cleanupHomes());

describe('secrets and the log file', () => {
  it('keeps every secret of the config and of the requests out of the log', async () => {
    const gateway = await startGateway({
      args: ['--log-level', 'trace'],
      config: {
        platforms: {
          webhook: {
            extra: {
              secret: WEBHOOK_SECRET,
              routes: {
                reviews: { secret: ROUTE_SECRET, prompt: 'Review PR #{number}' },
                open: { prompt: 'Open {action}' },
              },
            },
          },
        },
      },
    });
    const pullRequest = fixture('forge/pull_request_opened.json');
    const mergeRequest = fixture('altforge/merge_request_open.json');
    const credentials = { Authorization: `Bearer ${BEARER}`, Cookie: `session=${COOKIE}` };
    const sentSecrets = [WEBHOOK_SECRET, ROUTE_SECRET, BEARER, COOKIE, WRONG_TOKEN];
    const forge = (route: string, secret: string) => {
      const signature = signForge(pullRequest, secret);
      sentSecrets.push(signature.slice('sha256='.length));
      return post(`${gateway.url}/webhooks/${route}`, pullRequest, {
        'Content-Type': 'application/json',
        'X-GitHub-Event': 'pull_request',
        'X-GitHub-Delivery': newDeliveryId(),
        'X-Hub-Signature-256': signature,
        ...credentials,
      });
    };
    const altforge = (route: string, token: string) =>
      post(`${gateway.url}/webhooks/${route}`, mergeRequest, {
        'Content-Type': 'application/json',
        'X-Gitlab-Event': 'Merge Request Hook',
        'X-Gitlab-Event-UUID': newDeliveryId(),
        'X-Gitlab-Token': token,
        ...credentials,
      });
    try {
      const answers = [
        await forge('reviews', ROUTE_SECRET),
        await forge('open', WEBHOOK_SECRET),
        await altforge('reviews', ROUTE_SECRET),
        await forge('reviews', WRONG_TOKEN),
        await altforge('open', WRONG_TOKEN),
        await post(`${gateway.url}/webhooks/open`, pullRequest, {
          'Content-Type': 'application/json',
          'webhook-id': 'msg_1',
          'webhook-timestamp': String(Math.floor(Date.now() / 1000)),
          'webhook-signature': `v1,${Buffer.from(WRONG_TOKEN).toString('base64')}`,
          ...credentials,
        }),
      ];
      expect(answers.map((answer) => answer.status)).toEqual([202, 202, 202, 401, 401, 401]);
      sentSecrets.push(Buffer.from(WRONG_TOKEN).toString('base64'));
      await waitFor(
        () =>
          gateway.logLines().filter((line) => line.msg === 'delivered').length === 3
            ? true
            : undefined,
        'three deliveries',
      );
    } finally {
      await gateway.stop();
    }
    const log = fs.readFileSync(path.join(gateway.home, 'logs', 'gateway.log'), 'utf8');
    // The log is not empty: the refusals (debug) and the `log` target's answers are in it.
    expect(log).toContain('"msg":"unauthorized"');
    expect(log).toContain('Review PR #');
    for (const secret of sentSecrets) expect(log).not.toContain(secret);
  });
});
