/**
 * The forge's side of a review context, through `gh api`: the pull request's diff
 * (`repos/{o}/{r}/pulls/{n}` with the diff media type), the compare from the last reviewed head
 * (`repos/{o}/{r}/compare/{since}...{head}`), the files endpoint when the forge refuses a diff as
 * too large, and files of the base commit (`repos/{o}/{r}/contents/{path}?ref={sha}`, raw).
 */
import type { Credentials, JsonObject } from '@webhook-gateway/core';
import { fileFromPatch, splitDiff, type DiffFile } from '@webhook-gateway/review-kit';
import { z } from 'zod';
import { forgeHostOf } from './forge-cli.js';
import { forgeApiClient, type ApiClient } from './forge-api.js';
import { parseJson, readApi, ReviewApiError } from './review-api.js';
import {
  COMMIT_SHA,
  shortSha,
  type DiffRead,
  type ReviewRequestFacts,
  type ReviewSource,
} from './review-source.js';
import type { ForgeSettings } from './settings.js';

const DIFF_MEDIA_TYPE = 'Accept: application/vnd.github.diff';
const RAW_MEDIA_TYPE = 'Accept: application/vnd.github.raw';

/** A pull request as the webhook payload and `GET repos/{o}/{r}/pulls/{n}` give it. */
const pullSchema = z.object({
  title: z.string(),
  draft: z.boolean().nullish(),
  user: z.object({ login: z.string() }).nullish(),
  labels: z.array(z.object({ name: z.string() })).nullish(),
  base: z.object({ sha: z.string().regex(COMMIT_SHA) }),
  head: z.object({ sha: z.string().regex(COMMIT_SHA) }),
});

/** One changed file of the files endpoint (`--jq '.[] | {…}'`: one JSON object a line). */
const changedFileSchema = z.object({
  filename: z.string().min(1),
  status: z.string(),
  previous_filename: z.string().nullish(),
  patch: z.string().nullish(),
  changes: z.number().nullish(),
});

const CHANGED_FILE_JQ = '{filename, status, previous_filename, patch, changes}';

/** A files endpoint and how to read it. */
interface Listing {
  endpoint: string;
  jq: string;
  paginate: boolean;
}

function factsOf(pull: z.infer<typeof pullSchema>): ReviewRequestFacts {
  return {
    baseSha: pull.base.sha,
    headSha: pull.head.sha,
    facts: {
      draft: pull.draft === true,
      labels: (pull.labels ?? []).map((label) => label.name),
      author: pull.user?.login ?? '',
      title: pull.title,
    },
  };
}

/** The files endpoint's lines as diff files; those without a patch though they changed text apart. */
function filesOfListing(text: string): Pick<DiffRead, 'files' | 'withoutPatch'> {
  const files: DiffFile[] = [];
  const withoutPatch: DiffFile[] = [];
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    const file = changedFileSchema.parse(JSON.parse(line));
    const change = { added: file.status === 'added', deleted: file.status === 'removed' };
    const path = {
      path: file.filename,
      ...(file.previous_filename ? { oldPath: file.previous_filename } : {}),
    };
    // The forge leaves `patch` out for binaries (no changed lines) and for diffs too large to show.
    if (file.patch == null && (file.changes ?? 0) > 0) {
      withoutPatch.push(fileFromPatch({ ...path, patch: '' }, change));
    } else files.push(fileFromPatch({ ...path, patch: file.patch ?? undefined }, change));
  }
  return { files, withoutPatch };
}

/** `a/b/c d.md` → `a/b/c%20d.md`: each segment encoded, the slashes kept. */
function encodePath(path: string): string {
  return path.split('/').map(encodeURIComponent).join('/');
}

/**
 * The forge's review source for a delivery of `repo`'s pull request `number`.
 *
 * @example forgeReviewSource({ repo: 'octo/hello', number: 2, payload }, settings, credentials, signal)
 */
export function forgeReviewSource(
  pullRequest: { repo: string; number: number; payload: JsonObject },
  settings: ForgeSettings,
  credentials: Credentials,
  signal: AbortSignal,
): ReviewSource {
  const { repo, number, payload } = pullRequest;
  const client: ApiClient = forgeApiClient(settings, credentials);
  const gh = (args: readonly string[]) => readApi(client, args, signal);
  const pullPath = `repos/${repo}/pulls/${number}`;

  /** The files endpoint's listing (every page of it when `paginate`). */
  const fileList = async (listing: Listing): Promise<Pick<DiffRead, 'files' | 'withoutPatch'>> =>
    filesOfListing(
      await gh([...(listing.paginate ? ['--paginate'] : []), listing.endpoint, '--jq', listing.jq]),
    );

  /** The diff of `endpoint` with the diff media type, else (refused as too large) its file list. */
  const diffOrFiles = async (
    endpoint: string,
    listing: Listing,
    range: string,
  ): Promise<DiffRead> => {
    try {
      return {
        files: splitDiff(await gh([endpoint, '-H', DIFF_MEDIA_TYPE])),
        withoutPatch: [],
        range,
      };
    } catch (error) {
      if (!(error instanceof ReviewApiError) || !(error.tooLarge || error.timedOut)) throw error;
      try {
        return { ...(await fileList(listing)), range };
      } catch (fallback) {
        if (fallback instanceof ReviewApiError && fallback.unusable) throw fallback;
        return {
          files: [],
          withoutPatch: [],
          range,
          problem: `${error.message}; and its files: ${(fallback as Error).message}`,
        };
      }
    }
  };

  const PULL_FILES: Listing = {
    endpoint: `${pullPath}/files`,
    jq: `.[] | ${CHANGED_FILE_JQ}`,
    paginate: true,
  };
  let asked: Promise<ReviewRequestFacts> | undefined;
  return {
    cacheKey: `forge|${forgeHostOf(settings) ?? 'github.com'}|${repo}`,
    request() {
      asked ??= (async () => {
        const fromPayload = pullSchema.safeParse(payload.pull_request);
        if (fromPayload.success) return factsOf(fromPayload.data);
        // A comment on the pull request: its payload carries the issue, not the pull request.
        const answer = pullSchema.safeParse(parseJson(await gh([pullPath]), `gh api ${pullPath}`));
        if (!answer.success) {
          throw new ReviewApiError(`gh api ${pullPath} answered no base and head commits`, {});
        }
        return factsOf(answer.data);
      })();
      return asked;
    },
    async diff(since, request) {
      if (COMMIT_SHA.test(since)) {
        const { headSha } = await request;
        const compare = `repos/${repo}/compare/${since}...${headSha}`;
        try {
          return await diffOrFiles(
            compare,
            // The compare lists its files on its first page only.
            { endpoint: compare, jq: `.files[] | ${CHANGED_FILE_JQ}`, paginate: false },
            `changes since ${shortSha(since)} (the last reviewed head) to ${shortSha(headSha)}`,
          );
        } catch (error) {
          // The last reviewed head is gone (a force push): the whole pull request instead.
          if (!(error instanceof ReviewApiError) || !error.notFound) throw error;
          return diffOrFiles(
            pullPath,
            PULL_FILES,
            `the whole pull request (the last reviewed head ${shortSha(since)} is no longer known to the forge)`,
          );
        }
      }
      return diffOrFiles(pullPath, PULL_FILES, 'the whole pull request');
    },
    async file(sha, path) {
      try {
        return await gh([
          `repos/${repo}/contents/${encodePath(path)}?ref=${encodeURIComponent(sha)}`,
          '-H',
          RAW_MEDIA_TYPE,
        ]);
      } catch (error) {
        if (error instanceof ReviewApiError && error.notFound) return undefined;
        throw error;
      }
    },
  };
}
