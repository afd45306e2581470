import type { JsonObject, LineComment } from '@webhook-gateway/core';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { deliverAltforgeReview } from './deliver-altforge-review.js';
import { altforgeSettingsSchema } from './settings.js';
import { isolateEnv } from './test-support/env.js';
import { createFakeGlabReviews, type FakeGlabReviews } from './test-support/fake-glab-reviews.js';
import { deliverRequest, fixture } from './test-support/requests.js';

const mergeRequestHook = fixture('altforge/merge_request_open.json');
const DIFF_REFS = { base_sha: 'base-1', start_sha: 'start-1', head_sha: 'head-1' };
const API = 'projects/gitlabhq%2Fgitlab-test/merge_requests/1';

let glab: FakeGlabReviews;
let restoreEnv: () => void;

beforeEach(() => {
  restoreEnv = isolateEnv();
  glab = createFakeGlabReviews({
    path: 'gitlabhq/gitlab-test',
    iid: 1,
    diffRefs: DIFF_REFS,
    lines: { 'src/a.rb': [1, 2, 3], 'README.md': [10] },
  });
});

afterEach(() => {
  glab.cleanup();
  restoreEnv();
});

function review(lineComments: LineComment[], payload: JsonObject = mergeRequestHook) {
  return deliverAltforgeReview(
    deliverRequest({ payload, answer: 'Two remarks.', lineComments, target: 'altforge_review' }),
    altforgeSettingsSchema.parse({ cli: glab.path, token: glab.token }),
  );
}

/** A note without the gateway's marker line (every body ends with one). */
const withoutMarker = (body: string): string =>
  body.replace(/\n\n<!-- webhook-gateway:[^>]*-->$/, '');

describe('altforge_review through glab', () => {
  it('opens a discussion on each line, with diff_refs fetched when the payload has none, then notes the summary', async () => {
    const outcome = await review([
      { path: 'src/a.rb', line: 2, body: 'rename this' },
      { path: 'README.md', line: 10, body: 'typo' },
    ]);
    expect(outcome).toEqual({ onLines: 2, moved: 0, notes: 1 });
    const { discussions, notes } = glab.state();
    expect(discussions.map((d) => ({ ...d, body: withoutMarker(d.body) }))).toEqual([
      {
        body: 'rename this',
        position: { position_type: 'text', ...DIFF_REFS, new_path: 'src/a.rb', new_line: 2 },
      },
      {
        body: 'typo',
        position: { position_type: 'text', ...DIFF_REFS, new_path: 'README.md', new_line: 10 },
      },
    ]);
    expect(notes.map(withoutMarker)).toEqual(['Two remarks.']);
    // The loop guard's marker is on each discussion too.
    expect(discussions[0]?.body).toMatch(/\n\n<!-- webhook-gateway:delivery [^>]+ -->$/);
    expect(glab.calls()[0]).toEqual(['api', API]);
  });

  it("takes the payload's object_attributes.diff_refs without asking", async () => {
    const attributes = mergeRequestHook.object_attributes as JsonObject;
    const payload = {
      ...mergeRequestHook,
      object_attributes: { ...attributes, diff_refs: DIFF_REFS },
    };
    await review([{ path: 'src/a.rb', line: 1, body: 'ok' }], payload);
    expect(glab.calls().map((argv) => argv.slice(0, 3).join(' '))).toEqual([
      `api --method POST`,
      'mr note 1',
    ]);
    expect(glab.state().discussions).toHaveLength(1);
  });

  it('puts a comment whose position is refused into the summary note with its path and line', async () => {
    const outcome = await review([
      { path: 'src/a.rb', line: 3, body: 'kept on its line' },
      { path: 'src/a.rb', line: 99, body: 'outside the diff' },
    ]);
    expect(outcome).toEqual({ onLines: 1, moved: 1, notes: 1 });
    const { discussions, notes } = glab.state();
    expect(discussions.map((d) => withoutMarker(d.body))).toEqual(['kept on its line']);
    expect(notes.map(withoutMarker)).toEqual([
      'Two remarks.\n\n**Comments on lines this diff does not show**\n\n' +
        '- `src/a.rb:99` — outside the diff',
    ]);
  });

  it('notes the summary alone, asking nothing else, when there are no line comments', async () => {
    expect(await review([])).toEqual({ onLines: 0, moved: 0, notes: 1 });
    expect(glab.calls().map((argv) => argv[0])).toEqual(['mr']);
  });

  it('fails naming the target when glab is refused, and posts nothing', async () => {
    await expect(
      deliverAltforgeReview(
        deliverRequest({
          payload: mergeRequestHook,
          lineComments: [{ path: 'src/a.rb', line: 1, body: 'x' }],
          target: 'altforge_review',
        }),
        altforgeSettingsSchema.parse({ cli: glab.path, token: 'wrong' }),
      ),
    ).rejects.toThrow(/^altforge_review: altforge CLI ".*glab" is not authenticated/);
    expect(glab.state()).toMatchObject({ discussions: [], notes: [], statuses: [], threads: [] });
  });
});
