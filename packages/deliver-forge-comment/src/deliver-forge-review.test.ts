import type { LineComment } from '@webhook-gateway/core';
import { describe, expect, it } from 'vitest';
import { deliverForgeReview } from './deliver-forge-review.js';
import { forgeSettingsSchema } from './settings.js';
import { useGhAgainstFakeForge } from './test-support/gh-against-fake-forge.js';
import { deliverRequest } from './test-support/requests.js';

// The real gh (/usr/bin/gh) against a GitHub-compatible fake over TLS on 127.0.0.1.
const forge = useGhAgainstFakeForge();

let pull = 200;
/** A pull request of its own for each test, whose diff shows lines 1–4 of src/a.ts. */
function nextPull(): { payload: Record<string, unknown>; number: number } {
  const number = ++pull;
  forge.api.setDiff('octo/repo', number, [
    {
      filename: 'src/a.ts',
      // Old lines 1–3; new: 1 kept, 2 and 3 added, 4 kept (old 2), old 3 deleted.
      patch:
        '@@ -1,3 +1,4 @@\n const a = 1;\n+const b = 2;\n+const c = 3;\n export { a };\n-// old',
      lines: [1, 2, 3, 4],
    },
    // Two more files: the list is paginated (two per page), so the third is on page 2.
    { filename: 'README.md', patch: '@@ -9,1 +9,2 @@\n # Title\n+More.', lines: [9, 10] },
    { filename: 'docs/b.md', patch: '@@ -0,0 +1,1 @@\n+New doc.', lines: [1] },
  ]);
  return {
    number,
    payload: {
      number,
      pull_request: { number, head: { sha: `sha-${number}` } },
      repository: { full_name: 'octo/repo' },
    },
  };
}

async function review(payload: Record<string, unknown>, lineComments: LineComment[]) {
  return deliverForgeReview(
    deliverRequest({ payload, answer: 'Two remarks.', lineComments, target: 'forge_review' }),
    forge.settings,
  );
}

/** A body without the loop guard's delivery marker at its end. */
function text(body: string): string {
  expect(body).toMatch(/\n\n<!-- webhook-gateway:delivery [^>]+ -->$/);
  return body.replace(/\n\n<!-- webhook-gateway:delivery [^>]+ -->$/, '');
}

describe('forge_review through the real gh', () => {
  it('posts one COMMENT review on the head commit with the comments on their lines', async () => {
    const { payload, number } = nextPull();
    const outcome = await review(payload, [
      { path: 'src/a.ts', line: 2, body: 'b is unused' },
      { path: 'docs/b.md', line: 1, body: 'say more' },
    ]);
    expect(outcome).toEqual({ onLines: 2, moved: 0, extraComments: 0 });
    const [posted, ...others] = forge.api.reviews('octo/repo', number);
    expect(others).toEqual([]);
    expect(posted).toMatchObject({ event: 'COMMENT', commit_id: `sha-${number}` });
    // Each comment carries the delivery marker too: the loop guard ignores it coming back.
    expect(posted?.comments.map((c) => ({ ...c, body: text(c.body) }))).toEqual([
      { path: 'src/a.ts', line: 2, side: 'RIGHT', body: 'b is unused' },
      { path: 'docs/b.md', line: 1, side: 'RIGHT', body: 'say more' },
    ]);
    expect(text(posted?.body ?? '')).toBe('Two remarks.');
    // Nothing else was asked: no diff listing, no issue comment.
    expect(forge.api.requests.filter((r) => r.includes(`/pulls/${number}/`))).toEqual([
      `POST /api/v3/repos/octo/repo/pulls/${number}/reviews`,
    ]);
  });

  it('moves a comment on a line outside the diff into the body after a 422, keeping the others on their lines', async () => {
    const { payload, number } = nextPull();
    const outcome = await review(payload, [
      { path: 'src/a.ts', line: 3, body: 'c is unused' },
      { path: 'src/a.ts', line: 40, body: 'this function is too long' },
      { path: 'docs/b.md', line: 1, body: 'say more' },
    ]);
    expect(outcome).toEqual({ onLines: 2, moved: 1, extraComments: 0 });
    const [posted, ...others] = forge.api.reviews('octo/repo', number);
    expect(others).toEqual([]);
    expect(posted?.comments.map((c) => `${c.path}:${c.line}`)).toEqual([
      'src/a.ts:3',
      'docs/b.md:1',
    ]);
    expect(text(posted?.body ?? '')).toBe(
      'Two remarks.\n\n**Comments on lines this diff does not show**\n\n' +
        '- `src/a.ts:40` — this function is too long',
    );
    expect(forge.api.requests.filter((r) => r.includes(`/pulls/${number}/`))).toEqual([
      `POST /api/v3/repos/octo/repo/pulls/${number}/reviews`,
      `GET /api/v3/repos/octo/repo/pulls/${number}/files`,
      `GET /api/v3/repos/octo/repo/pulls/${number}/files`,
      `POST /api/v3/repos/octo/repo/pulls/${number}/reviews`,
    ]);
  });

  it('posts a suggestion as a committable block over start_line..line, on the right side', async () => {
    const { payload, number } = nextPull();
    const outcome = await review(payload, [
      {
        path: 'src/a.ts',
        start_line: 2,
        line: 3,
        body: 'one declaration',
        suggestion: 'const [b, c] = [2, 3];',
      },
      { path: 'docs/b.md', line: 1, body: 'clearer', suggestion: 'A new document.\n' },
      { path: 'README.md', line: 10, body: 'drop it', suggestion: '' },
    ]);
    expect(outcome).toEqual({ onLines: 3, moved: 0, extraComments: 0 });
    const [posted] = forge.api.reviews('octo/repo', number);
    expect(posted?.comments.map((c) => ({ ...c, body: text(c.body) }))).toEqual([
      {
        path: 'src/a.ts',
        start_line: 2,
        start_side: 'RIGHT',
        line: 3,
        side: 'RIGHT',
        body: 'one declaration\n\n```suggestion\nconst [b, c] = [2, 3];\n```',
      },
      {
        path: 'docs/b.md',
        line: 1,
        side: 'RIGHT',
        body: 'clearer\n\n```suggestion\nA new document.\n```',
      },
      { path: 'README.md', line: 10, side: 'RIGHT', body: 'drop it\n\n```suggestion\n```' },
    ]);
  });

  it('posts a suggestion that overlaps another comment as text, on its lines', async () => {
    const { payload, number } = nextPull();
    await review(payload, [
      { path: 'src/a.ts', start_line: 1, line: 3, body: 'rewrite', suggestion: 'const a = 3;' },
      { path: 'src/a.ts', line: 2, body: 'b is unused' },
      { path: 'src/a.ts', line: 4, body: 'apart', suggestion: 'export { a, b };' },
    ]);
    const [posted] = forge.api.reviews('octo/repo', number);
    expect(posted?.comments.map((c) => text(c.body))).toEqual([
      'rewrite\n\nSuggested change:\n```\nconst a = 3;\n```',
      'b is unused',
      'apart\n\n```suggestion\nexport { a, b };\n```',
    ]);
    expect(posted?.comments[0]).toMatchObject({ start_line: 1, line: 3 });
  });

  it('moves a range whose first line the diff does not show into the body, its suggestion as text', async () => {
    const { payload, number } = nextPull();
    const outcome = await review(payload, [
      { path: 'README.md', start_line: 8, line: 10, body: 'heading', suggestion: '# Better' },
      { path: 'docs/b.md', line: 1, body: 'say more' },
    ]);
    expect(outcome).toEqual({ onLines: 1, moved: 1, extraComments: 0 });
    const [posted] = forge.api.reviews('octo/repo', number);
    expect(posted?.comments.map((c) => `${c.path}:${c.line}`)).toEqual(['docs/b.md:1']);
    expect(text(posted?.body ?? '')).toBe(
      'Two remarks.\n\n**Comments on lines this diff does not show**\n\n' +
        '- `README.md:8-10` — heading\n\n  Suggested change:\n  ```\n  # Better\n  ```\n',
    );
  });

  it('posts the review with every comment in its body when none of their lines is in the diff', async () => {
    const { payload, number } = nextPull();
    const outcome = await review(payload, [
      { path: 'src/gone.ts', line: 1, body: 'x' },
      { path: 'README.md', line: 1, body: 'y' },
    ]);
    expect(outcome).toEqual({ onLines: 0, moved: 2, extraComments: 0 });
    const [posted] = forge.api.reviews('octo/repo', number);
    expect(posted?.comments).toEqual([]);
    expect(text(posted?.body ?? '')).toContain('- `src/gone.ts:1` — x\n- `README.md:1` — y');
  });

  it('goes on in pull request comments when the summary is too long for one review body', async () => {
    const { payload, number } = nextPull();
    const summary = `${'a'.repeat(40_000)}\n\n${'b'.repeat(40_000)}`;
    const outcome = await deliverForgeReview(
      deliverRequest({ payload, answer: summary, target: 'forge_review' }),
      forge.settings,
    );
    expect(outcome).toEqual({ onLines: 0, moved: 0, extraComments: 1 });
    const [posted] = forge.api.reviews('octo/repo', number);
    const [rest, ...others] = forge.api.comments('octo/repo', number);
    expect(others).toEqual([]);
    expect(text(posted?.body ?? '')).toContain('a'.repeat(40_000));
    expect(text(rest?.body ?? '')).toContain('b'.repeat(40_000));
  });

  it('fails with a message naming the target and the pull request when the forge refuses the token', async () => {
    const { payload } = nextPull();
    const bad = forgeSettingsSchema.parse({ host: forge.api.host, token: 'not-the-token' });
    await expect(
      deliverForgeReview(deliverRequest({ payload, target: 'forge_review' }), bad),
    ).rejects.toThrow(/^forge_review: forge CLI "gh" is not authenticated/);
  });
});
