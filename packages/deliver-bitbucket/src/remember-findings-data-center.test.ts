/**
 * `bitbucket_review` on Bitbucket Data Center remembers its findings across pushes, against the
 * fake Data Center's threads (replies nested in `comments`, `state` / `threadResolved`, versions).
 */
import { afterEach, describe, expect, it } from 'vitest';
import { findingMarkersIn } from '@webhook-gateway/core';
import { capturingLogger } from '@webhook-gateway/core/testing';
import {
  FINDINGS,
  newFileDiff,
  PUSHES,
  type ReceivedRequest,
} from '@webhook-gateway/target-kit/testing';
import {
  startFakeBitbucketDataCenter,
  type FakeBitbucketDataCenter,
} from './test-support/fake-bitbucket-data-center.js';
import { bitbucketFindingsReviews } from './test-support/findings-reviews.js';
import { fixture } from './test-support/fixtures.js';

const TOKEN = 'data-center-http-token-0123';
const OPENED = fixture('bitbucket/pr_opened.json'); // PROJ/repository#1
const PULL = 'PROJ/repository#1';
const BOT = 'review-bot';

const { kept: KEPT, fixed: FIXED, dismissed: DISMISSED } = FINDINGS;

let fake: FakeBitbucketDataCenter | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

const askedWho = (r: ReceivedRequest) => r.url.endsWith('/rest/api/1.0/application-properties');
const resolving = (r: ReceivedRequest) => r.method === 'PUT' && r.json !== undefined;

async function setup(bot?: string, log = capturingLogger().log) {
  const bitbucket = await startFakeBitbucketDataCenter({
    token: TOKEN,
    bot: BOT,
    pulls: { [PULL]: { diff: newFileDiff(PUSHES.first.lines) } },
    // Three activities a page: the threads are read page by page.
    pageSize: 3,
  });
  fake = bitbucket;
  const { journal, review } = bitbucketFindingsReviews({
    payload: OPENED,
    orderKey: 'reviews|PROJ/repository|1',
    settings: {
      data_center: { base_url: bitbucket.serverUrl, token: TOKEN, ...(bot ? { bot } : {}) },
    },
    log,
  });
  /** The line comments the gateway posted, as `path:line body` without markers. */
  const posted = () =>
    bitbucket.comments
      .filter((c) => c.anchor && c.author.name === BOT)
      .map(
        (c) => `${c.anchor?.path}:${c.anchor?.line} ${c.text.replace(/\n\n\[\/\/\][\s\S]*$/, '')}`,
      );
  const commentOf = (text: string) => {
    const found = bitbucket.comments.find((c) => c.anchor && c.text.startsWith(text));
    if (!found) throw new Error(`no line comment "${text}"`);
    return found;
  };
  /** Someone changes a comment just before the gateway's next request that `matches` arrives. */
  const justBefore = (matches: (r: ReceivedRequest) => boolean, change: () => void) => {
    let changed = false;
    bitbucket.failNext(
      (r) => {
        if (!changed && matches(r)) {
          changed = true;
          change();
        }
        // The request itself is answered as usual, against the changed comment.
        return false;
      },
      { status: 500, body: '' },
    );
  };
  return { bitbucket, journal, review, posted, commentOf, justBefore };
}

describe('bitbucket_review on Data Center remembers its findings across pushes', () => {
  it('posts each finding once, resolves the fixed one, never raises the dismissed one again', async () => {
    const { bitbucket, journal, review, posted, commentOf } = await setup();
    const first = await review(PUSHES.first.comments);
    expect(first.findings).toMatchObject({ new: 3, stillOpen: 0, resolved: 0 });
    for (const comment of bitbucket.comments.filter((c) => c.anchor)) {
      // Hidden the Bitbucket way, and still read.
      expect(comment.text).toContain('[//]: # (<!-- webhook-gateway:finding ');
      expect(findingMarkersIn(comment.text)).toHaveLength(1);
    }
    expect(bitbucket.comments.at(-1)?.text).toContain(
      'Findings: 3 new, 0 still open, 0 resolved since the last review.',
    );
    // A reply to a reply: Data Center nests it two deep in the thread's first comment.
    const answer = bitbucket.reply(commentOf(DISMISSED.body).id, 'not sure', 'jcitizen');
    bitbucket.reply(answer.id, '/dismiss on purpose', 'jcitizen');
    // The gateway's own `/dismiss` (quoted in a reply of its account) dismisses nothing.
    bitbucket.reply(commentOf(KEPT.body).id, '/dismiss is how to close it', BOT);

    // Push 2: a line added above b (its finding moves to line 3), c fixed.
    bitbucket.setDiff(PULL, newFileDiff(PUSHES.second.lines));
    const second = await review(PUSHES.second.comments);
    expect(second).toMatchObject({
      onLines: 0,
      findings: { new: 0, stillOpen: 1, resolved: 2, suppressed: 1, resolveErrors: 0 },
    });
    expect(commentOf(FIXED.body)).toMatchObject({ state: 'RESOLVED', resolver: { name: BOT } });
    expect(commentOf(KEPT.body).state).toBe('OPEN');
    expect(bitbucket.requests.filter(resolving).map((r) => r.json)).toEqual([
      { state: 'RESOLVED', version: 0 },
    ]);
    expect(bitbucket.comments.at(-1)?.text).toContain(
      'Findings: 0 new, 1 still open, 2 resolved since the last review.',
    );

    // Push 3: the same again plus a new one: only the new one is posted.
    const third = await review(PUSHES.third.comments);
    expect(third.findings).toMatchObject({ new: 1, stillOpen: 1, suppressed: 1 });
    expect(posted()).toEqual(PUSHES.third.posted);
    expect((await journal.read()).map((f) => [f.body, f.state])).toEqual(PUSHES.third.journal);
    // Without data_center.bot, X-AUSERNAME was read once per review that had open findings.
    expect(bitbucket.requests.filter(askedWho)).toHaveLength(2);
  });

  it('closes a finding whose thread a person resolved or deleted, and trusts no marker a person copied', async () => {
    const { bitbucket, journal, review, commentOf } = await setup(BOT);
    await review(PUSHES.first.comments);
    bitbucket.resolveAsPerson(commentOf(KEPT.body).id, 'jcitizen');
    // A person copies the second finding's comment, markers and all, on the same line, then
    // deletes the original: the copy is not the gateway's thread, so the finding's thread is gone.
    const original = commentOf(FIXED.body);
    bitbucket.addComment(PULL, original.text, 'jcitizen', original.anchor);
    bitbucket.deleteComment(original.id);
    const again = await review(PUSHES.first.comments);
    expect(again.findings).toMatchObject({ new: 0, stillOpen: 1, resolved: 2, suppressed: 2 });
    expect((await journal.read()).map((f) => f.state)).toEqual(['resolved', 'dismissed', 'open']);
    // With data_center.bot set, the token's user is not asked.
    expect(bitbucket.requests.filter(askedWho)).toEqual([]);
  });

  it('resolves at the version Data Center has now after a 409, and not twice', async () => {
    const { bitbucket, journal, review, commentOf, justBefore } = await setup(BOT);
    await review([
      { ...KEPT, line: 2 },
      { ...FIXED, line: 3 },
    ]);
    // Push 2 fixes both lines. Someone edits the first comment after the gateway read it: its
    // resolution at the version read is refused (409), read again, and made at the new version.
    // Someone resolves the second one meanwhile: read again, it is left as it is.
    bitbucket.setDiff(PULL, newFileDiff(['const a = 1;', 'const b = 3;', 'const c = 3;']));
    const kept = commentOf(KEPT.body);
    const fixed = commentOf(FIXED.body);
    const put = (id: number) => (r: ReceivedRequest) =>
      r.method === 'PUT' && r.url.endsWith(`/comments/${id}`);
    justBefore(put(kept.id), () => bitbucket.editComment(kept.id, `${kept.text}\n\n(edited)`));
    justBefore(put(fixed.id), () => bitbucket.resolveAsPerson(fixed.id, 'jcitizen'));
    const second = await review([]);
    expect(second.findings).toMatchObject({ resolved: 2, resolveErrors: 0 });
    expect(kept).toMatchObject({ state: 'RESOLVED', resolver: { name: BOT }, version: 2 });
    expect(fixed).toMatchObject({ state: 'RESOLVED', resolver: { name: 'jcitizen' } });
    expect(
      bitbucket.requests.filter(resolving).map((r) => [r.url.split('/').at(-1), r.json]),
    ).toEqual([
      [String(kept.id), { state: 'RESOLVED', version: 0 }],
      [String(kept.id), { state: 'RESOLVED', version: 1 }],
      [String(fixed.id), { state: 'RESOLVED', version: 0 }],
    ]);
    expect((await journal.read()).map((f) => f.state)).toEqual(['fixed', 'fixed']);
  });

  it('still delivers when a thread cannot be resolved, keeping the finding open for the next review', async () => {
    const { bitbucket, journal, review, commentOf } = await setup(BOT);
    await review([{ ...FIXED, line: 3 }]);
    bitbucket.setDiff(PULL, newFileDiff(['const a = 1;', 'const b = 2;', 'const c = 3;']));
    bitbucket.failNext((r) => r.method === 'PUT', {
      status: 403,
      body: { errors: [{ context: null, message: 'no write access', exceptionName: null }] },
    });
    const unresolved = await review([]);
    expect(unresolved.findings).toMatchObject({ resolved: 0, resolveErrors: 1 });
    expect((await journal.read()).map((f) => f.state)).toEqual(['open']);
    const next = await review([]);
    expect(next.findings).toMatchObject({ resolved: 1, resolveErrors: 0 });
    expect(commentOf(FIXED.body)).toMatchObject({ state: 'RESOLVED', resolver: { name: BOT } });
  });

  it('without data_center.bot and no X-AUSERNAME, says which key to set and still delivers', async () => {
    const log = capturingLogger();
    const { bitbucket, review } = await setup(undefined, log.log);
    await review([{ ...KEPT, line: 2 }]);
    // A proxy in front of Data Center that drops the header.
    bitbucket.failNext(askedWho, { status: 200, body: { version: '9.4.0' } });
    const unread = await review([{ ...KEPT, line: 2 }]);
    expect(unread).toMatchObject({ onLines: 0, findings: { stillOpen: 1, resolveErrors: 1 } });
    const warning = log.lines.find(
      (line) => line.message === 'could not read the review threads of the findings',
    );
    expect(String(warning?.fields.err)).toContain('set platforms.bitbucket.data_center.bot');
    expect(log.text()).not.toContain(TOKEN);
  });

  it('with findings: false posts every line comment on every review', async () => {
    const { bitbucket, review } = await setup();
    await review([{ ...KEPT, line: 2 }], { findings: false });
    const again = await review([{ ...KEPT, line: 2 }], { findings: false });
    expect(again).toEqual({ onLines: 1, moved: 0, summaryComments: 1 });
    const onLines = bitbucket.comments.filter((c) => c.anchor);
    expect(onLines).toHaveLength(2);
    expect(findingMarkersIn(onLines[0]?.text ?? '')).toEqual([]);
  });
});
