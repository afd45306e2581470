import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_ANSWER_PLACEHOLDER } from './comment-bodies.js';
import { deliverAltforgeComment } from './deliver-altforge-comment.js';
import { altforgeSettingsSchema } from './settings.js';
import { createFakeCli, type FakeCli } from './test-support/fake-cli.js';
import { isolateEnv } from './test-support/env.js';
import { deliverRequest, fixture, type RequestOptions } from './test-support/requests.js';

const mergeRequestHook = fixture('altforge/merge_request_open.json');

let glab: FakeCli;
let restoreEnv: () => void;

beforeEach(() => {
  restoreEnv = isolateEnv();
  glab = createFakeCli('glab');
});

afterEach(() => {
  glab.cleanup();
  restoreEnv();
});

/** Delivers an altforge_comment request for the merge-request fixture to the fake glab. */
function deliver(options: Partial<RequestOptions> & { altforge?: Record<string, unknown> } = {}) {
  const { altforge, ...requestOptions } = options;
  return deliverAltforgeComment(
    deliverRequest({ payload: mergeRequestHook, target: 'altforge_comment', ...requestOptions }),
    altforgeSettingsSchema.parse({ cli: glab.path, ...altforge }),
  );
}

/** A posted body without the gateway's marker line (every body ends with one). */
const withoutMarker = (body: string): string =>
  body.replace(/\n\n<!-- webhook-gateway:[^>]*-->$/, '');

describe('altforge_comment through glab', () => {
  it("runs `glab mr note <iid> --repo <path>` with the answer on stdin, from the payload's fields", async () => {
    await deliver({ answer: 'Nice change.' });
    expect(glab.calls()).toEqual([
      {
        argv: ['mr', 'note', '1', '--repo', 'gitlabhq/gitlab-test'],
        stdin: expect.stringMatching(
          /^Nice change\.\n\n<!-- webhook-gateway:delivery \S+ -->$/,
        ) as unknown,
        env: {},
      },
    ]);
  });

  it("takes the route's deliver_extra repo and mr_iid", async () => {
    await deliver({
      deliverExtra: { repo: 'group/sub/project', mr_iid: '{object_attributes.iid}' },
    });
    expect(glab.calls()[0]?.argv).toEqual(['mr', 'note', '1', '--repo', 'group/sub/project']);
  });

  it('gives glab GITLAB_TOKEN and GITLAB_HOST from platforms.altforge', async () => {
    await deliver({ altforge: { token: 'glpat-configured', host: 'gitlab.example.com' } });
    expect(glab.calls()[0]?.env).toEqual({
      GITLAB_TOKEN: 'glpat-configured',
      GITLAB_HOST: 'gitlab.example.com',
    });
  });

  it('posts SKIP as it is, and a placeholder for an empty answer', async () => {
    await deliver({ answer: 'SKIP' });
    await deliver({ answer: '\n' });
    expect(glab.calls().map((call) => withoutMarker(call.stdin))).toEqual([
      'SKIP',
      EMPTY_ANSWER_PLACEHOLDER,
    ]);
  });

  it('splits an answer above 1,000,000 characters into numbered notes, in order', async () => {
    const answer = ['first', 'second']
      .map((word) => `${word} `.repeat(110_000).trim())
      .join('\n\n');
    expect(answer.length).toBeGreaterThan(1_000_000);
    await deliver({ answer });
    const bodies = glab.calls().map((call) => call.stdin);
    for (const body of bodies) expect(body).toMatch(/\n\n<!-- webhook-gateway:delivery \S+ -->$/);
    expect(bodies).toHaveLength(2);
    expect(bodies[0]?.startsWith('(1/2)\n\nfirst ')).toBe(true);
    expect(bodies[1]?.startsWith('(2/2)\n\nsecond ')).toBe(true);
    for (const body of bodies) expect(body.length).toBeLessThanOrEqual(1_000_000);
  });

  it('refuses an invalid project path without running glab', async () => {
    await expect(deliver({ deliverExtra: { repo: 'just-a-name' } })).rejects.toMatchObject({
      reason: 'invalid-target',
    });
    expect(glab.calls()).toEqual([]);
  });
});

describe('altforge_comment failures', () => {
  it('says glab is not on PATH', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-empty-path-'));
    process.env.PATH = empty;
    try {
      await expect(
        deliverAltforgeComment(
          deliverRequest({ payload: mergeRequestHook, target: 'altforge_comment' }),
          altforgeSettingsSchema.parse({}),
        ),
      ).rejects.toThrow(
        'altforge_comment: altforge CLI "glab" not found on PATH; install it or set platforms.altforge.cli',
      );
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('says to run glab auth login when the token is refused', async () => {
    glab.behave({
      mode: 'fail',
      exitCode: 1,
      stderr:
        'ERROR: GET https://gitlab.com/api/v4/projects/gitlabhq%2Fgitlab-test/merge_requests/1: 401 {message: 401 Unauthorized}\n',
    });
    const error = await deliver({ altforge: { token: 'glpat-bad' } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'not-authenticated' });
    expect((error as Error).message).toMatch(
      /auth login" on the gateway's machine or set platforms\.altforge\.token/,
    );
    expect((error as Error).message).not.toContain('glpat-bad');
  });

  it("keeps glab's words when the project does not exist", async () => {
    glab.behave({ mode: 'fail', exitCode: 1, stderr: 'ERROR: 404 Project Not Found\n' });
    await expect(deliver()).rejects.toMatchObject({
      reason: 'not-found',
      message: expect.stringContaining(
        'merge request !1 of gitlabhq/gitlab-test was not found on gitlab.com',
      ) as unknown,
    });
  });

  it('stops a hanging glab after platforms.altforge.timeout_s and says so', async () => {
    glab.behave({ mode: 'hang' });
    await expect(deliver({ altforge: { timeout_s: 0.5 } })).rejects.toThrow(
      /timed out after 0\.5 s; raise platforms\.altforge\.timeout_s/,
    );
  });
});
