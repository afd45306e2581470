/**
 * The forge plugins' answer to `reviewContext`: a pull or merge request's review context, read
 * through `gh` (forge) or `glab` (altforge). Everything the template needs is fetched at once and
 * nothing it does not name; the repository's rules come from the base commit only, so a pull
 * request cannot change the rules it is reviewed under.
 */
import {
  lookupPath,
  pullRequestOf,
  type ReviewContext,
  type ReviewContextRequest,
  type ReviewChunk,
  type ReviewValue,
} from '@webhook-gateway/core';
import {
  capGuidance,
  instructionsFor,
  markedPaths,
  pruneDiff,
  renderDiff,
  readRepoRules,
  reviewFooter,
  skipReason,
  type DiffFile,
  type RepoRules,
} from '@webhook-gateway/review-kit';
import { isAltforgeProjectPath } from './altforge-target.js';
import { altforgeReviewSource } from './altforge-review-source.js';
import type { BaseFiles } from './base-files.js';
import { isForgeRepoName } from './forge-target.js';
import { forgeReviewSource } from './forge-review-source.js';
import { shortSha, type DiffRead, type ReviewSource } from './review-source.js';
import { diffStatsText, NONE, skippedFilesText } from './review-text.js';
import type { AltforgeSettings, ForgeSettings } from './settings.js';

/** Values that need the diff (`instructions`: the path instructions of the changed files). */
const NEEDS_DIFF: readonly ReviewValue[] = ['diff', 'diff_stats', 'skipped_files', 'instructions'];

/** A failed read as a settled value, so a read nobody awaits (a skipped request) never rejects unheard. */
type Settled<T> = { ok: true; value: T } | { ok: false; error: Error };

function settle<T>(promise: Promise<T>): Promise<Settled<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({
      ok: false as const,
      error: error instanceof Error ? error : new Error(String(error)),
    }),
  );
}

function unwrap<T>(settled: Settled<T>): T {
  if (!settled.ok) throw settled.error;
  return settled.value;
}

/** Which forge the delivery came from: the scheme that verified it, else the payload's shape. */
function platformOf(request: ReviewContextRequest): 'forge' | 'altforge' | undefined {
  const { authScheme, payload } = request.delivery;
  if (authScheme === 'forge' || authScheme === 'altforge') return authScheme;
  if (authScheme !== undefined) return undefined;
  if (pullRequestOf(payload, 'altforge')) return 'altforge';
  return pullRequestOf(payload, 'forge') ? 'forge' : undefined;
}

/** A payload whose repository cannot go into an API path: no retry makes it one. */
function invalidPayload(message: string): Error {
  return Object.assign(new Error(`review context: ${message}`), { retryable: false });
}

/** The review source for the delivery's forge, or undefined when this plugin does not know it. */
function sourceOf(
  request: ReviewContextRequest,
  settings: { forge: ForgeSettings; altforge: AltforgeSettings },
): ReviewSource | undefined {
  const platform = platformOf(request);
  if (!platform) return undefined;
  const { payload } = request.delivery;
  const pullRequest = pullRequestOf(payload, platform);
  if (!pullRequest) return undefined;
  if (platform === 'forge') {
    if (!isForgeRepoName(pullRequest.repo)) {
      throw invalidPayload(`repository.full_name "${pullRequest.repo}" is not an owner/repo name`);
    }
    return forgeReviewSource(
      { repo: pullRequest.repo, number: pullRequest.number, payload },
      settings.forge,
      request.credentials,
      request.signal,
    );
  }
  if (!isAltforgeProjectPath(pullRequest.repo)) {
    throw invalidPayload(`project.path_with_namespace "${pullRequest.repo}" is not a project path`);
  }
  const head = lookupPath(payload, 'object_attributes.last_commit.id');
  return altforgeReviewSource(
    {
      path: pullRequest.repo,
      iid: pullRequest.number,
      headSha: pullRequest.headSha ?? (typeof head === 'string' ? head : undefined),
    },
    settings.altforge,
    request.credentials,
    request.signal,
  );
}

/** Every path the diff touches, old names of renamed files too. */
function changedPaths(files: readonly DiffFile[]): string[] {
  return files.flatMap((file) => (file.oldPath ? [file.path, file.oldPath] : [file.path]));
}

/** The diff as a template reads it, never empty without saying why. */
function diffValue(read: DiffRead, text: string): string {
  if (read.problem !== undefined) return `(the diff could not be read: ${read.problem})`;
  if (read.files.length + read.withoutPatch.length === 0) return '(this diff changes no files)';
  if (text === '') return '(every changed file was left out of this diff: see the skipped files)';
  return text;
}

/**
 * The review context of `request`'s pull or merge request, or undefined when its sender is not
 * the forge or the altforge. Throws (the attempt is retried) when the forge cannot be asked at
 * all: no CLI, no credentials, the request's own facts unreadable.
 *
 * @example await prepareReviewContext(request, { forge, altforge }, baseFiles)
 */
export async function prepareReviewContext(
  request: ReviewContextRequest,
  settings: { forge: ForgeSettings; altforge: AltforgeSettings },
  baseFiles: BaseFiles,
): Promise<ReviewContext | undefined> {
  const source = sourceOf(request, settings);
  return source ? reviewContextFrom(source, request, baseFiles) : undefined;
}

/**
 * The review context read from `source`, whichever forge it speaks to: the plugins of other
 * forges (Bitbucket, Gitea) bring their own `ReviewSource` and get the same pruning, rules and
 * guidance. Throws when the request's facts cannot be read.
 *
 * @example await reviewContextFrom(bitbucketReviewSource(…), request, baseFiles)
 */
export async function reviewContextFrom(
  source: ReviewSource,
  request: ReviewContextRequest,
  baseFiles: BaseFiles,
): Promise<ReviewContext> {
  const { review, wanted, log } = request;
  const needsDiff = NEEDS_DIFF.some((value) => wanted.has(value));

  // Every read starts now; each awaits only what it needs (the base commit, the head).
  const facts = settle(source.request());
  const baseFile = (path: string): Promise<string | undefined> =>
    source
      .request()
      .then(({ baseSha }) =>
        baseFiles.get(source.cacheKey, baseSha, path, () => source.file(baseSha, path)),
      );
  const rulesFile = settle(baseFile(review.repo_config));
  const attributes = needsDiff ? settle(baseFile('.gitattributes')) : undefined;
  const diff = needsDiff ? settle(source.diff(request.since, source.request())) : undefined;
  const guidance = wanted.has('guidance')
    ? review.guidance_files.map((path) => ({ path, text: settle(baseFile(path)) }))
    : [];

  const pull = unwrap(await facts);
  const rulesText = await rulesFile;
  const rules: RepoRules = rulesText.ok
    ? readRepoRules(rulesText.value)
    : { ...readRepoRules(undefined), problem: `could not be read: ${rulesText.error.message}` };
  const skip = skipReason(rules.config, pull.facts);
  if (skip !== undefined) {
    log.info({ skip, rules_file: review.repo_config }, "the repository's rules skip this request");
    return { values: {}, skip };
  }

  const values: Partial<Record<ReviewValue, string>> = {};
  let footerSkipped: Parameters<typeof reviewFooter>[0]['skipped'] = [];
  let diffProblem: string | undefined;
  let chunks: ReviewChunk[] | undefined;
  // For the run details (`deliver_extra.details`): what the diff covered, and what it left out.
  let covered: { range: string; skippedFiles: string[] } | undefined;
  if (diff && attributes) {
    const read = unwrap(await diff);
    const gitattributes = await attributes;
    if (!gitattributes.ok) {
      log.warn(
        { error: gitattributes.error.message },
        '.gitattributes of the base could not be read',
      );
    }
    const marked = markedPaths(gitattributes.ok ? gitattributes.value : undefined);
    const ignore = [...review.ignore, ...rules.config.paths.ignore];
    // With `review.chunks`, a diff over one call's budget is kept in up to that many calls.
    const pruned = pruneDiff(read.files, {
      maxTokens: review.max_diff_tokens,
      chunks: review.chunks,
      ignore,
      marked,
    });
    // No budget holds a file the forge would not show: each is listed, with why.
    const unshown = pruneDiff(read.withoutPatch, { maxTokens: 1, ignore, marked }).skipped;
    const skipped = [...pruned.skipped, ...unshown];
    const stats = {
      ...pruned.stats,
      files: pruned.stats.files + read.withoutPatch.length,
      skippedFiles: skipped.length,
    };
    diffProblem = read.problem;
    covered = {
      // An incremental diff names its own range (since the last reviewed head).
      range: request.since
        ? read.range
        : `${shortSha(pull.baseSha)}..${shortSha(pull.headSha)} (${read.range})`,
      skippedFiles: skipped.map((file) => file.path),
    };
    if (wanted.has('diff')) {
      values.diff = diffValue(read, pruned.text);
      footerSkipped = skipped;
      if (pruned.chunks.length > 1) {
        chunks = pruned.chunks.map((files) => ({
          files: files.map((file) => file.path),
          diff: renderDiff(files),
        }));
      }
    }
    if (wanted.has('diff_stats')) {
      values.diff_stats =
        read.problem === undefined
          ? diffStatsText(read.range, stats, skipped, review.max_diff_tokens)
          : `Diff: ${read.range}\nThe diff could not be read: ${read.problem}`;
    }
    if (wanted.has('skipped_files')) values.skipped_files = skippedFilesText(skipped);
    if (wanted.has('instructions')) {
      const paths = changedPaths([...read.files, ...read.withoutPatch]);
      values.instructions = instructionsFor(rules.config, paths) || NONE;
    }
    log.info(
      {
        range: read.range,
        files: stats.files,
        kept: stats.keptFiles,
        skipped: skipped.length,
        tokens: stats.tokens,
        ...(read.problem === undefined ? {} : { diff_problem: read.problem }),
      },
      'prepared the review diff',
    );
  }
  if (wanted.has('guidance')) {
    const files: { path: string; text: string }[] = [];
    for (const { path, text } of guidance) {
      const read = await text;
      if (read.ok && read.value !== undefined && read.value.trim() !== '') {
        files.push({ path, text: read.value });
      } else if (!read.ok) {
        log.warn({ path, error: read.error.message }, 'a guidance file could not be read');
      }
    }
    values.guidance =
      files.length === 0 ? NONE : capGuidance(files, review.max_guidance_tokens).text;
  }

  const footer = reviewFooter({
    skipped: footerSkipped,
    refused: rules.refused,
    configProblem: rules.problem,
    configFile: review.repo_config,
    diffProblem: wanted.has('diff') ? diffProblem : undefined,
  });
  return {
    values,
    ...(chunks ? { chunks } : {}),
    ...(footer === '' ? {} : { footer }),
    ...(covered ?? {}),
  };
}
