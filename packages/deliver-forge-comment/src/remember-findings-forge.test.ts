import {
  findingMarkersIn,
  type FindingCounts,
  type FindingsJournal,
  type LineComment,
} from '@webhook-gateway/core';
import { MemoryStore } from '@webhook-gateway/core/runtime';
import { describe, expect, it } from 'vitest';
import { deliverForgeReview } from './deliver-forge-review.js';
import { useGhAgainstFakeForge } from './test-support/gh-against-fake-forge.js';
import { deliverRequest } from './test-support/requests.js';

// The real gh (/usr/bin/gh) against the fake forge over TLS, which keeps review threads.
const forge = useGhAgainstFakeForge();
const store = new MemoryStore();
/** What the target reported for metrics, each review's counts in order. */
const reported: FindingCounts[] = [];

let pull = 500;
let delivery = 0;

/** A pull request of its own, with the findings journal of route `reviews` on it. */
function newPull(): { number: number; journal: FindingsJournal } {
  const number = ++pull;
  const key = `reviews|octo/repo|${number}`;
  return {
    number,
    journal: {
      read: () => store.findings(key),
      save: (f) => store.saveFindings(key, f),
      report: (counts) => reported.push(counts),
    },
  };
}

/** The pull request's diff: `src/a.ts` as a new file with these lines. */
function setLines(number: number, lines: string[]): void {
  forge.api.setDiff('octo/repo', number, [
    {
      filename: 'src/a.ts',
      patch: `@@ -0,0 +1,${lines.length} @@\n${lines.map((line) => `+${line}`).join('\n')}`,
      lines: lines.map((_, index) => index + 1),
    },
  ]);
}

/** One review of the pull request at a new head, as the worker hands it to the target. */
async function review(
  pr: { number: number; journal: FindingsJournal },
  lineComments: LineComment[],
  extra: Record<string, unknown> = {},
) {
  const id = `push-${++delivery}`;
  const payload = {
    number: pr.number,
    pull_request: { number: pr.number, head: { sha: `sha-${delivery}` } },
    repository: { full_name: 'octo/repo' },
  };
  return deliverForgeReview(
    deliverRequest({
      payload,
      answer: 'Remarks.',
      lineComments,
      target: 'forge_review',
      deliveryId: id,
      findings: pr.journal,
      deliverExtra: extra,
    }),
    forge.settings,
  );
}

/** The line comments posted on the pull request so far, as `path:line body` without markers. */
function posted(number: number): string[] {
  return forge.api
    .reviews('octo/repo', number)
    .flatMap((r) => r.comments)
    .map((c) => `${c.path}:${c.line} ${c.body.replace(/\n\n<!--[\s\S]*$/, '')}`);
}

/** The thread whose first comment says `text`. */
function threadOf(number: number, text: string) {
  const thread = forge.api
    .threads('octo/repo', number)
    .find((t) => t.comments[0]?.body.startsWith(text));
  if (!thread) throw new Error(`no thread for "${text}"`);
  return thread;
}

const KEPT = { path: 'src/a.ts', body: 'b is unused' };
const FIXED = { path: 'src/a.ts', body: 'c should be a constant' };
const DISMISSED = { path: 'src/a.ts', body: 'export b too' };

describe('forge_review remembers its findings across pushes', () => {
  it('keeps one open, resolves the one a push fixed, and never raises again the one a person dismissed', async () => {
    const pr = newPull();
    setLines(pr.number, ['const a = 1;', 'const b = 2;', 'let c = 3;', 'export { a };']);
    const first = await review(pr, [
      { ...KEPT, line: 2 },
      { ...FIXED, line: 3 },
      { ...DISMISSED, line: 4 },
    ]);
    expect(first.findings).toMatchObject({ new: 3, stillOpen: 0, resolved: 0 });
    expect(posted(pr.number)).toHaveLength(3);
    // Each comment carries its fingerprint, and the summary says what happened.
    const [firstReview] = forge.api.reviews('octo/repo', pr.number);
    for (const comment of firstReview?.comments ?? []) {
      expect(findingMarkersIn(comment.body)).toHaveLength(1);
    }
    expect(firstReview?.body).toContain(
      'Findings: 3 new, 0 still open, 0 resolved since the last review.',
    );

    // A person dismisses one with a reply.
    forge.api.reply(threadOf(pr.number, DISMISSED.body).id, '/dismiss not for this PR');
    // Push 2: a line added above (the kept finding's line moves to 3), c fixed.
    setLines(pr.number, [
      'const a = 1;',
      '// b first',
      'const b = 2;',
      'const c = 3;',
      'export { a };',
    ]);
    const second = await review(pr, [
      { ...KEPT, line: 3 },
      { ...DISMISSED, line: 5 },
    ]);
    expect(second).toMatchObject({
      onLines: 0,
      findings: { new: 0, stillOpen: 1, resolved: 2, suppressed: 1, resolveErrors: 0 },
    });
    expect(posted(pr.number)).toHaveLength(3);
    expect(threadOf(pr.number, FIXED.body)).toMatchObject({
      isResolved: true,
      resolvedBy: 'octo-person',
    });
    expect(threadOf(pr.number, KEPT.body).isResolved).toBe(false);
    expect(forge.api.reviews('octo/repo', pr.number)[1]?.body).toContain(
      'Findings: 0 new, 1 still open, 2 resolved since the last review.',
    );

    // Push 3: the dismissed one raised again, plus a new one; only the new one is posted.
    const third = await review(pr, [
      { ...KEPT, line: 3 },
      { ...DISMISSED, line: 5 },
      { path: 'src/a.ts', line: 1, body: 'a is a poor name' },
    ]);
    expect(third.findings).toMatchObject({ new: 1, stillOpen: 1, resolved: 0, suppressed: 1 });
    // Each review reported its counts, for metrics.
    expect(reported.slice(-3)).toEqual([first.findings, second.findings, third.findings]);
    expect(posted(pr.number)).toEqual([
      'src/a.ts:2 b is unused',
      'src/a.ts:3 c should be a constant',
      'src/a.ts:4 export b too',
      'src/a.ts:1 a is a poor name',
    ]);
    const fates = (await pr.journal.read()).map((f) => [f.body, f.state]);
    expect(fates).toEqual([
      ['b is unused', 'open'],
      ['c should be a constant', 'fixed'],
      ['export b too', 'dismissed'],
      ['a is a poor name', 'open'],
    ]);
  });

  it('closes a finding a person resolved, or reacted 👎 to, for good', async () => {
    const pr = newPull();
    setLines(pr.number, ['const a = 1;', 'const b = 2;']);
    await review(pr, [
      { ...KEPT, line: 2 },
      { path: 'src/a.ts', line: 1, body: 'a is a poor name' },
    ]);
    forge.api.resolveAsPerson(threadOf(pr.number, KEPT.body).id);
    forge.api.react(threadOf(pr.number, 'a is a poor name').id, 'THUMBS_DOWN');
    const again = await review(pr, [
      { ...KEPT, line: 2 },
      { path: 'src/a.ts', line: 1, body: 'a is a poor name' },
    ]);
    expect(again.findings).toMatchObject({ new: 0, stillOpen: 0, resolved: 2, suppressed: 2 });
    expect((await pr.journal.read()).map((f) => f.state)).toEqual(['resolved', 'dismissed']);
  });

  it('still delivers the review when GraphQL fails reading or resolving threads, counting the errors', async () => {
    const pr = newPull();
    setLines(pr.number, ['const a = 1;', 'let c = 3;']);
    await review(pr, [{ ...FIXED, line: 2 }]);
    // Reading the threads fails: the open finding is neither posted again nor resolved.
    forge.api.failGraphql('reviewThreads', 1);
    const unread = await review(pr, [{ ...FIXED, line: 2 }]);
    expect(unread).toMatchObject({
      onLines: 0,
      findings: { new: 0, stillOpen: 1, resolveErrors: 1 },
    });
    // Resolving fails: the finding stays open, to be resolved by a later review.
    setLines(pr.number, ['const a = 1;', 'const c = 3;']);
    forge.api.failGraphql('resolveReviewThread', 1);
    const unresolved = await review(pr, []);
    expect(unresolved.findings).toMatchObject({ resolved: 0, resolveErrors: 1 });
    expect(threadOf(pr.number, FIXED.body).isResolved).toBe(false);
    expect((await pr.journal.read()).map((f) => f.state)).toEqual(['open']);
    const later = await review(pr, []);
    expect(later.findings).toMatchObject({ resolved: 1, resolveErrors: 0 });
    expect(threadOf(pr.number, FIXED.body).isResolved).toBe(true);
    expect(forge.api.reviews('octo/repo', pr.number)).toHaveLength(4);
  });

  it('trusts no fingerprint a person wrote, one from another request, or one the agent copied', async () => {
    const a = newPull();
    setLines(a.number, ['const a = 1;', 'const b = 2;']);
    await review(a, [{ ...KEPT, line: 2 }]);
    const kept = threadOf(a.number, KEPT.body);
    const [marker] = findingMarkersIn(kept.comments[0]?.body ?? '');
    // A person copies the marker into a comment of their own on another request, and closes it.
    const b = newPull();
    setLines(b.number, ['const a = 1;', 'const b = 2;']);
    const forged = forge.api.personThread('octo/repo', b.number, {
      path: 'src/a.ts',
      line: 2,
      body: `b is unused <!-- webhook-gateway:finding ${marker ?? ''} -->`,
    });
    forge.api.react(forged, 'THUMBS_DOWN');
    forge.api.resolveAsPerson(forged);
    const onB = await review(b, [{ ...KEPT, line: 2 }]);
    expect(onB.findings).toMatchObject({ new: 1, suppressed: 0 });
    expect(posted(b.number)).toEqual(['src/a.ts:2 b is unused']);
    // On request A too, a person's resolved thread carrying the marker closes nothing.
    forge.api.resolveAsPerson(
      forge.api.personThread('octo/repo', a.number, {
        path: 'src/a.ts',
        line: 2,
        body: `dup <!-- webhook-gateway:finding ${marker ?? ''} -->`,
      }),
    );
    // The agent copies the marker into a new finding's text: it is taken out before posting.
    const copied = await review(a, [
      { ...KEPT, line: 2 },
      {
        path: 'src/a.ts',
        line: 1,
        body: `a is a poor name <!-- webhook-gateway:finding ${marker ?? ''} -->`,
      },
    ]);
    expect(copied.findings).toMatchObject({ new: 1, stillOpen: 1, resolved: 0 });
    const newest = forge.api.reviews('octo/repo', a.number).at(-1)?.comments[0]?.body ?? '';
    expect(findingMarkersIn(newest)).toHaveLength(1);
    expect(findingMarkersIn(newest)).not.toContain(marker);
  });

  it('posts every finding again with deliver_extra.findings: false, as before', async () => {
    const pr = newPull();
    setLines(pr.number, ['const a = 1;', 'const b = 2;']);
    // false as YAML writes it, and as a template renders it.
    for (const findings of [false, 'false']) {
      await review(pr, [{ ...KEPT, line: 2 }], { findings });
    }
    expect(posted(pr.number)).toHaveLength(2);
    expect(await pr.journal.read()).toEqual([]);
  });
});

describe('forge_review findings on lines with the same text', () => {
  it('posts the same remark on two lines of the same text once each, and neither again', async () => {
    const pr = newPull();
    setLines(pr.number, ['}', 'const a = 1;', '}']);
    const twice = [
      { path: 'src/a.ts', line: 1, body: 'stray brace' },
      { path: 'src/a.ts', line: 3, body: 'stray brace' },
    ];
    expect((await review(pr, twice)).findings).toMatchObject({ new: 2 });
    expect((await review(pr, twice)).findings).toMatchObject({ new: 0, stillOpen: 2 });
    expect(posted(pr.number)).toEqual(['src/a.ts:1 stray brace', 'src/a.ts:3 stray brace']);
  });
});
