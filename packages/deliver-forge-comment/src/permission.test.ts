/** Which command deliveries the forge plugin asks the forge about, and which it leaves to others. */
import type { AdmitRequest, JsonObject } from '@webhook-gateway/core';
import { routeSchema } from '@webhook-gateway/core/runtime';
import { describe, expect, it } from 'vitest';
import { PermissionCache } from './command-admission.js';
import { checkCommandPermission } from './permission.js';
import { deliverRequest, fixture } from './test-support/requests.js';

/** An admit request for a command route, its delivery of `event` verified by `authScheme`. */
function admitRequest(event: string, payload: JsonObject, authScheme?: string): AdmitRequest {
  const { delivery, config, log, signal } = deliverRequest({ payload });
  return {
    delivery: { ...delivery, event, ...(authScheme ? { authScheme } : {}) },
    routeConfig: routeSchema.parse({ commands: ['/review'] }),
    agent: config.agent,
    config,
    log,
    signal,
  };
}

/** Clients that record being made: made only for a delivery the plugin asks about. */
function recordingClients() {
  const made: string[] = [];
  const refuse = (platform: string) => () => {
    made.push(platform);
    throw new Error(`asked the ${platform}`);
  };
  return { made, clients: { forge: refuse('forge'), altforge: refuse('altforge') } };
}

const onPullRequest = fixture('forge/issue_comment_created.on-pull-request.json');
const review = { ...onPullRequest, comment: { body: '/review' } };

describe('checkCommandPermission: whose commenters the forge plugin asks about', () => {
  it("leaves Gitea's and Bitbucket's deliveries to their plugins", async () => {
    const { made, clients } = recordingClients();
    const cache = new PermissionCache();
    const cloud = { pullrequest: { id: 1 }, comment: { content: { raw: '/review' } } };
    const requests = [
      admitRequest('issue_comment', review, 'gitea'),
      admitRequest('issue_comment', { ...review, is_pull: true }),
      admitRequest('pullrequest:comment_created', cloud, 'bitbucket'),
      admitRequest('pullrequest:comment_created', cloud),
    ];
    for (const request of requests) {
      expect(await checkCommandPermission(request, clients, cache)).toBeUndefined();
    }
    expect(made).toEqual([]);
  });

  it("asks the forge about its own deliveries, and a generic scheme's", async () => {
    for (const scheme of ['forge', 'hmac', undefined]) {
      const { made, clients } = recordingClients();
      const request = admitRequest('issue_comment', review, scheme);
      await expect(checkCommandPermission(request, clients, new PermissionCache())).rejects.toThrow(
        'asked the forge',
      );
      expect(made).toEqual(['forge']);
    }
  });
});
