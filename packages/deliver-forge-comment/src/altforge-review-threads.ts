/**
 * The altforge's discussions of a merge request as finding threads, through `glab api`: the
 * gateway's own discussions (first note written by the token's account, `GET /user`) with the
 * fingerprint each carries, whether a person resolved it, replied `/dismiss` or gave its first
 * note a 👎 (`thumbsdown` award emoji); and the resolution of a fixed finding's discussion
 * (`PUT …/discussions/:id?resolved=true`). Also the head's lines of the commented files.
 */
import { findingMarkersIn } from '@webhook-gateway/core';
import { z } from 'zod';
import { cliApiError, runCliApi, type CliApiContext } from './cli-api.js';
import { isDismissal, type FindingThread } from './review-findings.js';

const userSchema = z.object({ username: z.string().min(1) });
const discussionsSchema = z.array(
  z.object({
    id: z.string(),
    notes: z.array(
      z.object({
        id: z.number(),
        body: z.string(),
        author: z.object({ username: z.string() }),
        resolved: z.boolean().optional(),
      }),
    ),
  }),
);
const awardsSchema = z.array(z.object({ name: z.string() }));

/** `<cli> api <args…>` parsed with `schema`; throws a `CommentDeliveryError` when glab fails. */
async function apiJson<T>(glab: CliApiContext, args: string[], schema: z.ZodType<T>): Promise<T> {
  const outcome = await runCliApi(glab, args);
  if (outcome.kind !== 'ok') throw cliApiError(glab, outcome, ` (glab api ${args.join(' ')})`);
  return schema.parse(JSON.parse(outcome.stdout));
}

/**
 * The gateway's own discussions on the merge request (`mrPath`: its API path) by fingerprint,
 * only for fingerprints in `trusted` (the journal's for this request).
 */
export async function readAltforgeThreads(
  glab: CliApiContext,
  mrPath: string,
  trusted: ReadonlySet<string>,
): Promise<Map<string, FindingThread>> {
  const own = (await apiJson(glab, ['user'], userSchema)).username;
  // One page of 100 discussions: a merge request with more keeps its older findings open.
  const discussions = await apiJson(
    glab,
    [`${mrPath}/discussions?per_page=100`],
    discussionsSchema,
  );
  const threads = new Map<string, FindingThread>();
  for (const discussion of discussions) {
    const [first, ...replies] = discussion.notes;
    if (!first || first.author.username !== own) continue;
    const fingerprint = findingMarkersIn(first.body).find((found) => trusted.has(found));
    if (fingerprint === undefined) continue;
    const resolved = first.resolved ?? false;
    let dismissed = replies.some(
      (reply) => reply.author.username !== own && isDismissal(reply.body),
    );
    if (!dismissed && !resolved) {
      const awards = await apiJson(glab, [`${mrPath}/notes/${first.id}/award_emoji`], awardsSchema);
      dismissed = awards.some((award) => award.name === 'thumbsdown');
    }
    threads.set(fingerprint, { threadId: discussion.id, resolved, dismissed });
  }
  return threads;
}

/** Resolves one discussion; throws a `CommentDeliveryError` when glab fails. */
export async function resolveAltforgeThread(
  glab: CliApiContext,
  mrPath: string,
  discussionId: string,
): Promise<void> {
  const args = ['--method', 'PUT', `${mrPath}/discussions/${discussionId}?resolved=true`];
  const outcome = await runCliApi(glab, args);
  if (outcome.kind !== 'ok') {
    throw cliApiError(glab, outcome, ` (resolving discussion ${discussionId})`);
  }
}

/**
 * The text of each line of `paths` at the head commit, per path; a file the head does not have
 * (404) is left out. Other failures throw.
 */
export async function headLineTexts(
  glab: CliApiContext,
  projectPath: string,
  headSha: string,
  paths: Iterable<string>,
): Promise<Map<string, Map<number, string>>> {
  const files = new Map<string, Map<number, string>>();
  for (const path of new Set(paths)) {
    const outcome = await runCliApi(glab, [
      `projects/${encodeURIComponent(projectPath)}/repository/files/${encodeURIComponent(path)}/raw?ref=${encodeURIComponent(headSha)}`,
    ]);
    if (outcome.kind !== 'ok') {
      if (outcome.kind === 'exit' && /\b404\b/.test(outcome.stderr)) continue;
      throw cliApiError(glab, outcome, ` (reading ${path} at the head)`);
    }
    files.set(
      path,
      new Map(outcome.stdout.split('\n').map((text, index) => [index + 1, text] as const)),
    );
  }
  return files;
}
