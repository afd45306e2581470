import { findingMarkersIn, type FindingsJournal, type LineComment } from '@webhook-gateway/core';
import { MemoryStore } from '@webhook-gateway/core/runtime';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliverAltforgeReview } from './deliver-altforge-review.js';
import { altforgeSettingsSchema } from './settings.js';
import { isolateEnv } from './test-support/env.js';
import { createFakeGlabReviews, type FakeGlabReviews } from './test-support/fake-glab-reviews.js';
import { deliverRequest, fixture } from './test-support/requests.js';

// The merge request hook without diff_refs: the target asks the (fake) glab for them.
const mergeRequestHook = fixture('altforge/merge_request_open.json');

let glab: FakeGlabReviews;
let restoreEnv: () => void;
let store: MemoryStore;
let journal: FindingsJournal;
let delivery = 0;

/** A push: the head commit and the file `src/a.rb` with these lines. */
function pushed(head: string, lines: string[]): void {
  glab.update({
    diffRefs: { base_sha: 'base-1', start_sha: 'start-1', head_sha: head },
    lines: { 'src/a.rb': lines.map((_, index) => index + 1) },
    files: { 'src/a.rb': lines.join('\n') },
  });
}

beforeEach(() => {
  restoreEnv = isolateEnv();
  glab = createFakeGlabReviews({
    path: 'gitlabhq/gitlab-test',
    iid: 1,
    diffRefs: { base_sha: 'base-1', start_sha: 'start-1', head_sha: 'head-1' },
    lines: {},
  });
  store = new MemoryStore();
  const key = 'reviews|gitlabhq/gitlab-test|1';
  journal = { read: () => store.findings(key), save: (f) => store.saveFindings(key, f) };
});

afterEach(() => {
  glab.cleanup();
  restoreEnv();
});

function review(lineComments: LineComment[]) {
  return deliverAltforgeReview(
    deliverRequest({
      payload: mergeRequestHook,
      answer: 'Remarks.',
      lineComments,
      target: 'altforge_review',
      deliveryId: `push-${++delivery}`,
      findings: journal,
    }),
    altforgeSettingsSchema.parse({ cli: glab.path, token: glab.token }),
  );
}

/** The discussion whose first note says `text`. */
function discussionOf(text: string) {
  const found = glab.state().threads.find((t) => t.notes[0]?.body.startsWith(text));
  if (!found) throw new Error(`no discussion for "${text}"`);
  return found;
}

const KEPT = { path: 'src/a.rb', body: 'b is unused' };
const FIXED = { path: 'src/a.rb', body: 'c should be frozen' };
const DISMISSED = { path: 'src/a.rb', body: 'export b too' };

describe('altforge_review remembers its findings across pushes', () => {
  it('keeps one open, resolves the fixed one’s discussion, and never raises again the one a person dismissed', async () => {
    pushed('head-1', ['a = 1', 'b = 2', 'c = 3', 'export a']);
    const first = await review([
      { ...KEPT, line: 2 },
      { ...FIXED, line: 3 },
      { ...DISMISSED, line: 4 },
    ]);
    expect(first).toMatchObject({ onLines: 3, findings: { new: 3 } });
    for (const discussion of glab.state().discussions) {
      expect(findingMarkersIn(discussion.body)).toHaveLength(1);
    }
    glab.award(discussionOf(DISMISSED.body).id, 'thumbsdown');

    pushed('head-2', ['a = 1', '# b first', 'b = 2', 'c = 4', 'export a']);
    const second = await review([
      { ...KEPT, line: 3 },
      { ...DISMISSED, line: 5 },
    ]);
    expect(second).toMatchObject({
      onLines: 0,
      findings: { new: 0, stillOpen: 1, resolved: 2, suppressed: 1, resolveErrors: 0 },
    });
    expect(discussionOf(FIXED.body)).toMatchObject({ resolved: true, resolvedBy: 'gateway-bot' });
    expect(discussionOf(KEPT.body).resolved).toBe(false);
    expect(glab.state().notes.at(-1)).toContain(
      'Findings: 0 new, 1 still open, 2 resolved since the last review.',
    );

    // Push 3: a person replies /dismiss to the kept one; it and the 👎 one are never posted again.
    glab.reply(discussionOf(KEPT.body).id, '/dismiss fine as it is');
    const third = await review([
      { ...KEPT, line: 3 },
      { ...DISMISSED, line: 5 },
      { path: 'src/a.rb', line: 1, body: 'a is a poor name' },
    ]);
    expect(third.findings).toMatchObject({ new: 1, stillOpen: 0, resolved: 1, suppressed: 2 });
    expect(glab.state().discussions).toHaveLength(4);
    expect((await journal.read()).map((f) => [f.body, f.state])).toEqual([
      ['b is unused', 'dismissed'],
      ['c should be frozen', 'fixed'],
      ['export b too', 'dismissed'],
      ['a is a poor name', 'open'],
    ]);
  });

  it('still delivers the review when resolving a discussion fails, and trusts no person’s marker', async () => {
    pushed('head-1', ['a = 1', 'c = 3']);
    await review([{ ...FIXED, line: 2 }]);
    const [marker] = findingMarkersIn(discussionOf(FIXED.body).notes[0]?.body ?? '');
    // A person's discussion carrying the marker, resolved: it closes nothing.
    glab.resolveAsPerson(
      glab.personDiscussion(`c should be frozen <!-- webhook-gateway:finding ${marker ?? ''} -->`),
    );
    pushed('head-2', ['a = 1', 'c = 4']);
    glab.failResolve(1);
    const failed = await review([]);
    expect(failed).toMatchObject({ notes: 1, findings: { resolved: 0, resolveErrors: 1 } });
    expect((await journal.read()).map((f) => f.state)).toEqual(['open']);
    const later = await review([]);
    expect(later.findings).toMatchObject({ resolved: 1, resolveErrors: 0 });
    expect(discussionOf(FIXED.body).resolved).toBe(true);
  });
});
