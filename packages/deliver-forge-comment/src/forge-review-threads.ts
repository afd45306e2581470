/**
 * The forge's review threads of a pull request, through `gh api graphql`: the REST API never says
 * whether a thread is resolved. Reads the gateway's own threads (first comment written by the
 * token's account, `viewerDidAuthor`) with the fingerprint each carries, whether a person
 * resolved or dismissed it, and resolves the threads of fixed findings (`resolveReviewThread`).
 */
import { findingMarkersIn } from '@webhook-gateway/core';
import { z } from 'zod';
import { cliApiError, runCliApi, type CliApiContext } from './cli-api.js';
import type { ForgePullRequest } from './forge-target.js';
import { isDismissal, type FindingThread } from './review-findings.js';

const THREADS_QUERY = `query($owner: String!, $repo: String!, $pr_number: Int!, $endCursor: String) {
  repository(owner: $owner, name: $repo) {
    pullRequest(number: $pr_number) {
      reviewThreads(first: 100, after: $endCursor) {
        pageInfo { hasNextPage endCursor }
        nodes {
          id
          isResolved
          comments(first: 100) {
            nodes { body viewerDidAuthor reactions(content: THUMBS_DOWN) { totalCount } }
          }
        }
      }
    }
  }
}`;

const RESOLVE_MUTATION = `mutation($thread: ID!) {
  resolveReviewThread(input: { threadId: $thread }) { thread { id isResolved } }
}`;

/** One thread as `--jq '.data…reviewThreads.nodes[]'` prints it, one JSON object a line. */
const threadSchema = z.object({
  id: z.string(),
  isResolved: z.boolean(),
  comments: z.object({
    nodes: z.array(
      z.object({
        body: z.string(),
        viewerDidAuthor: z.boolean(),
        reactions: z.object({ totalCount: z.number() }),
      }),
    ),
  }),
});

/**
 * The gateway's own threads on the pull request by fingerprint, only for the fingerprints in
 * `trusted` (the journal's for this request): a marker in a person's comment, or one the journal
 * never recorded for this request, is not read. Throws a `CommentDeliveryError` when gh fails.
 */
export async function readFindingThreads(
  gh: CliApiContext,
  { repo, prNumber }: ForgePullRequest,
  trusted: ReadonlySet<string>,
): Promise<Map<string, FindingThread>> {
  const [owner = '', name = ''] = repo.split('/');
  const outcome = await runCliApi(gh, [
    'graphql',
    '--paginate',
    '-f',
    `query=${THREADS_QUERY}`,
    '-f',
    `owner=${owner}`,
    '-f',
    `repo=${name}`,
    '-F',
    `pr_number=${prNumber}`,
    '--jq',
    '.data.repository.pullRequest.reviewThreads.nodes[]',
  ]);
  if (outcome.kind !== 'ok') throw cliApiError(gh, outcome, ' (reading its review threads)');
  const threads = new Map<string, FindingThread>();
  for (const line of outcome.stdout.split('\n')) {
    if (line.trim() === '') continue;
    const thread = threadSchema.parse(JSON.parse(line));
    const [first, ...replies] = thread.comments.nodes;
    if (!first?.viewerDidAuthor) continue;
    const fingerprint = findingMarkersIn(first.body).find((found) => trusted.has(found));
    if (fingerprint === undefined) continue;
    threads.set(fingerprint, {
      threadId: thread.id,
      resolved: thread.isResolved,
      dismissed:
        first.reactions.totalCount > 0 ||
        replies.some((reply) => !reply.viewerDidAuthor && isDismissal(reply.body)),
    });
  }
  return threads;
}

/** Resolves one review thread; throws a `CommentDeliveryError` when gh or GraphQL fails. */
export async function resolveFindingThread(gh: CliApiContext, threadId: string): Promise<void> {
  const outcome = await runCliApi(gh, [
    'graphql',
    '-f',
    `query=${RESOLVE_MUTATION}`,
    '-f',
    `thread=${threadId}`,
  ]);
  if (outcome.kind !== 'ok') throw cliApiError(gh, outcome, ` (resolving thread ${threadId})`);
}
