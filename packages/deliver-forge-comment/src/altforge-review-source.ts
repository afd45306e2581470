/**
 * The altforge's side of a review context, through `glab api`: the merge request (its
 * `diff_refs`, since the Merge Request Hook carries no base commit), its diffs page by page
 * (`…/merge_requests/<iid>/diffs`), the compare from the last reviewed head
 * (`…/repository/compare?from=&to=`), and files of the base commit
 * (`…/repository/files/<path>/raw?ref=<sha>`).
 */
import type { Credentials } from '@webhook-gateway/core';
import { fileFromPatch, type DiffFile } from '@webhook-gateway/review-kit';
import { z } from 'zod';
import { altforgeApiClient } from './forge-api.js';
import { parseJson, readApi, ReviewApiError } from './review-api.js';
import {
  COMMIT_SHA,
  shortSha,
  type DiffRead,
  type ReviewRequestFacts,
  type ReviewSource,
} from './review-source.js';
import type { AltforgeSettings } from './settings.js';

/** Diffs asked per page; the altforge gives at most 100. */
const PER_PAGE = 100;
/** Pages read at most (the altforge lists at most a few thousand files of a merge request). */
const MAX_PAGES = 100;

/** `GET projects/<path>/merge_requests/<iid>`: what the review needs of it. */
const mergeRequestSchema = z.object({
  title: z.string(),
  draft: z.boolean().nullish(),
  work_in_progress: z.boolean().nullish(),
  labels: z.array(z.string()).nullish(),
  author: z.object({ username: z.string() }).nullish(),
  diff_refs: z.object({
    base_sha: z.string().regex(COMMIT_SHA),
    head_sha: z.string().regex(COMMIT_SHA),
  }),
});

/** One file of `…/diffs` and of a compare's `diffs`: its hunks without the header. */
const diffItemSchema = z.object({
  old_path: z.string().min(1),
  new_path: z.string().min(1),
  diff: z.string().nullish(),
  new_file: z.boolean().nullish(),
  renamed_file: z.boolean().nullish(),
  deleted_file: z.boolean().nullish(),
  too_large: z.boolean().nullish(),
  collapsed: z.boolean().nullish(),
});

const compareSchema = z.object({ diffs: z.array(diffItemSchema) });

type DiffItem = z.infer<typeof diffItemSchema>;

function filesOfItems(items: readonly DiffItem[]): Pick<DiffRead, 'files' | 'withoutPatch'> {
  const files: DiffFile[] = [];
  const withoutPatch: DiffFile[] = [];
  for (const item of items) {
    const path = {
      path: item.new_path,
      ...(item.renamed_file === true ? { oldPath: item.old_path } : {}),
    };
    const change = { added: item.new_file === true, deleted: item.deleted_file === true };
    const text = item.diff ?? '';
    if ((item.too_large === true || item.collapsed === true) && text === '') {
      withoutPatch.push(fileFromPatch({ ...path, patch: '' }, change));
    } else if (text.startsWith('Binary files ')) {
      files.push(fileFromPatch({ ...path, patch: undefined }, { ...change, binary: true }));
    } else {
      // The hunks end with a newline; the file's section in a diff does not add another.
      files.push(fileFromPatch({ ...path, patch: text.replace(/\n$/, '') }, change));
    }
  }
  return { files, withoutPatch };
}

/**
 * The altforge's review source for merge request `iid` of the project at `path`.
 *
 * @example altforgeReviewSource({ path: 'group/project', iid: 1, headSha }, settings, credentials, signal)
 */
export function altforgeReviewSource(
  mergeRequest: { path: string; iid: number; headSha: string | undefined },
  settings: AltforgeSettings,
  credentials: Credentials,
  signal: AbortSignal,
): ReviewSource {
  const client = altforgeApiClient(settings, credentials);
  const glab = (endpoint: string) => readApi(client, [endpoint], signal);
  const project = `projects/${encodeURIComponent(mergeRequest.path)}`;
  const mergeRequestPath = `${project}/merge_requests/${mergeRequest.iid}`;

  const json = async (endpoint: string): Promise<unknown> =>
    parseJson(await glab(endpoint), `glab api ${endpoint}`);

  /** Every page of the merge request's diffs, until a short one. */
  const mergeRequestDiffs = async (): Promise<DiffItem[]> => {
    const items: DiffItem[] = [];
    for (let page = 1; page <= MAX_PAGES; page++) {
      const endpoint = `${mergeRequestPath}/diffs?page=${page}&per_page=${PER_PAGE}`;
      const answer = z.array(diffItemSchema).safeParse(await json(endpoint));
      if (!answer.success)
        throw new ReviewApiError(`glab api ${endpoint} answered an unexpected shape`, {});
      items.push(...answer.data);
      if (answer.data.length < PER_PAGE) break;
    }
    return items;
  };

  let asked: Promise<ReviewRequestFacts> | undefined;
  return {
    cacheKey: `altforge|${settings.host ?? 'gitlab.com'}|${mergeRequest.path}`,
    request() {
      asked ??= (async () => {
        const answer = mergeRequestSchema.safeParse(await json(mergeRequestPath));
        if (!answer.success) {
          throw new ReviewApiError(
            `glab api ${mergeRequestPath} answered no diff_refs (base_sha, head_sha) to read the base branch at`,
            {},
          );
        }
        const mr = answer.data;
        return {
          baseSha: mr.diff_refs.base_sha,
          headSha: mr.diff_refs.head_sha,
          facts: {
            draft: mr.draft === true || mr.work_in_progress === true,
            labels: mr.labels ?? [],
            author: mr.author?.username ?? '',
            title: mr.title,
          },
        };
      })();
      return asked;
    },
    async diff(since, request) {
      const whole = async (range: string): Promise<DiffRead> => {
        try {
          return { ...filesOfItems(await mergeRequestDiffs()), range };
        } catch (error) {
          if (!(error instanceof ReviewApiError) || error.unusable) throw error;
          return { files: [], withoutPatch: [], range, problem: error.message };
        }
      };
      if (!COMMIT_SHA.test(since)) return whole('the whole merge request');
      const head =
        mergeRequest.headSha !== undefined && COMMIT_SHA.test(mergeRequest.headSha)
          ? mergeRequest.headSha
          : (await request).headSha;
      const endpoint = `${project}/repository/compare?from=${since}&to=${head}`;
      const range = `changes since ${shortSha(since)} (the last reviewed head) to ${shortSha(head)}`;
      try {
        const answer = compareSchema.safeParse(await json(endpoint));
        if (!answer.success) throw new ReviewApiError(`glab api ${endpoint} answered no diffs`, {});
        return { ...filesOfItems(answer.data.diffs), range };
      } catch (error) {
        if (!(error instanceof ReviewApiError) || error.unusable) throw error;
        // The last reviewed head is gone (a force push): the whole merge request instead.
        if (error.notFound) {
          return whole(
            `the whole merge request (the last reviewed head ${shortSha(since)} is no longer known to the altforge)`,
          );
        }
        return { files: [], withoutPatch: [], range, problem: error.message };
      }
    },
    async file(sha, path) {
      try {
        return await glab(
          `${project}/repository/files/${encodeURIComponent(path)}/raw?ref=${encodeURIComponent(sha)}`,
        );
      } catch (error) {
        if (error instanceof ReviewApiError && error.notFound) return undefined;
        throw error;
      }
    },
  };
}
