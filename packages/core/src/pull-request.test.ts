import fs from 'node:fs';
import { describe, expect, it } from 'vitest';
import { gatewayValues } from './attempt.js';
import { parseConfig } from './config/load.js';
import { orderKeyOf, payloadAction } from './delivery.js';
import { MemoryStore } from './memory-store.js';
import { pullRequestOf, type PullRequest } from './pull-request.js';
import type { JsonObject } from './template.js';

const fixture = (name: string): JsonObject =>
  JSON.parse(
    fs.readFileSync(new URL(`../../../test/fixtures/${name}`, import.meta.url), 'utf8'),
  ) as JsonObject;

/** `payload` with the object at the dotted `path` given `value` (a copy; the fixture is kept). */
function withValue(payload: JsonObject, path: string, value: unknown): JsonObject {
  const copy = structuredClone(payload);
  const keys = path.split('.');
  const last = keys.pop() ?? '';
  let at: Record<string, unknown> = copy;
  for (const key of keys) at = at[key] as Record<string, unknown>;
  at[last] = value;
  return copy;
}

interface SenderCase {
  /** The auth scheme that verifies this sender. */
  sender: string;
  file: string;
  expected: PullRequest;
  /** Where the payload names its head commit, and where its number. */
  headPath: string;
  numberPath: string;
}

const SENDERS: SenderCase[] = [
  {
    sender: 'forge',
    file: 'forge/pull_request_opened.json',
    expected: {
      repo: 'Codertocat/Hello-World',
      number: 2,
      headSha: 'ec26c3e57ca3a959ca5aad62de7213c562f8c821',
      url: 'https://github.com/Codertocat/Hello-World/pull/2',
    },
    headPath: 'pull_request.head.sha',
    numberPath: 'pull_request.number',
  },
  {
    sender: 'altforge',
    file: 'altforge/merge_request_open.json',
    expected: {
      repo: 'gitlabhq/gitlab-test',
      number: 1,
      headSha: 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7',
      url: 'http://example.com/diaspora/merge_requests/1',
    },
    headPath: 'object_attributes.last_commit.id',
    numberPath: 'object_attributes.iid',
  },
  {
    sender: 'gitea',
    file: 'gitea/pull_request_opened.json',
    expected: {
      repo: 'jcitizen/my-repo',
      number: 1,
      headSha: '2eba238e33607c1fa49253182e9fff42baafa1eb',
      url: 'https://try.gitea.io/jcitizen/my-repo/pulls/1',
    },
    headPath: 'pull_request.head.sha',
    numberPath: 'pull_request.number',
  },
  {
    sender: 'gitea',
    file: 'gitea/pull_request_reopened.forgejo.json',
    expected: {
      repo: 'test_it/test_ci_thing',
      number: 1,
      headSha: '36b5813240a9d2daa29b05046d56a53e18f39a3e',
      url: 'https://codeberg.org/test_it/test_ci_thing/pulls/1',
    },
    headPath: 'pull_request.head.sha',
    numberPath: 'pull_request.number',
  },
  {
    sender: 'bitbucket',
    file: 'bitbucket/pullrequest_created.json',
    expected: {
      repo: 'brydzewski/foo',
      number: 1,
      headSha: '507a576e59b3',
      url: 'https://bitbucket.org/brydzewski/foo/pull-requests/1',
    },
    headPath: 'pullrequest.source.commit.hash',
    numberPath: 'pullrequest.id',
  },
  {
    sender: 'bitbucket',
    file: 'bitbucket/pr_opened.json',
    // The docs' example has no link (`"self": [null]`).
    expected: {
      repo: 'PROJ/repository',
      number: 1,
      headSha: 'ef8755f06ee4b28c96a847a95cb8ec8ed6ddd1ca',
    },
    headPath: 'pullRequest.fromRef.latestCommit',
    numberPath: 'pullRequest.id',
  },
];

const ROUTE = 'review';
const routeConfig = parseConfig({
  platforms: {
    webhook: {
      extra: {
        routes: {
          [ROUTE]: {
            secret: 's',
            supersede: true,
            prompt: 'since {_gateway.previous_head_sha}',
          },
        },
      },
    },
  },
}).platforms.webhook.extra.routes[ROUTE];

let deliveries = 0;

/** Journals `payload` on the supersede route, as the receiver does for a request `sender` verified. */
async function accept(store: MemoryStore, sender: string, payload: JsonObject) {
  const result = await store.accept(
    {
      route: ROUTE,
      event: 'pull_request',
      action: payloadAction(payload),
      deliveryId: `d-${++deliveries}`,
      receivedAt: Date.now(),
      payload,
      headers: {},
      authScheme: sender,
      orderKey: orderKeyOf(ROUTE, payload, sender),
      maxAttempts: 3,
      supersede: true,
    },
    60_000,
  );
  if (!result.accepted) throw new Error('expected the delivery to be accepted');
  return result;
}

describe.each(SENDERS)('pullRequestOf: $file ($sender)', (sample) => {
  const payload = fixture(sample.file);

  it("reads the request's repository, number, head commit and page", () => {
    expect(pullRequestOf(payload, sample.sender)).toEqual(sample.expected);
  });

  it('finds the same request when the sender is not known (an open route)', () => {
    expect(pullRequestOf(payload)).toEqual(sample.expected);
  });

  it('supersedes a queued delivery of the same request, not one of another request', async () => {
    const store = new MemoryStore();
    const first = await accept(store, sample.sender, payload);
    const other = await accept(
      store,
      sample.sender,
      withValue(payload, sample.numberPath, sample.expected.number + 1),
    );
    const pushed = await accept(store, sample.sender, withValue(payload, sample.headPath, 'b2'));
    expect(pushed.superseded).toEqual([first.record.id]);
    expect((await store.get(first.record.id))?.status).toBe('superseded');
    expect((await store.get(other.record.id))?.status).toBe('queued');
  });

  it('gives the head commit of the last delivered delivery as {_gateway.previous_head_sha}', async () => {
    const store = new MemoryStore();
    const reviewed = await accept(store, sample.sender, payload);
    await store.markRunning(reviewed.record.id, Date.now());
    await store.markDelivered(reviewed.record.id, Date.now());
    const pushed = await accept(store, sample.sender, withValue(payload, sample.headPath, 'c3'));
    const values = await gatewayValues(store, pushed.record, routeConfig!);
    expect(values.previous_head_sha).toBe(sample.expected.headSha);
  });
});

describe('pullRequestOf: events about no pull request', () => {
  it.each([
    ['forge', 'forge/push.json'],
    ['forge', 'forge/issue_comment_created.json'],
    ['forge', 'forge/issues_opened.json'],
  ])('is undefined for %s %s', (sender, file) => {
    expect(pullRequestOf(fixture(file), sender)).toBeUndefined();
  });

  it('reads a forge comment on a pull request, which names no head commit', () => {
    const found = pullRequestOf(
      fixture('forge/issue_comment_created.on-pull-request.json'),
      'forge',
    );
    expect(found).toEqual({
      repo: 'abc/def-ci-webhook-test',
      number: 2,
      url: 'https://github.com/abc/def-ci-webhook-test/pull/2',
    });
  });

  it("reads an altforge note's merge request, with its last commit", () => {
    expect(pullRequestOf(fixture('altforge/note_create.json'), 'altforge')).toMatchObject({
      repo: 'gitlab-org/gitlab-test',
      number: 1,
      headSha: '562e173be03b8ff2efb05345d12df18815438a4b',
    });
  });

  it('reads only the rows of the sender that verified the payload', () => {
    expect(pullRequestOf(fixture('bitbucket/pullrequest_created.json'), 'forge')).toBeUndefined();
    expect(pullRequestOf(fixture('forge/pull_request_opened.json'), 'bitbucket')).toBeUndefined();
  });

  it('makes a link of an http(s) address only', () => {
    const payload = withValue(
      fixture('forge/pull_request_opened.json'),
      'pull_request.html_url',
      'javascript:alert(1)',
    );
    expect(pullRequestOf(payload, 'forge')?.url).toBeUndefined();
  });
});
