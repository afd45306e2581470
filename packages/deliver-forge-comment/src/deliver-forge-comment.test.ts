import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { EMPTY_ANSWER_PLACEHOLDER } from './comment-bodies.js';
import { deliverForgeComment } from './deliver-forge-comment.js';
import { forgeSettingsSchema } from './settings.js';
import { createFakeCli, GH_STDERR, type FakeCli } from './test-support/fake-cli.js';
import { isolateEnv } from './test-support/env.js';
import { deliverRequest, fixture, type RequestOptions } from './test-support/requests.js';

const pullRequestOpened = fixture('forge/pull_request_opened.json');
const fromPayload = { repo: '{repository.full_name}', pr_number: '{number}' };

let gh: FakeCli;
let restoreEnv: () => void;

beforeEach(() => {
  restoreEnv = isolateEnv();
  gh = createFakeCli('gh');
});

afterEach(() => {
  gh.cleanup();
  restoreEnv();
});

/** Delivers a forge_comment request for the opened-PR fixture to the fake gh. */
function deliver(options: Partial<RequestOptions> & { forge?: Record<string, unknown> } = {}) {
  const { forge, ...requestOptions } = options;
  return deliverForgeComment(
    deliverRequest({ payload: pullRequestOpened, deliverExtra: fromPayload, ...requestOptions }),
    forgeSettingsSchema.parse({ cli: gh.path, ...forge }),
  );
}

/** A posted body without the gateway's marker line (every body ends with one). */
const withoutMarker = (body: string): string =>
  body.replace(/\n\n<!-- webhook-gateway:[^>]*-->$/, '');

describe('forge_comment through gh', () => {
  it('runs `gh pr comment <n> --repo <owner/repo> --body-file -` with the answer on stdin', async () => {
    await deliver({ answer: 'Looks good to me.\n' });
    expect(gh.calls()).toEqual([
      {
        argv: ['pr', 'comment', '2', '--repo', 'Codertocat/Hello-World', '--body-file', '-'],
        stdin: expect.stringMatching(
          /^Looks good to me\.\n\n\n<!-- webhook-gateway:delivery \S+ -->$/,
        ) as unknown,
        env: {},
      },
    ]);
  });

  it("defaults to the payload's repository and number when the route sets no deliver_extra", async () => {
    await deliver({ deliverExtra: {} });
    expect(gh.calls()[0]?.argv).toEqual([
      'pr',
      'comment',
      '2',
      '--repo',
      'Codertocat/Hello-World',
      '--body-file',
      '-',
    ]);
  });

  it('gives gh the configured token and host', async () => {
    await deliver({ forge: { token: 'ghp_configured', host: 'github.com' } });
    expect(gh.calls()[0]?.env).toEqual({ GH_TOKEN: 'ghp_configured', GH_HOST: 'github.com' });
  });

  it('gives gh GH_ENTERPRISE_TOKEN too for an enterprise host', async () => {
    await deliver({ forge: { token: 'ghp_ent', host: 'ghe.example.com' } });
    expect(gh.calls()[0]?.env).toEqual({
      GH_TOKEN: 'ghp_ent',
      GH_ENTERPRISE_TOKEN: 'ghp_ent',
      GH_HOST: 'ghe.example.com',
    });
  });

  it('finds `gh` on PATH when platforms.forge.cli is left at its default', async () => {
    process.env.PATH = `${gh.dir}${path.delimiter}${process.env.PATH ?? ''}`;
    await deliverForgeComment(
      deliverRequest({ payload: pullRequestOpened, deliverExtra: fromPayload }),
      forgeSettingsSchema.parse({}),
    );
    expect(gh.calls()).toHaveLength(1);
  });

  it('posts SKIP as it is, and a placeholder for an empty answer', async () => {
    await deliver({ answer: 'SKIP' });
    await deliver({ answer: '' });
    expect(gh.calls().map((call) => withoutMarker(call.stdin))).toEqual([
      'SKIP',
      EMPTY_ANSWER_PLACEHOLDER,
    ]);
  });

  it('posts a long answer as several numbered comments, in order', async () => {
    const paragraph = (n: number) => `Paragraph ${n}: ${'lorem ipsum '.repeat(2500).trim()}`;
    const answer = [1, 2, 3, 4, 5, 6].map(paragraph).join('\n\n');
    expect(answer.length).toBeGreaterThan(2 * 65_536);
    await deliver({ answer });
    const bodies = gh.calls().map((call) => call.stdin);
    for (const body of bodies) expect(body).toMatch(/\n\n<!-- webhook-gateway:delivery \S+ -->$/);
    expect(bodies).toHaveLength(3);
    bodies.forEach((body, i) => {
      expect(body.length).toBeLessThanOrEqual(65_536);
      expect(body.startsWith(`(${i + 1}/3)\n\nParagraph ${2 * i + 1}: `)).toBe(true);
    });
    for (const call of gh.calls()) expect(call.argv.slice(0, 3)).toEqual(['pr', 'comment', '2']);
  });

  it('says how many parts were posted when a later part fails', async () => {
    gh.behave({ mode: 'fail', exitCode: 1, stderr: 'HTTP 502: Bad Gateway\n', onCall: 2 });
    const answer = ['a', 'b', 'c'].map((c) => c.repeat(60_000)).join('\n\n');
    await expect(deliver({ answer })).rejects.toMatchObject({
      reason: 'cli-failed',
      message: expect.stringContaining('(comment 2 of 3; 1 already posted)') as unknown,
    });
    expect(gh.calls()).toHaveLength(2);
  });
});

describe('forge_comment validation', () => {
  it('refuses a repo that is not owner/repo without running gh', async () => {
    await expect(
      deliver({ deliverExtra: { repo: 'not a repo', pr_number: '2' } }),
    ).rejects.toMatchObject({
      reason: 'invalid-target',
      message: expect.stringContaining(
        'deliver_extra.repo "not a repo" is not an "owner/repo" name',
      ) as unknown,
    });
    expect(gh.calls()).toEqual([]);
  });

  it('refuses an unrendered {number}, saying the payload has no such field', async () => {
    const issue = fixture('forge/issues_opened.json');
    await expect(deliver({ payload: issue, deliverExtra: fromPayload })).rejects.toThrow(
      'forge_comment: deliver_extra.pr_number is "{number}", but the payload has no field "number"',
    );
    expect(gh.calls()).toEqual([]);
  });
});

describe('forge_comment failures', () => {
  it('says gh is not on PATH', async () => {
    const empty = fs.mkdtempSync(path.join(os.tmpdir(), 'wg-empty-path-'));
    process.env.PATH = empty;
    try {
      await expect(
        deliverForgeComment(
          deliverRequest({ payload: pullRequestOpened }),
          forgeSettingsSchema.parse({}),
        ),
      ).rejects.toMatchObject({
        reason: 'cli-not-installed',
        message:
          'forge_comment: forge CLI "gh" not found on PATH; install it or set platforms.forge.cli',
      });
    } finally {
      fs.rmSync(empty, { recursive: true, force: true });
    }
  });

  it('says a configured path does not exist', async () => {
    const missing = path.join(gh.dir, 'no-such-gh');
    await expect(deliver({ forge: { cli: missing } })).rejects.toThrow(
      `forge CLI "${missing}" not found; install it or set platforms.forge.cli`,
    );
  });

  it('says to run gh auth login when gh has no credentials', async () => {
    gh.behave({ mode: 'fail', exitCode: 4, stderr: GH_STDERR.notLoggedIn });
    const error = await deliver().catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'not-authenticated' });
    expect((error as Error).message).toMatch(
      /^forge_comment: forge CLI ".*gh" is not authenticated to github.com: run ".*gh auth login" on the gateway's machine or set platforms.forge.token: To get started with GitHub CLI/,
    );
  });

  it('says the token was refused, without ever showing it', async () => {
    gh.behave({
      mode: 'fail',
      exitCode: 1,
      stderr: `${GH_STDERR.badCredentials}debug: used token ghp_refused\n`,
    });
    const error = await deliver({ forge: { token: 'ghp_refused' } }).catch((e: unknown) => e);
    expect(error).toMatchObject({ reason: 'not-authenticated' });
    expect((error as Error).message).toContain('HTTP 401: Bad credentials');
    expect((error as Error).message).not.toContain('ghp_refused');
    expect(gh.calls()[0]?.env.GH_TOKEN).toBe('ghp_refused');
  });

  it("keeps gh's words when the repository does not exist", async () => {
    gh.behave({ mode: 'fail', exitCode: 1, stderr: GH_STDERR.repoNotFound });
    await expect(deliver({ deliverExtra: { repo: 'o/r', pr_number: '2' } })).rejects.toMatchObject({
      reason: 'not-found',
      message: expect.stringContaining(
        "pull request #2 of o/r was not found on github.com (check the route's deliver_extra, and that the token can see the repository): GraphQL: Could not resolve to a Repository with the name 'o/r'. (repository)",
      ) as unknown,
    });
  });

  it("keeps gh's words when the pull request does not exist", async () => {
    gh.behave({ mode: 'fail', exitCode: 1, stderr: GH_STDERR.prNotFound });
    await expect(
      deliver({ deliverExtra: { repo: 'o/r', pr_number: '9999' } }),
    ).rejects.toMatchObject({
      reason: 'not-found',
      message: expect.stringContaining(
        'GraphQL: Could not resolve to a PullRequest with the number of 9999. (repository.pullRequest)',
      ) as unknown,
    });
  });

  it('stops a hanging gh after platforms.forge.timeout_s and says so', async () => {
    gh.behave({ mode: 'hang' });
    const started = Date.now();
    await expect(deliver({ forge: { timeout_s: 0.5 } })).rejects.toMatchObject({
      reason: 'timeout',
      message: expect.stringMatching(
        /timed out after 0\.5 s; raise platforms\.forge\.timeout_s/,
      ) as unknown,
    });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('stops gh when the delivery is aborted', async () => {
    gh.behave({ mode: 'hang' });
    const abort = new AbortController();
    const delivering = deliver({ signal: abort.signal });
    setTimeout(() => abort.abort(new Error('gateway stopping')), 300);
    await expect(delivering).rejects.toMatchObject({ reason: 'canceled' });
  });

  it('gives the exit code and stderr of any other failure', async () => {
    gh.behave({ mode: 'fail', exitCode: 2, stderr: 'unknown flag: --body-file\n' });
    await expect(deliver()).rejects.toThrow(
      /gh pr comment for pull request #2 of Codertocat\/Hello-World exited with code 2: unknown flag: --body-file$/,
    );
  });
});
