/**
 * `deliver_extra.check: true` through the real gh against the TLS fake forge, which keeps check
 * runs and commit statuses as state, and through the fake glab, which keeps commit statuses.
 */
import {
  parseConfig,
  type DeliverRequest,
  type DeliveryStateRequest,
  type DeliveryWaitingRequest,
  type JsonObject,
  type LineComment,
  type ReviewConclusion,
} from '@webhook-gateway/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CHECK_SUMMARY_LIMIT } from './check-output.js';
import {
  endCheckAfterReview,
  endCheckWithoutReview,
  showQueuedCheck,
  startCheck,
} from './review-check.js';
import { altforgeSettingsSchema, forgeSettingsSchema } from './settings.js';
import { isolateEnv } from './test-support/env.js';
import { createFakeGlabReviews, type FakeGlabReviews } from './test-support/fake-glab-reviews.js';
import { useGhAgainstFakeForge } from './test-support/gh-against-fake-forge.js';
import { deliverRequest, fixture } from './test-support/requests.js';

const forge = useGhAgainstFakeForge();

/** What core tells `deliveryEnded` about an attempt that died with the gateway. */
const INTERRUPTED = 'interrupted: the gateway stopped during this attempt';

let pull = 500;
/** A pull request of its own, whose diff shows lines 1–200 of src/a.ts. */
function nextPull(): { payload: JsonObject; number: number; sha: string } {
  const number = ++pull;
  const sha = `${number}`.padStart(40, 'c');
  const lines = Array.from({ length: 200 }, (_, index) => index + 1);
  forge.api.setDiff('octo/repo', number, [
    { filename: 'src/a.ts', patch: `@@ -0,0 +1,200 @@\n${'+x\n'.repeat(200)}`, lines },
  ]);
  return {
    number,
    sha,
    payload: {
      number,
      pull_request: { number, head: { sha } },
      repository: { full_name: 'octo/repo' },
    },
  };
}

const platforms = (app: boolean) => ({
  forge: forgeSettingsSchema.parse({
    host: forge.api.host,
    ...(app ? { app: { app_id: 1, private_key: 'not read here' } } : { token: forge.api.token }),
  }),
  altforge: altforgeSettingsSchema.parse({}),
});

/** A delivered review's request, with the App's installation token when `app`. */
function delivered(
  payload: JsonObject,
  options: {
    app: boolean;
    target?: string;
    answer?: string;
    lineComments?: LineComment[];
    conclusion?: ReviewConclusion;
    publicUrl?: string;
  },
): DeliverRequest {
  const request = deliverRequest({
    payload,
    target: options.target ?? 'forge_comment',
    deliverExtra: { check: true },
    answer: options.answer ?? 'Reviewed.',
    lineComments: options.lineComments ?? [],
    ...(options.conclusion ? { conclusion: options.conclusion } : {}),
  });
  const config = parseConfig({
    platforms: {
      webhook: {
        extra: options.publicUrl ? { admin: { public_url: options.publicUrl } } : {},
      },
    },
  });
  return {
    ...request,
    config,
    ...(options.app ? { credentials: { GH_TOKEN: forge.api.token } } : {}),
  };
}

/** The state hooks' request for the same delivery. */
function state(request: DeliverRequest): DeliveryStateRequest {
  const { delivery, routeConfig, config, credentials, log, signal } = request;
  return { delivery, routeConfig, config, ...(credentials ? { credentials } : {}), log, signal };
}

/** The `deliveryWaiting` request of a delivery 2nd in its route's queue, behind route concurrency. */
function waiting(request: DeliverRequest, position = 2): DeliveryWaitingRequest {
  const { credentials, ...rest } = state(request);
  return {
    ...rest,
    credentials: () => Promise.resolve(credentials),
    standing: {
      id: request.delivery.id,
      route: request.delivery.route,
      position,
      queuedOnRoute: 3,
      estimatedStartAt: undefined,
      reasons: [{ kind: 'route_concurrency', limit: 1 }],
    },
  };
}

describe('a queued review', () => {
  it('shows "Queued, 2nd" as a pending commit status, then in progress when its attempt starts', async () => {
    const { payload, sha } = nextPull();
    const request = delivered(payload, { app: false });
    await showQueuedCheck(waiting(request, 3), platforms(false));
    await showQueuedCheck(waiting(request, 2), platforms(false));
    await startCheck(state(request), platforms(false));
    expect(
      forge.api.checks
        .statuses()
        .filter((s) => s.sha === sha)
        .map((s) => [s.state, s.description]),
    ).toEqual([
      ['pending', 'Queued, 3rd'],
      ['pending', 'Queued, 2nd'],
      ['pending', 'Review in progress'],
    ]);
  });

  it('is one check run with the App: queued with its place and why, then the same run in progress', async () => {
    const { payload, sha } = nextPull();
    const request = delivered(payload, { app: true });
    await showQueuedCheck(waiting(request, 3), platforms(true));
    await showQueuedCheck(waiting(request, 2), platforms(true));
    const queued = forge.api.checks.runs().filter((run) => run.head_sha === sha);
    expect(queued).toMatchObject([
      {
        status: 'queued',
        external_id: 'journal-1',
        output: {
          title: 'Queued, 2nd',
          summary:
            "Delivery `delivery-1` waits:\n\n- route concurrency: 1 of the route's attempts running",
        },
      },
    ]);
    await startCheck(state(request), platforms(true));
    expect(forge.api.checks.runs().filter((run) => run.head_sha === sha)).toMatchObject([
      { id: queued[0]?.id, status: 'in_progress', output: { title: 'Review in progress' } },
    ]);
  });
});

describe('a check with a personal token: a commit status', () => {
  it('is pending from the start, then success for a neutral review, linking the dashboard', async () => {
    const { payload, sha } = nextPull();
    const request = delivered(payload, { app: false, publicUrl: 'https://gw.example/' });
    await startCheck(state(request), platforms(false));
    await endCheckAfterReview(request, platforms(false), async (comments) => comments);
    expect(forge.api.checks.statuses().filter((s) => s.sha === sha)).toEqual([
      {
        repo: 'octo/repo',
        sha,
        state: 'pending',
        context: 'webhook-gateway/reviews',
        description: 'Review in progress',
        target_url: 'https://gw.example/dashboard/deliveries/journal-1',
      },
      {
        repo: 'octo/repo',
        sha,
        state: 'success',
        context: 'webhook-gateway/reviews',
        description: 'Reviewed',
        target_url: 'https://gw.example/dashboard/deliveries/journal-1',
      },
    ]);
    expect(forge.api.checks.runs().filter((run) => run.head_sha === sha)).toEqual([]);
  });

  it('is failure for a failing review, its reason cut to 140 characters, and no link without public_url', async () => {
    const { payload, sha } = nextPull();
    const reason = `A leaked key ${'and more '.repeat(30)}`;
    const request = delivered(payload, {
      app: false,
      conclusion: { value: 'failure', reason },
      lineComments: [{ path: 'src/a.ts', line: 3, body: 'the key' }],
    });
    await endCheckAfterReview(request, platforms(false), async (comments) => comments);
    const [status] = forge.api.checks.statuses().filter((s) => s.sha === sha);
    expect(status?.state).toBe('failure');
    expect(status?.description).toHaveLength(140);
    expect(status?.description?.endsWith('…')).toBe(true);
    expect(status).not.toHaveProperty('target_url');
  });

  it('is failure with the error when the delivery failed', async () => {
    const { payload, sha } = nextPull();
    const request = delivered(payload, { app: false });
    await startCheck(state(request), platforms(false));
    await endCheckWithoutReview(
      { ...state(request), status: 'failed', error: 'forge_comment: gh timed out' },
      platforms(false),
    );
    expect(
      forge.api.checks
        .statuses()
        .filter((s) => s.sha === sha)
        .map((s) => s.state),
    ).toEqual(['pending', 'failure']);
  });
});

describe('a check with the App: a check run', () => {
  it('is created in progress once, however often an attempt starts', async () => {
    const { payload, sha } = nextPull();
    const request = delivered(payload, { app: true });
    await startCheck(state(request), platforms(true));
    await startCheck(state(request), platforms(true));
    expect(forge.api.checks.runs().filter((run) => run.head_sha === sha)).toMatchObject([
      {
        name: 'webhook-gateway/reviews',
        status: 'in_progress',
        conclusion: null,
        external_id: 'journal-1',
      },
    ]);
  });

  it('completes with the comments as annotations, 50 per request, and those off the diff in its summary', async () => {
    const { payload, sha } = nextPull();
    const onDiff = Array.from({ length: 120 }, (_, index) => ({
      path: 'src/a.ts',
      line: index + 1,
      body: `remark ${index + 1}`,
    }));
    const offDiff = { path: 'src/a.ts', line: 900, body: 'this function is too long' };
    const request = delivered(payload, {
      app: true,
      answer: 'Many remarks.',
      lineComments: [...onDiff, offDiff],
      conclusion: { value: 'failure', reason: 'Too many problems' },
    });
    await startCheck(state(request), platforms(true));
    const { commentsInDiff } = await import('./forge-check.js');
    const { subjectForDelivery } = await import('./review-check.js');
    await endCheckAfterReview(request, platforms(true), (comments) =>
      commentsInDiff(subjectForDelivery(request), platforms(true).forge, comments),
    );
    const [run, ...others] = forge.api.checks.runs().filter((r) => r.head_sha === sha);
    expect(others).toEqual([]);
    expect(run).toMatchObject({
      status: 'completed',
      conclusion: 'failure',
      output: { title: 'Too many problems (121 comments)' },
      annotationRequests: 3,
    });
    expect(run?.annotations).toHaveLength(120);
    expect(run?.annotations[119]).toEqual({
      path: 'src/a.ts',
      start_line: 120,
      end_line: 120,
      annotation_level: 'warning',
      message: 'remark 120',
    });
    expect(run?.output.summary).toBe(
      'Many remarks.\n\n**Comments on lines this diff does not show**\n\n' +
        '- `src/a.ts:900` — this function is too long',
    );
    const patches = forge.api.requests.filter(
      (r) => r === `PATCH /api/v3/repos/octo/repo/check-runs/${run?.id ?? 0}`,
    );
    expect(patches).toHaveLength(3);
  });

  it('cuts a summary over the forge limit, with a notice', async () => {
    const { payload, sha } = nextPull();
    const answer = `${'a'.repeat(40_000)}\n${'b'.repeat(40_000)}`;
    const request = delivered(payload, { app: true, answer });
    await endCheckAfterReview(request, platforms(true), async (comments) => comments);
    const [run] = forge.api.checks.runs().filter((r) => r.head_sha === sha);
    expect(run?.status).toBe('completed');
    expect(run?.output.summary.length).toBeLessThanOrEqual(CHECK_SUMMARY_LIMIT);
    expect(run?.output.summary).toMatch(/^a{40000}\n\n_\(Cut at 65,535 characters/);
  });

  it('completes a failed delivery’s run as failure with the error, never leaving it in progress', async () => {
    const { payload, sha } = nextPull();
    const request = delivered(payload, { app: true });
    await startCheck(state(request), platforms(true));
    await endCheckWithoutReview(
      { ...state(request), status: 'failed', error: 'forge_comment: gh timed out after 60 s' },
      platforms(true),
    );
    const [run, ...others] = forge.api.checks.runs().filter((r) => r.head_sha === sha);
    expect(others).toEqual([]);
    expect(run).toMatchObject({
      status: 'completed',
      conclusion: 'failure',
      output: { title: 'The review failed' },
    });
    expect(run?.output.summary).toContain('forge_comment: gh timed out after 60 s');
  });

  it('after a restart, completes the run its dead attempt left in progress (and only this delivery’s)', async () => {
    const { payload, sha } = nextPull();
    const left = {
      repo: 'octo/repo',
      name: 'webhook-gateway/reviews',
      head_sha: sha,
      status: 'in_progress',
      conclusion: null,
      details_url: null,
      output: { title: 'Review in progress', summary: 'attempt 1' },
    };
    const dead = forge.api.checks.addRun({ ...left, external_id: 'journal-1' });
    const another = forge.api.checks.addRun({ ...left, external_id: 'journal-2' });
    const request = delivered(payload, { app: true });
    await endCheckWithoutReview(
      { ...state(request), status: 'failed', error: INTERRUPTED },
      platforms(true),
    );
    expect(dead).toMatchObject({ status: 'completed', conclusion: 'failure' });
    expect(dead.output.summary).toContain(INTERRUPTED);
    expect(another).toMatchObject({ status: 'in_progress', conclusion: null });
    expect(forge.api.checks.runs().filter((r) => r.head_sha === sha)).toHaveLength(2);
  });
});

describe('a check on the altforge: a commit status through glab', () => {
  let glab: FakeGlabReviews;
  let restoreEnv: () => void;
  beforeEach(() => {
    restoreEnv = isolateEnv();
    glab = createFakeGlabReviews({
      path: 'gitlabhq/gitlab-test',
      iid: 1,
      diffRefs: { base_sha: 'base-1', start_sha: 'start-1', head_sha: 'head-1' },
      lines: {},
    });
  });
  afterEach(() => {
    glab.cleanup();
    restoreEnv();
  });

  const altforge = () => ({
    forge: forgeSettingsSchema.parse({}),
    altforge: altforgeSettingsSchema.parse({ cli: glab.path, token: glab.token }),
  });

  it('is running from the start, then success for a neutral review, on the head commit', async () => {
    const request = delivered(fixture('altforge/merge_request_open.json'), {
      app: false,
      target: 'altforge_review',
      publicUrl: 'https://gw.example',
    });
    await startCheck(state(request), altforge());
    await endCheckAfterReview(request, altforge(), async (comments) => comments);
    const sha = 'da1560886d4f094c3e6c9ef40349f7d38b5d27d7';
    expect(glab.state().statuses).toEqual([
      {
        sha,
        state: 'running',
        name: 'webhook-gateway/reviews',
        description: 'Review in progress',
        target_url: 'https://gw.example/dashboard/deliveries/journal-1',
      },
      {
        sha,
        state: 'success',
        name: 'webhook-gateway/reviews',
        description: 'Reviewed',
        target_url: 'https://gw.example/dashboard/deliveries/journal-1',
      },
    ]);
  });

  it('is failed for a failing review and for a failed delivery; a note without the head asks the merge request', async () => {
    const note = fixture('altforge/note_create.json');
    delete (note.merge_request as JsonObject).last_commit;
    (note.project as JsonObject).path_with_namespace = 'gitlabhq/gitlab-test';
    const request = delivered(note, {
      app: false,
      target: 'altforge_comment',
      conclusion: { value: 'failure' },
    });
    await endCheckAfterReview(request, altforge(), async (comments) => comments);
    await endCheckWithoutReview({ ...state(request), status: 'failed', error: 'boom' }, altforge());
    expect(glab.state().statuses.map((s) => [s.sha, s.state, s.description])).toEqual([
      ['head-1', 'failed', 'Problems found'],
      ['head-1', 'failed', 'The review failed'],
    ]);
  });
});
