import { parseConfig } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { deliverForgeComment } from './deliver-forge-comment.js';
import plugin from './index.js';
import { commentMarker } from './living-comment.js';
import { useGhAgainstFakeForge } from './test-support/gh-against-fake-forge.js';
import { deliverRequest } from './test-support/requests.js';

// The real gh (/usr/bin/gh) against a GitHub-compatible fake over TLS on 127.0.0.1.
const forge = useGhAgainstFakeForge();

let pull = 100;
/** A pull request of its own for each test. */
function nextPull(): { payload: Record<string, unknown>; number: number } {
  const number = ++pull;
  return {
    number,
    payload: { number, pull_request: { number }, repository: { full_name: 'octo/repo' } },
  };
}

async function answer(payload: Record<string, unknown>, text: string): Promise<void> {
  await deliverForgeComment(
    deliverRequest({ payload, answer: text, deliverExtra: { mode: 'update' } }),
    forge.settings,
  );
}

const marker = commentMarker('reviews');

/** A posted body without the loop guard's delivery marker at its end (checked where it is kept). */
function text(body: string): string {
  expect(body).toMatch(/\n\n<!-- webhook-gateway:delivery [^>]+ -->$/);
  return body.replace(/\n\n<!-- webhook-gateway:delivery [^>]+ -->$/, '');
}

describe('forge_comment with deliver_extra.mode: update, through the real gh', () => {
  it('keeps one comment per pull request, edited by each answer', async () => {
    const { payload, number } = nextPull();
    await answer(payload, 'first review');
    await answer(payload, 'second review');
    await answer(payload, 'third review');
    const comments = forge.api.comments('octo/repo', number);
    expect(comments.map((c) => text(c.body))).toEqual([`${marker}\nthird review`]);
  });

  it("leaves people's comments and other routes' alone, finding its own past the first page", async () => {
    const { payload, number } = nextPull();
    const comments = forge.api.comments('octo/repo', number);
    const person = { login: 'alice', type: 'User' as const };
    comments.push(
      { id: 1, body: 'a person', user: person },
      { id: 2, body: 'another person', user: person },
    );
    comments.push({ id: 3, body: `${commentMarker('other-route')}\nnot ours`, user: person });
    await answer(payload, 'first');
    await answer(payload, 'second');
    expect(comments.map((c) => (c.id <= 3 ? c.body : text(c.body)))).toEqual([
      'a person',
      'another person',
      `${commentMarker('other-route')}\nnot ours`,
      `${marker}\nsecond`,
    ]);
  });

  it('posts the comment again when someone deleted it', async () => {
    const { payload, number } = nextPull();
    await answer(payload, 'first');
    const [first] = forge.api.comments('octo/repo', number);
    forge.api.remove(first?.id ?? 0);
    await answer(payload, 'second');
    expect(forge.api.comments('octo/repo', number).map((c) => text(c.body))).toEqual([
      `${marker}\nsecond`,
    ]);
  });

  it('updates a split answer in place and deletes the parts a shorter answer no longer needs', async () => {
    const { payload, number } = nextPull();
    const long = `${'word '.repeat(14_000)}\n\n${'more '.repeat(14_000)}`;
    await answer(payload, long);
    const parts = forge.api.comments('octo/repo', number).map((c) => c.id);
    expect(parts.length).toBeGreaterThan(1);
    for (const comment of forge.api.comments('octo/repo', number)) {
      expect(comment.body.startsWith(`${marker}\n`)).toBe(true);
      expect(comment.body.length).toBeLessThanOrEqual(65_536);
    }
    await answer(payload, 'short now');
    const after = forge.api.comments('octo/repo', number);
    expect(after.map((c) => ({ id: c.id, body: text(c.body) }))).toEqual([
      { id: parts[0], body: `${marker}\nshort now` },
    ]);
  });

  it('posts a comment per answer, without the route marker, in the default mode (gh pr comment)', async () => {
    const { payload, number } = nextPull();
    for (const reply of ['first', 'second']) {
      await deliverForgeComment(deliverRequest({ payload, answer: reply }), forge.settings);
    }
    expect(forge.api.comments('octo/repo', number).map((c) => text(c.body))).toEqual([
      'first',
      'second',
    ]);
  });

  it('refuses an unknown mode for good, naming the key', async () => {
    const { payload } = nextPull();
    const failure: unknown = await deliverForgeComment(
      deliverRequest({ payload, answer: 'x', deliverExtra: { mode: 'sticky' } }),
      forge.settings,
    ).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(Error);
    expect((failure as Error).message).toContain('deliver_extra.mode is "sticky"');
    expect((failure as { retryable?: unknown }).retryable).toBe(false);
  });
});

describe('deliver_extra.mode in the config', () => {
  const routes = (mode: unknown, deliver = 'altforge_comment') =>
    parseConfig(
      {
        platforms: {
          webhook: { extra: { routes: { reviews: { deliver, deliver_extra: { mode } } } } },
        },
      },
      {},
    );

  it('is refused when the config is read, naming the key path', () => {
    expect(plugin.check?.(routes('sticky'))).toEqual([
      {
        path: 'platforms.webhook.extra.routes.reviews.deliver_extra.mode',
        message: 'altforge_comment: deliver_extra.mode is "sticky"; use "new" or "update"',
      },
    ]);
  });

  it('accepts new, update, a template, and leaves other targets alone', () => {
    for (const mode of ['new', 'update', '{mode}'])
      expect(plugin.check?.(routes(mode))).toEqual([]);
    expect(plugin.check?.(routes('sticky', 'log'))).toEqual([]);
  });
});
