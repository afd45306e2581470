/**
 * What a review does with the findings earlier reviews of its route posted on the same request:
 * which line comments go out as new, which are still open (not posted again), which a person
 * closed (never raised again), and which threads the gateway resolves because a push changed
 * their line and the finding is no longer raised. The forge and altforge targets read the threads
 * and carry the plan out; this file only decides.
 */
import {
  findingFingerprint,
  withoutFindingMarkers,
  type Finding,
  type FindingCounts,
  type LineComment,
} from '@webhook-gateway/core';

/**
 * A thread of the gateway's own on the request, as the forge shows it now: only threads whose
 * first comment the gateway's account wrote, carrying a fingerprint marker, are read into this.
 */
export interface FindingThread {
  /** The forge's id of the thread (GraphQL node id, altforge discussion id). */
  threadId: string;
  /** Resolved on the forge (by a person, since the gateway resolves only what it marks fixed). */
  resolved: boolean;
  /** Someone answered `/dismiss` in it, or reacted 👎 to its first comment. */
  dismissed: boolean;
}

/** A reply that dismisses the finding: `/dismiss` as its first word. */
const DISMISS = /^\s*\/dismiss\b/i;

/** True when a reply's text dismisses the finding of its thread. */
export function isDismissal(body: string): boolean {
  return DISMISS.test(body);
}

/** A line comment of this review with the text of the code line it sits on (empty when unknown). */
interface RaisedComment {
  comment: LineComment;
  lineText: string;
}

export interface FindingsPlan {
  /** The comments to post, each with its fingerprint; the others are left out on purpose. */
  toPost: { comment: LineComment; fingerprint: string }[];
  /** Threads to resolve: findings no longer raised whose line a push changed. */
  toResolve: { fingerprint: string; threadId: string }[];
  /** The journal's findings after this review, with `toResolve` still open until resolved. */
  findings: Finding[];
  counts: FindingCounts;
}

export interface FindingsInput {
  route: string;
  /** The sender's delivery id of this review. */
  deliveryId: string;
  /** This review's line comments, only those the diff shows (the others go into the body). */
  raised: readonly RaisedComment[];
  /** What the journal keeps for this route and request. */
  previous: readonly Finding[];
  /**
   * The gateway's own threads on the request by fingerprint, only for fingerprints the journal
   * holds; undefined when they could not be read (then nothing is resolved or closed).
   */
  threads: ReadonlyMap<string, FindingThread> | undefined;
  /** The texts of the lines the diff now shows for a path (undefined: the file is not in it). */
  diffTexts: (path: string) => ReadonlySet<string> | undefined;
}

/** True when a push changed the finding's line: its text is no longer among its file's diff lines. */
function lineChanged(finding: Finding, diffTexts: FindingsInput['diffTexts']): boolean {
  const texts = diffTexts(finding.path);
  return texts === undefined || !texts.has(finding.lineText);
}

/** Plans the review's findings (see the file's comment); pure, so every case is tested alone. */
export function planFindings(input: FindingsInput): FindingsPlan {
  const counts: FindingCounts = {
    new: 0,
    stillOpen: 0,
    resolved: 0,
    suppressed: 0,
    resolveErrors: 0,
  };
  const journal = new Map(input.previous.map((finding) => [finding.fingerprint, { ...finding }]));
  // What people did on the forge since the last review.
  if (input.threads) {
    for (const finding of journal.values()) {
      if (finding.state !== 'open') continue;
      const thread = input.threads.get(finding.fingerprint);
      // A thread gone from the request was deleted by a person: as good as dismissed.
      const closed: Finding['state'] | undefined =
        thread === undefined || thread.dismissed
          ? 'dismissed'
          : thread.resolved
            ? 'resolved'
            : undefined;
      if (closed) {
        finding.state = closed;
        finding.closedBy = input.deliveryId;
        counts.resolved++;
      }
    }
  }
  const toPost: FindingsPlan['toPost'] = [];
  const raisedNow = new Set<string>();
  for (const { comment, lineText } of input.raised) {
    const body = withoutFindingMarkers(comment.body);
    let fingerprint = findingFingerprint(input.route, body, lineText);
    // The same remark on another line with the same text (two `}` lines, say) is its own
    // finding: numbered in the order the agent made them, so it is posted, not folded away.
    for (let occurrence = 2; raisedNow.has(fingerprint); occurrence++) {
      fingerprint = findingFingerprint(input.route, body, `${lineText}\0${occurrence}`);
    }
    raisedNow.add(fingerprint);
    const known = journal.get(fingerprint);
    if (known?.state === 'dismissed' || known?.state === 'resolved') {
      counts.suppressed++;
      continue;
    }
    if (known?.state === 'open') {
      known.seenBy = input.deliveryId;
      counts.stillOpen++;
      continue;
    }
    // New, or back after the gateway marked it fixed: posted (again).
    journal.set(fingerprint, {
      fingerprint,
      path: comment.path,
      line: comment.line,
      body,
      lineText,
      state: 'open',
      raisedBy: input.deliveryId,
    });
    toPost.push({ comment, fingerprint });
    counts.new++;
  }
  const toResolve: FindingsPlan['toResolve'] = [];
  for (const finding of journal.values()) {
    if (finding.state !== 'open' || raisedNow.has(finding.fingerprint)) continue;
    const threadId = input.threads?.get(finding.fingerprint)?.threadId;
    if (threadId !== undefined && lineChanged(finding, input.diffTexts)) {
      toResolve.push({ fingerprint: finding.fingerprint, threadId });
    }
  }
  return { toPost, toResolve, findings: [...journal.values()], counts };
}

/**
 * The journal's findings once the gateway resolved the threads it could: those are `fixed`,
 * counted as resolved; the rest stay open, counted as errors.
 */
export function withResolved(
  plan: FindingsPlan,
  resolved: ReadonlySet<string>,
  deliveryId: string,
): { findings: Finding[]; counts: FindingCounts } {
  const counts = { ...plan.counts };
  const findings = plan.findings.map((finding) => {
    if (!plan.toResolve.some((item) => item.fingerprint === finding.fingerprint)) return finding;
    if (!resolved.has(finding.fingerprint)) {
      counts.resolveErrors++;
      return finding;
    }
    counts.resolved++;
    return { ...finding, state: 'fixed' as const, closedBy: deliveryId };
  });
  return { findings, counts };
}
