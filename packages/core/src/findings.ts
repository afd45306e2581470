/**
 * Findings remembered across pushes: each line comment a review target posts carries a hidden
 * fingerprint, and the journal keeps the findings of each route and pull (merge) request with
 * their fate, so a later review of the same request does not raise them again.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';

/**
 * Where a finding stands: `open` (its thread is there, unresolved), `resolved` (a person resolved
 * its thread), `dismissed` (a person answered `/dismiss` or reacted 👎), `fixed` (no longer
 * raised after a push changed its line: the gateway resolved its own thread).
 */
export const FINDING_STATES = ['open', 'resolved', 'dismissed', 'fixed'] as const;
export type FindingState = (typeof FINDING_STATES)[number];

/** One finding of a route on one request, as the journal keeps it. */
export const findingSchema = z.object({
  fingerprint: z.string().min(1),
  path: z.string(),
  line: z.number().int().positive(),
  body: z.string(),
  /** The commented code line's text when it was raised: a push that changes it is a fix. */
  lineText: z.string(),
  state: z.enum(FINDING_STATES),
  /** The sender's delivery id of the review that first posted it. */
  raisedBy: z.string(),
  /** The sender's delivery id of the last review that raised it again while it was open. */
  seenBy: z.string().optional(),
  /** The sender's delivery id of the review that closed it (any state but `open`). */
  closedBy: z.string().optional(),
});
export type Finding = z.infer<typeof findingSchema>;

export const findingsSchema = z.array(findingSchema);

/** The journal's findings of the delivery's route and request, for the review target. */
export interface FindingsJournal {
  /** What earlier reviews of this route on this request found, with their fates. */
  read(): Promise<Finding[]>;
  /** Replaces them with `findings` (every finding the journal keeps for the request). */
  save(findings: readonly Finding[]): Promise<void>;
  /** Reports what the review did with them, for metrics (`hooks.findingsReviewed`). */
  report?(counts: FindingCounts): void;
}

/** What one review did with its route's findings on a request, for metrics. */
export interface FindingsEvent {
  route: string;
  /** The review target (`forge_review`, `altforge_review`). */
  target: string;
  counts: FindingCounts;
}

/** What a review did with the findings, for its summary, the log and the dashboard. */
export interface FindingCounts {
  /** Posted for the first time. */
  new: number;
  /** Raised again while their thread is still open: not posted again. */
  stillOpen: number;
  /** Closed since the last review: resolved or dismissed by a person, or fixed. */
  resolved: number;
  /** Raised again after a person resolved or dismissed them: never posted again. */
  suppressed: number;
  /** Threads the gateway could not resolve (a GraphQL or API error): logged, the review still went out. */
  resolveErrors: number;
}

const FINGERPRINT_MARKER = '<!-- webhook-gateway:finding ';

/** Whitespace runs as one space, ends trimmed: re-indenting or re-wrapping is the same text. */
function normalized(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * A finding's fingerprint: the same while the route, the finding's text and the commented code
 * line's text stay the same, wherever the line moves.
 *
 * @example findingFingerprint('review', 'b is unused', 'const b = 2;') // '3f1c…' (24 hex digits)
 */
export function findingFingerprint(route: string, body: string, lineText: string): string {
  return createHash('sha256')
    .update(`${route}\0${normalized(body)}\0${normalized(lineText)}`)
    .digest('hex')
    .slice(0, 24);
}

/** The hidden marker a posted line comment carries its fingerprint in. */
export function findingMarker(fingerprint: string): string {
  return `${FINGERPRINT_MARKER}${fingerprint.replace(/[^0-9a-f]/g, '')} -->`;
}

/** The fingerprints a comment's body carries (whoever wrote it: the caller decides whom to trust). */
export function findingMarkersIn(body: string): string[] {
  return [...body.matchAll(/<!-- webhook-gateway:finding ([0-9a-f]+) -->/g)].map(
    (match) => match[1] ?? '',
  );
}

/**
 * An agent's text without fingerprint markers: one it copied from an earlier comment (or a
 * person's) must not ride along in a new comment and later be read as the gateway's.
 */
export function withoutFindingMarkers(text: string): string {
  return text.replace(/<!-- webhook-gateway:finding [^>]*-->/g, '').trimEnd();
}

/**
 * What became of a finding, seen from one review: `new` (it posted it), `still_open` (it raised
 * it again and left it), `resolved` / `dismissed` / `fixed` (it saw a person close it, or
 * resolved it itself); otherwise the finding's state now, as later reviews left it.
 */
export type FindingFate = 'new' | 'still_open' | FindingState;

/** The fate of `finding` as the review with the sender's delivery id `deliveryId` saw it. */
export function findingFate(finding: Finding, deliveryId: string): FindingFate {
  if (finding.closedBy === deliveryId) return finding.state;
  if (finding.raisedBy === deliveryId) return 'new';
  if (finding.seenBy === deliveryId) return 'still_open';
  return finding.state;
}

/**
 * The summary's line about the findings.
 *
 * @example findingCountsLine({ new: 1, stillOpen: 2, resolved: 1, suppressed: 0, resolveErrors: 0 })
 * // 'Findings: 1 new, 2 still open, 1 resolved since the last review.'
 */
export function findingCountsLine(counts: FindingCounts): string {
  return `Findings: ${counts.new} new, ${counts.stillOpen} still open, ${counts.resolved} resolved since the last review.`;
}
