/** `gitea_review` remembers its findings across pushes, against the fake Gitea's conversations. */
import { afterEach, describe, expect, it } from 'vitest';
import { findingMarkersIn } from '@webhook-gateway/core';
import { capturingLogger } from '@webhook-gateway/core/testing';
import {
  FINDINGS,
  findingsReviews,
  newFileDiff,
  PUSHES,
} from '@webhook-gateway/target-kit/testing';
import { deliverGiteaReview } from './deliver-gitea-review.js';
import { giteaOptionsSchema, giteaSettingsSchema } from './index.js';
import { startFakeGitea, type FakeGitea } from './test-support/fake-gitea.js';
import { fixture } from './test-support/fixtures.js';

const TOKEN = 'gitea-token-0123456789';
const OPENED = fixture('gitea/pull_request_opened.json'); // jcitizen/my-repo#1
const PULL = 'jcitizen/my-repo#1';

const { kept: KEPT, fixed: FIXED, dismissed: DISMISSED } = FINDINGS;

let fake: FakeGitea | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(resolveApi: boolean) {
  const gitea = await startFakeGitea({
    token: TOKEN,
    login: 'review-bot',
    pulls: { [PULL]: { diff: newFileDiff(PUSHES.first.lines) } },
    resolveApi,
  });
  fake = gitea;
  const { journal, review } = findingsReviews({
    payload: OPENED,
    orderKey: 'reviews|jcitizen/my-repo|1',
    deliveryIdPrefix: 'gitea-push',
    log: capturingLogger().log,
    deliver: (request) =>
      deliverGiteaReview(
        request,
        giteaSettingsSchema.parse({ base_url: gitea.url, token: TOKEN }),
        giteaOptionsSchema.parse({}),
      ),
  });
  /** The line comments the gateway's account posted, as `path:line body` without markers. */
  const posted = () =>
    gitea.reviewComments
      .filter((c) => c.user.login === 'review-bot')
      .map((c) => `${c.path}:${c.position} ${c.body.replace(/\n\n<!--[\s\S]*$/, '')}`);
  const commentOf = (text: string) => {
    const found = gitea.reviewComments.find((c) => c.body.startsWith(text));
    if (!found) throw new Error(`no review comment "${text}"`);
    return found;
  };
  return { gitea, journal, review, posted, commentOf };
}

describe('gitea_review remembers its findings across pushes', () => {
  it('posts each finding once, resolves the fixed one, never raises the dismissed one again', async () => {
    const { gitea, journal, review, posted, commentOf } = await setup(true);
    const first = await review(PUSHES.first.comments);
    expect(first.findings).toMatchObject({ new: 3, stillOpen: 0, resolved: 0 });
    for (const comment of gitea.reviewComments) {
      expect(findingMarkersIn(comment.body)).toHaveLength(1);
    }
    expect(gitea.reviews[0]?.body).toContain(
      'Findings: 3 new, 0 still open, 0 resolved since the last review.',
    );
    gitea.replyToReviewComment(commentOf(DISMISSED.body).id, '/dismiss on purpose', 'jcitizen');

    // Push 2: a line added above b (its finding moves to line 3), c fixed.
    gitea.setDiff(PULL, newFileDiff(PUSHES.second.lines));
    const second = await review(PUSHES.second.comments);
    expect(second).toMatchObject({
      onLines: 0,
      findings: { new: 0, stillOpen: 1, resolved: 2, suppressed: 1, resolveErrors: 0 },
    });
    expect(commentOf(FIXED.body).resolver).toEqual({ login: 'review-bot' });
    expect(commentOf(KEPT.body).resolver).toBeNull();
    expect(gitea.reviews.at(-1)?.body).toContain(
      'Findings: 0 new, 1 still open, 2 resolved since the last review.',
    );

    // Push 3: the same again plus a new one: only the new one is posted.
    const third = await review(PUSHES.third.comments);
    expect(third.findings).toMatchObject({ new: 1, stillOpen: 1, suppressed: 1 });
    expect(posted()).toEqual(PUSHES.third.posted);
    expect((await journal.read()).map((f) => [f.body, f.state])).toEqual(PUSHES.third.journal);
  });

  it('closes a finding whose conversation a person resolved or deleted, and trusts no marker a person copied', async () => {
    const { gitea, journal, review, commentOf } = await setup(true);
    await review(PUSHES.first.comments);
    gitea.resolveConversation(commentOf(KEPT.body).id, 'jcitizen');
    // A person copies the second finding's comment, markers and all, then deletes the original:
    // the copy is not the gateway's conversation, so the finding's is gone.
    const original = commentOf(FIXED.body);
    const copy = gitea.replyToReviewComment(original.id, original.body, 'jcitizen');
    gitea.reviewComments.splice(gitea.reviewComments.indexOf(original), 1);
    expect(copy.body).toBe(original.body);
    const again = await review(PUSHES.first.comments);
    expect(again.findings).toMatchObject({ new: 0, stillOpen: 1, resolved: 2, suppressed: 2 });
    expect((await journal.read()).map((f) => f.state)).toEqual(['resolved', 'dismissed', 'open']);
  });

  it('on an instance without the resolve endpoint (Forgejo), closes a fixed finding without resolving it', async () => {
    const { gitea, journal, review, commentOf } = await setup(false);
    await review([{ ...FIXED, line: 3 }]);
    gitea.setDiff(PULL, newFileDiff(['const a = 1;', 'const b = 2;', 'const c = 3;']));
    const fixed = await review([]);
    expect(fixed.findings).toMatchObject({ resolved: 1, resolveErrors: 0 });
    expect(commentOf(FIXED.body).resolver).toBeNull();
    expect((await journal.read()).map((f) => f.state)).toEqual(['fixed']);
    const resolveCalls = gitea.requests.filter((r) => r.url.endsWith('/resolve'));
    expect(resolveCalls.map((r) => r.method)).toEqual(['POST']);
  });

  it('still delivers when the conversations cannot be read, posting no open finding again', async () => {
    const { gitea, review } = await setup(true);
    await review([{ ...KEPT, line: 2 }]);
    gitea.failNext((r) => r.method === 'GET' && r.url.endsWith('/reviews'), {
      status: 500,
      body: 'down',
    });
    const unread = await review([{ ...KEPT, line: 2 }]);
    expect(unread).toMatchObject({
      onLines: 0,
      findings: { new: 0, stillOpen: 1, resolveErrors: 1 },
    });
    expect(gitea.reviews).toHaveLength(2);
  });

  it('with findings: false posts every line comment on every review', async () => {
    const { gitea, review } = await setup(true);
    await review([{ ...KEPT, line: 2 }], { findings: false });
    const again = await review([{ ...KEPT, line: 2 }], { findings: false });
    expect(again).toEqual({ onLines: 1, moved: 0, extraComments: 0 });
    expect(gitea.reviewComments).toHaveLength(2);
    expect(findingMarkersIn(gitea.reviewComments[0]?.body ?? '')).toEqual([]);
  });
});
