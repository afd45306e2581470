/** `bitbucket_review` remembers its findings across pushes, against the fake Bitbucket's threads. */
import { afterEach, describe, expect, it } from 'vitest';
import { findingMarkersIn } from '@webhook-gateway/core';
import { capturingLogger } from '@webhook-gateway/core/testing';
import { FINDINGS, newFileDiff, PUSHES } from '@webhook-gateway/target-kit/testing';
import { startFakeBitbucket, type FakeBitbucket } from './test-support/fake-bitbucket.js';
import { bitbucketFindingsReviews } from './test-support/findings-reviews.js';
import { fixture } from './test-support/fixtures.js';

const TOKEN = 'bitbucket-access-token-0123';
const CREATED = fixture('bitbucket/pullrequest_created.json'); // brydzewski/foo#1
const PULL = 'brydzewski/foo#1';
const BOT = { uuid: '{bot-uuid}', account_id: '557058:bot', nickname: 'review-bot' };

const { kept: KEPT, fixed: FIXED, dismissed: DISMISSED } = FINDINGS;

let fake: FakeBitbucket | undefined;
afterEach(async () => {
  await fake?.close();
  fake = undefined;
});

async function setup(bot?: string, log = capturingLogger().log) {
  const bitbucket = await startFakeBitbucket({
    token: TOKEN,
    bot: BOT,
    // The token is a user's: GET /user names it.
    tokenUser: BOT,
    pulls: { [PULL]: { diff: newFileDiff(PUSHES.first.lines) } },
    pagelen: 3,
  });
  fake = bitbucket;
  const { journal, review } = bitbucketFindingsReviews({
    payload: CREATED,
    orderKey: 'reviews|brydzewski/foo|1',
    settings: { base_url: bitbucket.apiBase, token: TOKEN, ...(bot ? { bot } : {}) },
    log,
  });
  /** The inline comments the gateway posted, as `path:line body` without markers. */
  const posted = () =>
    bitbucket.comments
      .filter((c) => c.inline && c.user.uuid === BOT.uuid)
      .map((c) => `${c.inline?.path}:${c.inline?.to} ${c.raw.replace(/\n\n\[\/\/\][\s\S]*$/, '')}`);
  const commentOf = (text: string) => {
    const found = bitbucket.comments.find((c) => c.inline && c.raw.startsWith(text));
    if (!found) throw new Error(`no inline comment "${text}"`);
    return found;
  };
  return { bitbucket, journal, review, posted, commentOf };
}

describe('bitbucket_review remembers its findings across pushes', () => {
  it('posts each finding once, resolves the fixed one, never raises the dismissed one again', async () => {
    const { bitbucket, journal, review, posted, commentOf } = await setup();
    const first = await review(PUSHES.first.comments);
    expect(first.findings).toMatchObject({ new: 3, stillOpen: 0, resolved: 0 });
    for (const comment of bitbucket.comments.filter((c) => c.inline)) {
      // Hidden the Bitbucket way, and still read.
      expect(comment.raw).toContain('[//]: # (<!-- webhook-gateway:finding ');
      expect(findingMarkersIn(comment.raw)).toHaveLength(1);
    }
    expect(bitbucket.comments.at(-1)?.raw).toContain(
      'Findings: 3 new, 0 still open, 0 resolved since the last review.',
    );
    const answer = bitbucket.reply(commentOf(DISMISSED.body).id, 'not sure', 'jcitizen');
    bitbucket.reply(answer.id, '/dismiss on purpose', 'jcitizen');

    // Push 2: a line added above b (its finding moves to line 3), c fixed.
    bitbucket.setDiff(PULL, newFileDiff(PUSHES.second.lines));
    const second = await review(PUSHES.second.comments);
    expect(second).toMatchObject({
      onLines: 0,
      findings: { new: 0, stillOpen: 1, resolved: 2, suppressed: 1, resolveErrors: 0 },
    });
    expect(commentOf(FIXED.body).resolution).toEqual(BOT);
    expect(commentOf(KEPT.body).resolution).toBeUndefined();
    expect(bitbucket.comments.at(-1)?.raw).toContain(
      'Findings: 0 new, 1 still open, 2 resolved since the last review.',
    );

    // Push 3: the same again plus a new one: only the new one is posted.
    const third = await review(PUSHES.third.comments);
    expect(third.findings).toMatchObject({ new: 1, stillOpen: 1, suppressed: 1 });
    expect(posted()).toEqual(PUSHES.third.posted);
    expect((await journal.read()).map((f) => [f.body, f.state])).toEqual(PUSHES.third.journal);
    // Without platforms.bitbucket.bot, the token's account was asked once per review.
    expect(bitbucket.requests.filter((r) => r.url.endsWith('/2.0/user'))).toHaveLength(2);
  });

  it('closes a finding whose thread a person resolved or deleted, and trusts no marker a person copied', async () => {
    const { bitbucket, journal, review, commentOf } = await setup(BOT.nickname);
    await review(PUSHES.first.comments);
    bitbucket.resolveAsPerson(commentOf(KEPT.body).id, 'jcitizen');
    // A person copies the second finding's comment, markers and all, then deletes the original:
    // the copy is not the gateway's thread, so the finding's thread is gone.
    const original = commentOf(FIXED.body);
    const copy = bitbucket.addComment(PULL, original.raw, 'jcitizen');
    copy.inline = { path: 'src/a.ts', to: 3 };
    original.deleted = true;
    const again = await review(PUSHES.first.comments);
    expect(again.findings).toMatchObject({ new: 0, stillOpen: 1, resolved: 2, suppressed: 2 });
    expect((await journal.read()).map((f) => f.state)).toEqual(['resolved', 'dismissed', 'open']);
    // With platforms.bitbucket.bot set, the account is not asked.
    expect(bitbucket.requests.filter((r) => r.url.endsWith('/2.0/user'))).toEqual([]);
  });

  it('still delivers when a thread cannot be resolved, keeping the finding open for the next review', async () => {
    const { bitbucket, journal, review, commentOf } = await setup(BOT.uuid);
    await review([{ ...FIXED, line: 3 }]);
    bitbucket.setDiff(PULL, newFileDiff(['const a = 1;', 'const b = 2;', 'const c = 3;']));
    bitbucket.failNext((r) => r.url.endsWith('/resolve'), {
      status: 403,
      body: { type: 'error', error: { message: 'Forbidden' } },
    });
    const unresolved = await review([]);
    expect(unresolved.findings).toMatchObject({ resolved: 0, resolveErrors: 1 });
    expect((await journal.read()).map((f) => f.state)).toEqual(['open']);
    const next = await review([]);
    expect(next.findings).toMatchObject({ resolved: 1, resolveErrors: 0 });
    expect(commentOf(FIXED.body).resolution).toEqual(BOT);
  });

  it('without platforms.bitbucket.bot and a token that may not read /user, says which key to set and still delivers', async () => {
    const log = capturingLogger();
    const { bitbucket, review } = await setup(undefined, log.log);
    await review([{ ...KEPT, line: 2 }]);
    bitbucket.failNext((r) => r.url.endsWith('/2.0/user'), {
      status: 401,
      body: { type: 'error', error: { message: 'Token is not supported for this endpoint.' } },
    });
    const unread = await review([{ ...KEPT, line: 2 }]);
    expect(unread).toMatchObject({ onLines: 0, findings: { stillOpen: 1, resolveErrors: 1 } });
    const warning = log.lines.find(
      (line) => line.message === 'could not read the review threads of the findings',
    );
    expect(String(warning?.fields.err)).toContain('set platforms.bitbucket.bot');
    expect(log.text()).not.toContain(TOKEN);
  });

  it('with findings: false posts every line comment on every review', async () => {
    const { bitbucket, review } = await setup();
    await review([{ ...KEPT, line: 2 }], { findings: false });
    const again = await review([{ ...KEPT, line: 2 }], { findings: false });
    expect(again).toEqual({ onLines: 1, moved: 0, summaryComments: 1 });
    const inline = bitbucket.comments.filter((c) => c.inline);
    expect(inline).toHaveLength(2);
    expect(findingMarkersIn(inline[0]?.raw ?? '')).toEqual([]);
  });
});
