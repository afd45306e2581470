/**
 * A review target with the journal's findings (`forge_review`, `altforge_review`): reads the
 * gateway's own threads, plans what to post (`planFindings`), resolves the threads of fixed
 * findings, and saves the findings once the review is out. A failure to read or resolve threads
 * is logged and counted, and the review still goes out: a finding is then kept open rather than
 * posted twice.
 */
import {
  errorMessage,
  findingCountsLine,
  type DeliverRequest,
  type FindingCounts,
  type FindingsJournal,
  type LineComment,
} from '@webhook-gateway/core';
import { planFindings, withResolved, type FindingThread } from './review-findings.js';

/**
 * The journal's findings for this review, unless `deliver_extra.findings` is `false` (a boolean,
 * or the text a template renders): the route then posts every line comment on every review.
 */
export function findingsJournalOf(request: DeliverRequest): FindingsJournal | undefined {
  const off = request.extra.findings === false || request.extra.findings === 'false';
  return off ? undefined : request.findings;
}

/** How a platform reads and resolves the gateway's threads on one request. */
export interface FindingThreads {
  /** The gateway's own threads by fingerprint, only for fingerprints in `trusted`. */
  read(trusted: ReadonlySet<string>): Promise<Map<string, FindingThread>>;
  /**
   * Resolves a fixed finding's thread. `'unsupported'`: the forge has no API for it (Forgejo, an
   * older Gitea): the finding is closed as fixed all the same, its thread left as it is.
   */
  resolve(threadId: string): Promise<void | 'unsupported'>;
}

export interface RememberedReview {
  /** The comments this review posts: new findings, then those the diff does not show. */
  comments: LineComment[];
  /** The new findings' comments, each with its fingerprint (the others carry none). */
  fingerprints: Map<LineComment, string>;
  /** The summary with the findings' counts after it. */
  summary: string;
  counts: FindingCounts;
  /** Saves the findings once the review is out; `onLines` are the comments that went on lines. */
  save(onLines: readonly LineComment[]): Promise<void>;
}

/**
 * Plans this review against the journal's findings and resolves the threads of fixed ones.
 * `lines` holds the text of each line the review can place a comment on, per path (the diff's
 * lines on the forge, the head's file on the altforge); a path it lacks is gone from the change.
 */
export async function rememberFindings(
  request: DeliverRequest,
  journal: FindingsJournal,
  threadsOnRequest: FindingThreads,
  lines: ReadonlyMap<string, ReadonlyMap<number, string>>,
): Promise<RememberedReview> {
  const log = request.log.child({ target: request.routeConfig.deliver });
  const deliveryId = request.delivery.deliveryId;
  const previous = await journal.read();
  const open = new Set(previous.filter((f) => f.state === 'open').map((f) => f.fingerprint));
  let threads: Map<string, FindingThread> | undefined = new Map();
  let readErrors = 0;
  if (open.size > 0) {
    try {
      threads = await threadsOnRequest.read(open);
    } catch (error) {
      // Without the threads nothing is closed or resolved, and open findings are not posted again.
      readErrors = 1;
      threads = undefined;
      log.warn({ err: errorMessage(error) }, 'could not read the review threads of the findings');
    }
  }
  const raised = request.lineComments.flatMap((comment) => {
    const lineText = lines.get(comment.path)?.get(comment.line);
    return lineText === undefined ? [] : [{ comment, lineText }];
  });
  const outside = request.lineComments.filter(
    (comment) => lines.get(comment.path)?.get(comment.line) === undefined,
  );
  const plan = planFindings({
    route: request.delivery.route,
    deliveryId,
    raised,
    previous,
    threads,
    diffTexts: (path) => {
      const texts = lines.get(path);
      return texts === undefined ? undefined : new Set(texts.values());
    },
  });
  const resolved = new Set<string>();
  let unresolvable = 0;
  for (const { fingerprint, threadId } of plan.toResolve) {
    try {
      if ((await threadsOnRequest.resolve(threadId)) === 'unsupported') unresolvable++;
      resolved.add(fingerprint);
    } catch (error) {
      log.warn(
        { err: errorMessage(error), thread: threadId },
        'could not resolve the thread of a fixed finding',
      );
    }
  }
  if (unresolvable > 0) {
    log.info(
      { fixed: unresolvable },
      'the forge has no API to resolve a thread: fixed findings closed, their threads left open',
    );
  }
  const after = withResolved(plan, resolved, deliveryId);
  const counts = { ...after.counts, resolveErrors: after.counts.resolveErrors + readErrors };
  const fingerprints = new Map(
    plan.toPost.map(({ comment, fingerprint }) => [comment, fingerprint]),
  );
  const said = previous.length > 0 || raised.length > 0;
  const summary = said
    ? [request.summary.trimEnd(), findingCountsLine(counts)].filter((p) => p !== '').join('\n\n')
    : request.summary;
  return {
    comments: [...fingerprints.keys(), ...outside],
    fingerprints,
    summary,
    counts,
    async save(onLines) {
      // A new finding the forge refused on its line went into the body: it has no thread to keep.
      const refused = new Set(
        plan.toPost.filter(({ comment }) => !onLines.includes(comment)).map((p) => p.fingerprint),
      );
      await journal.save(after.findings.filter((finding) => !refused.has(finding.fingerprint)));
      journal.report?.(counts);
      log.info({ ...counts }, 'findings remembered');
    },
  };
}
