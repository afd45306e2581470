import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ALTFORGE_NOTE_LIMIT } from './altforge-cli.js';
import { altforgeLivingComment, deliverAltforgeComment } from './deliver-altforge-comment.js';
import { showWaitingInLivingComment } from './living-comment-waiting.js';
import { commentMarker } from './living-comment.js';
import { altforgeSettingsSchema } from './settings.js';
import { isolateEnv } from './test-support/env.js';
import { createFakeGlabNotes, type FakeGlabNotes } from './test-support/fake-glab-notes.js';
import { deliverRequest, fixture } from './test-support/requests.js';

// The merge-request fixture: project gitlabhq/gitlab-test, merge request !1.
const mergeRequestHook = fixture('altforge/merge_request_open.json');
const MR = 'gitlabhq/gitlab-test!1';

let glab: FakeGlabNotes;
let restoreEnv: () => void;
beforeEach(() => {
  restoreEnv = isolateEnv();
  glab = createFakeGlabNotes();
  // The fake is found as plain `glab` on PATH, as the real one would be.
  process.env.PATH = `${glab.dir}${path.delimiter}${process.env.PATH ?? ''}`;
});
afterEach(() => {
  glab.cleanup();
  restoreEnv();
});

async function answer(text: string, extra: Record<string, unknown> = { mode: 'update' }) {
  await deliverAltforgeComment(
    deliverRequest({
      payload: mergeRequestHook,
      target: 'altforge_comment',
      answer: text,
      deliverExtra: extra,
    }),
    altforgeSettingsSchema.parse({}),
  );
}

const marker = commentMarker('reviews');

/** A note's body without the loop guard's delivery marker at its end. */
function text(body: string): string {
  expect(body).toMatch(/\n\n<!-- webhook-gateway:delivery [^>]+ -->$/);
  return body.replace(/\n\n<!-- webhook-gateway:delivery [^>]+ -->$/, '');
}

describe('altforge_comment with deliver_extra.mode: update, through glab api', () => {
  it('keeps one note per merge request, edited by each answer', async () => {
    await answer('first review');
    await answer('second review');
    await answer('third review');
    const notes = glab.notes(MR);
    expect(notes.map((n) => text(n.body))).toEqual([`${marker}\nthird review`]);
    // Listed oldest first, page by page; posted once, then edited in place with PUT.
    expect(glab.calls()[0]).toEqual([
      'api',
      'projects/gitlabhq%2Fgitlab-test/merge_requests/1/notes?sort=asc&order_by=created_at&per_page=100&page=1',
    ]);
    expect(glab.calls().filter((argv) => argv.includes('PUT'))).toHaveLength(2);
  });

  it("leaves people's notes and other routes' alone, finding its own past the first page", async () => {
    const people = Array.from({ length: 150 }, (_, i) => ({ id: i + 1, body: `person ${i + 1}` }));
    const other = { id: 151, body: `${commentMarker('other-route')}\nnot ours` };
    glab.setNotes(MR, [...people, other]);
    await answer('first');
    await answer('second');
    const notes = glab.notes(MR);
    expect(notes.slice(0, 151)).toEqual([...people, other]);
    expect(notes.slice(151).map((n) => text(n.body))).toEqual([`${marker}\nsecond`]);
    // The second answer had to read page 2 to find the note the first one posted.
    expect(glab.calls().some((argv) => argv[1]?.endsWith('&page=2'))).toBe(true);
  });

  it('posts the note again when someone deleted it', async () => {
    await answer('first');
    glab.setNotes(MR, []);
    await answer('second');
    expect(glab.notes(MR).map((n) => text(n.body))).toEqual([`${marker}\nsecond`]);
  });

  it('updates a split answer in place and deletes the parts a shorter answer no longer needs', async () => {
    const long = ['first', 'second', 'third']
      .map((word) => `${word} `.repeat(110_000).trim())
      .join('\n\n');
    await answer(long);
    const parts = glab.notes(MR);
    expect(parts.length).toBe(3);
    for (const note of parts) {
      expect(note.body.startsWith(`${marker}\n`)).toBe(true);
      expect(note.body.length).toBeLessThanOrEqual(1_000_000);
    }
    expect(text(parts[0]?.body ?? '')).toMatch(
      /^<!-- webhook-gateway:reviews -->\n\(1\/3\)\n\nfirst /,
    );

    await answer(`${'fourth '.repeat(110_000).trim()}\n\n${'fifth '.repeat(110_000).trim()}`);
    const two = glab.notes(MR);
    expect(two.map((n) => n.id)).toEqual(parts.slice(0, 2).map((n) => n.id));
    expect(text(two[1]?.body ?? '')).toMatch(
      /^<!-- webhook-gateway:reviews -->\n\(2\/2\)\n\nfifth /,
    );

    await answer('short now');
    expect(glab.notes(MR).map((n) => ({ id: n.id, body: text(n.body) }))).toEqual([
      { id: parts[0]?.id, body: `${marker}\nshort now` },
    ]);
  });

  it('posts a note per answer in the default mode, without a route marker', async () => {
    await answer('one', {});
    await answer('two', {});
    expect(glab.notes(MR).map((n) => text(n.body))).toEqual(['one', 'two']);
    expect(glab.calls().map((argv) => argv.slice(0, 2))).toEqual([
      ['mr', 'note'],
      ['mr', 'note'],
    ]);
  });

  it('refuses an unknown mode for good, naming the key and the target', async () => {
    const failure: unknown = await answer('x', { mode: 'sticky' }).catch((error: unknown) => error);
    expect((failure as Error).message).toBe(
      'altforge_comment: deliver_extra.mode is "sticky"; use "new" or "update"',
    );
    expect((failure as { retryable?: unknown }).retryable).toBe(false);
    expect(glab.calls()).toEqual([]);
  });

  it('puts a queued review’s status line above the previous review, and none on a request without a note', async () => {
    const request = deliverRequest({
      payload: mergeRequestHook,
      target: 'altforge_comment',
      deliverExtra: { mode: 'update' },
    });
    const notes = () =>
      altforgeLivingComment(request, request.extra, altforgeSettingsSchema.parse({}));
    const standing = { position: 3, reasons: [{ kind: 'concurrency' as const, limit: 2 }] };
    const show = () =>
      showWaitingInLivingComment(notes(), 'reviews', 'waiting-1', standing, ALTFORGE_NOTE_LIMIT);
    expect(await show()).toBe('no-comment');
    expect(glab.notes(MR)).toEqual([]);

    await answer('the previous review');
    const [previous] = glab.notes(MR).map((n) => n.body);
    expect(await show()).toBe('shown');
    expect(glab.notes(MR).map((n) => n.body)).toEqual([
      `${marker}\n> ⏳ Queued, 3rd: a new review starts when the ones ahead finish. <!-- webhook-gateway:waiting -->\n\n${previous?.slice(marker.length + 1) ?? ''}`,
    ]);
  });
});
