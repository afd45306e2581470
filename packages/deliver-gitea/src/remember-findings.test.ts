/** `gitea_review` remembers its findings across pushes, against the fake Gitea's conversations. */
import { afterEach, describe, expect, it } from 'vitest';
import { findingMarkersIn, type FindingsJournal, type LineComment } from '@webhook-gateway/core';
import { MemoryStore } from '@webhook-gateway/core/runtime';
import { capturingLogger } from '@webhook-gateway/core/testing';
import { deliverRequest, fakeDelivery } from '@webhook-gateway/target-kit/testing';
import { deliverGiteaReview } from './deliver-gitea-review.js';
import { giteaOptionsSchema, giteaSettingsSchema } from './index.js';
import { startFakeGitea, type FakeGitea } from './test-support/fake-gitea.js';
import { fixture } from './test-support/fixtures.js';

const TOKEN = 'gitea-token-0123456789';
const OPENED = fixture('gitea/pull_request_opened.json'); // jcitizen/my-repo#1
const PULL = 'jcitizen/my-repo#1';

const KEPT = { path: 'src/a.ts', body: 'b is unused' };
const FIXED = { path: 'src/a.ts', body: 'c should be a constant' };
const DISMISSED = { path: 'src/a.ts', body: 'export b too' };

let fake: FakeGitea | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

/** `src/a.ts` as a new file with these lines. */
function diffOf(lines: string[]): string {
  return [
    'diff --git a/src/a.ts b/src/a.ts',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/src/a.ts',
    `@@ -0,0 +1,${lines.length} @@`,
    ...lines.map((line) => `+${line}`),
    '',
  ].join('\n');
}

async function setup(resolveApi: boolean) {
  const gitea = await startFakeGitea({
    token: TOKEN,
    login: 'review-bot',
    pulls: { [PULL]: { diff: diffOf(['const a = 1;', 'const b = 2;', 'let c = 3;']) } },
    resolveApi,
  });
  fake = gitea;
  const store = new MemoryStore();
  const journal: FindingsJournal = {
    read: () => store.findings('reviews|jcitizen/my-repo|1'),
    save: (findings) => store.saveFindings('reviews|jcitizen/my-repo|1', findings),
  };
  let push = 0;
  /** One review at a new head, as the worker hands it to the target. */
  const review = (lineComments: LineComment[], extra: Record<string, unknown> = {}) =>
    deliverGiteaReview(
      {
        ...deliverRequest({
          answer: 'Remarks.',
          lineComments,
          extra,
          log: capturingLogger().log,
          delivery: fakeDelivery({
            route: 'reviews',
            payload: OPENED,
            deliveryId: `gitea-push-${++push}`,
          }),
        }),
        findings: journal,
      },
      giteaSettingsSchema.parse({ base_url: gitea.url, token: TOKEN }),
      giteaOptionsSchema.parse({}),
    );
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
    const first = await review([
      { ...KEPT, line: 2 },
      { ...FIXED, line: 3 },
      { ...DISMISSED, line: 1 },
    ]);
    expect(first.findings).toMatchObject({ new: 3, stillOpen: 0, resolved: 0 });
    for (const comment of gitea.reviewComments) {
      expect(findingMarkersIn(comment.body)).toHaveLength(1);
    }
    expect(gitea.reviews[0]?.body).toContain(
      'Findings: 3 new, 0 still open, 0 resolved since the last review.',
    );
    gitea.replyToReviewComment(commentOf(DISMISSED.body).id, '/dismiss on purpose', 'jcitizen');

    // Push 2: a line added above b (its finding moves to line 3), c fixed.
    gitea.setDiff(PULL, diffOf(['const a = 1;', '// b first', 'const b = 2;', 'const c = 3;']));
    const second = await review([
      { ...KEPT, line: 3 },
      { ...DISMISSED, line: 1 },
    ]);
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
    const third = await review([
      { ...KEPT, line: 3 },
      { ...DISMISSED, line: 1 },
      { path: 'src/a.ts', line: 2, body: 'say why' },
    ]);
    expect(third.findings).toMatchObject({ new: 1, stillOpen: 1, suppressed: 1 });
    expect(posted()).toEqual([
      'src/a.ts:2 b is unused',
      'src/a.ts:3 c should be a constant',
      'src/a.ts:1 export b too',
      'src/a.ts:2 say why',
    ]);
    expect((await journal.read()).map((f) => [f.body, f.state])).toEqual([
      ['b is unused', 'open'],
      ['c should be a constant', 'fixed'],
      ['export b too', 'dismissed'],
      ['say why', 'open'],
    ]);
  });

  it('closes a finding whose conversation a person resolved or deleted, and trusts no marker a person copied', async () => {
    const { gitea, journal, review, commentOf } = await setup(true);
    await review([
      { ...KEPT, line: 2 },
      { ...FIXED, line: 3 },
      { ...DISMISSED, line: 1 },
    ]);
    gitea.resolveConversation(commentOf(KEPT.body).id, 'jcitizen');
    // A person copies the second finding's comment, markers and all, then deletes the original:
    // the copy is not the gateway's conversation, so the finding's is gone.
    const original = commentOf(FIXED.body);
    const copy = gitea.replyToReviewComment(original.id, original.body, 'jcitizen');
    gitea.reviewComments.splice(gitea.reviewComments.indexOf(original), 1);
    expect(copy.body).toBe(original.body);
    const again = await review([
      { ...KEPT, line: 2 },
      { ...FIXED, line: 3 },
      { ...DISMISSED, line: 1 },
    ]);
    expect(again.findings).toMatchObject({ new: 0, stillOpen: 1, resolved: 2, suppressed: 2 });
    expect((await journal.read()).map((f) => f.state)).toEqual(['resolved', 'dismissed', 'open']);
  });

  it('on an instance without the resolve endpoint (Forgejo), closes a fixed finding without resolving it', async () => {
    const { gitea, journal, review, commentOf } = await setup(false);
    await review([{ ...FIXED, line: 3 }]);
    gitea.setDiff(PULL, diffOf(['const a = 1;', 'const b = 2;', 'const c = 3;']));
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
