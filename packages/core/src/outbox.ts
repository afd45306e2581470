/**
 * The outbox: signed POSTs waiting in the journal until they are sent or expire. Lifecycle
 * events are written by the status change they report, in its transaction; a target (`webhook`)
 * adds its own with `Store.enqueueOutbox`. A sender claims due messages for a lease, POSTs them
 * and settles each; a claim it never settles (a crash) is claimed again once the lease ends.
 */

/** How long a message is kept unsent before it is dropped: a day of retries. */
export const OUTBOX_TTL_MS = 24 * 3_600_000;

/** A message as it is written. */
export interface NewOutboxMessage {
  /** Unique, the `webhook-id` of every try: a receiver drops a duplicate by it. */
  id: string;
  /**
   * Where it goes, as a key the sender resolves to a URL and a secret from the live config:
   * `outbound:<hash of the URL>` for a lifecycle subscriber, `endpoint:<name>` for a target's.
   * Never the URL itself (a path may carry a token) nor a secret.
   */
  destination: string;
  /** The JSON body, sent as it is. */
  body: string;
  createdAt: number;
  /** Dropped unsent at this time (ms). */
  expiresAt: number;
  /**
   * The W3C `traceparent` of the delivery it is about (with `observability.otlp`), so each of its
   * POSTs is a span of that delivery's trace; absent when the delivery was not traced.
   */
  traceContext?: string;
}

/** A claimed message: what it is, and how its tries went so far. */
export interface OutboxMessage extends NewOutboxMessage {
  /** Tries that failed (a deferral does not count). */
  attempts: number;
  lastError: string | null;
  /** This claim's token: only its holder can settle the message. */
  claim: string;
}

/** What one claim took: the messages it now holds, and how many expired ones it dropped. */
export interface OutboxClaim {
  messages: OutboxMessage[];
  expired: number;
}

/** How a claimed message is settled. */
export type OutboxOutcome =
  /** Sent (2xx), or given up on (a 4xx a retry cannot fix): removed. */
  | { kind: 'done' }
  /** A failed try: counted, with its error, and due again at `at`. */
  | { kind: 'retry'; at: number; error: string }
  /** Not tried (its receiver asked to wait, or is not configured here): due again at `at`. */
  | { kind: 'defer'; at: number };
