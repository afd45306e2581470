/**
 * Every SQL statement the store runs, prepared once when the store opens so no call pays for
 * parsing or planning. Rows come back as `unknown` and go through `rows.ts`.
 */
import type { DeliveryStatus } from '@webhook-gateway/core';
import type Database from 'better-sqlite3';

/** The bind parameters of a new `deliveries` row. */
export interface DeliveryInsert {
  id: string;
  seq: number;
  route: string;
  event: string;
  action: string | null;
  delivery_id: string;
  received_at: number;
  headers: string;
  auth_scheme: string | null;
  trace_context: string | null;
  order_key: string | null;
  max_attempts: number;
  next_attempt_at: number;
  key_expires_at: number;
}

/** The bind parameters of a new `outbox` row (due at once: `due_at` is `created_at`). */
interface OutboxInsert {
  id: string;
  destination: string;
  body: string;
  created_at: number;
  expires_at: number;
  trace_context: string | null;
}

/** The bind parameters of a `subscriptions` row. */
export interface SubscriptionRow {
  name: string;
  description: string | null;
  events: string;
  prompt: string | null;
  deliver: string;
  deliver_chat_id: string | null;
  skills: string;
  secret: string;
  created_at: number;
  updated_at: number;
}

type Statement<Params extends unknown[] | object> = Database.Statement<Params>;
type ListParams = { route?: string; status?: DeliveryStatus; limit: number };
type MarkParams = { id: string; now: number };
/** What `saveProgress` binds; null leaves a column as it is, JSON columns come as text. */
export type ProgressParams = {
  id: string;
  prompt: string | null;
  answer: string | null;
  agent: string | null;
  line_comments: string | null;
  conclusion: string | null;
  /** 1 for a partial answer. */
  partial: number | null;
  safety: string | null;
};

/** `@now` as SQL: an integer when it is one (better-sqlite3 binds every number as REAL). */
const NOW = 'iif(@now = CAST(@now AS INTEGER), CAST(@now AS INTEGER), @now)';

/**
 * `attempt_log` with its last attempt closed at `@now` with `@error`, if it is still open;
 * otherwise unchanged (`closeAttempt` in SQL, so the payload is never read or parsed).
 */
const CLOSE_ATTEMPT = `CASE
  WHEN json_array_length(attempt_log) > 0
    AND json_extract(attempt_log, '$[#-1].finishedAt') IS NULL
  THEN json_set(attempt_log, '$[#-1].finishedAt', ${NOW}, '$[#-1].error', @error)
  ELSE attempt_log END`;

/** The prepared statements, by what they do. */
export interface Statements {
  lastSeq: Statement<[]>;
  saveLastSeq: Statement<[number]>;
  liveKey: Statement<{ route: string; delivery_id: string; now: number }>;
  insertDelivery: Statement<DeliveryInsert>;
  insertPayload: Statement<{ id: string; payload: string }>;
  byId: Statement<[string]>;
  newestByDeliveryId: Statement<[string]>;
  queued: Statement<[number, number]>;
  list: Record<'all' | 'byRoute' | 'byStatus' | 'byRouteAndStatus', Statement<ListParams>>;
  /** The outline columns of rows received since a time, newest first (no payload join). */
  outlines: Statement<{ since: number; limit: number }>;
  requeue: Statement<{ id: string; attempt_log: string }>;
  running: Statement<[]>;
  /** Changes one row, or none when the id is unknown; `byId` reads it back. */
  markRunning: Statement<MarkParams>;
  saveProgress: Statement<ProgressParams>;
  markRetry: Statement<{ id: string; error: string; next_attempt_at: number; now: number }>;
  markDelivered: Statement<MarkParams & { status: string; error: null }>;
  /** Releases the row's de-duplication key too, so the sender's redelivery runs again. */
  markFailed: Statement<MarkParams & { error: string }>;
  markRefused: Statement<MarkParams & { status: string; error: string }>;
  replay: Statement<{ id: string; seq: number; now: number }>;
  pruneDeliveries: Statement<{ older_than: number; now: number }>;
  /**
   * Ends the queued, never-started rows of an order key other than the new one; their ids, and
   * what a coalescing accept reads of them.
   */
  supersede: Statement<{ order_key: string; id: string; now: number }>;
  /** A coalesced row's wait and what it replaced. */
  setCoalesced: Statement<{
    id: string;
    next_attempt_at: number;
    burst_started_at: number;
    coalesced: number;
  }>;
  lastDelivered: Statement<{ order_key: string; except_id: string }>;
  listSubscriptions: Statement<[]>;
  getSubscription: Statement<[string]>;
  putSubscription: Statement<SubscriptionRow>;
  removeSubscription: Statement<[string]>;
  /** The given sender ids (a JSON array) that have a row of the route. */
  journaledDeliveryIds: Statement<{ route: string; ids: string }>;
  readCursor: Statement<[string]>;
  writeCursor: Statement<{ name: string; value: string }>;
  readFindings: Statement<[string]>;
  writeFindings: Statement<{ order_key: string; findings: string }>;
  readPauses: Statement<[]>;
  readPause: Statement<[string]>;
  /** Adds a pause unless its route is paused already. */
  addPause: Statement<{ route: string; reason: string | null; since: number }>;
  removePause: Statement<[string]>;
  /** Adds a message unless its id is there already. */
  insertOutbox: Statement<OutboxInsert>;
  dropExpiredOutbox: Statement<{ now: number }>;
  /** Takes up to `limit` due messages for the claim `claim` until `lease_end`; returns them. */
  claimOutbox: Statement<{ now: number; limit: number; claim: string; lease_end: number }>;
  /** The settlements, each only under the message's current claim. */
  settleOutboxDone: Statement<{ id: string; claim: string }>;
  settleOutboxRetry: Statement<{ id: string; claim: string; at: number; error: string }>;
  settleOutboxDefer: Statement<{ id: string; claim: string; at: number }>;
}

/** Prepares every statement once, for the life of the connection. */
export function prepareStatements(db: Database.Database): Statements {
  const listBy = (where: string) =>
    db.prepare<ListParams>(`SELECT * FROM journal ${where} ORDER BY seq DESC LIMIT @limit`);
  return {
    lastSeq: db.prepare<[]>('SELECT last_seq FROM journal_sequence WHERE id = 1').pluck(),
    saveLastSeq: db.prepare<[number]>('UPDATE journal_sequence SET last_seq = ? WHERE id = 1'),
    /** A row of this (route, delivery id) whose de-duplication key is still live: a duplicate. */
    liveKey: db.prepare<{ route: string; delivery_id: string; now: number }>(
      `SELECT 1 FROM deliveries
       WHERE delivery_id = @delivery_id AND route = @route AND key_expires_at > @now LIMIT 1`,
    ),
    insertDelivery: db.prepare<DeliveryInsert>(
      `INSERT INTO deliveries (id, seq, route, event, action, delivery_id, received_at,
         headers, auth_scheme, trace_context, order_key, max_attempts, status, attempts,
         next_attempt_at, key_expires_at)
       VALUES (@id, @seq, @route, @event, @action, @delivery_id, @received_at,
         @headers, @auth_scheme, @trace_context, @order_key, @max_attempts, 'queued', 0,
         @next_attempt_at, @key_expires_at)`,
    ),
    insertPayload: db.prepare<{ id: string; payload: string }>(
      'INSERT INTO delivery_payloads (id, payload) VALUES (@id, @payload)',
    ),
    byId: db.prepare<[string]>('SELECT * FROM journal WHERE id = ?'),
    newestByDeliveryId: db.prepare<[string]>(
      'SELECT * FROM journal WHERE delivery_id = ? ORDER BY seq DESC LIMIT 1',
    ),
    queued: db.prepare<[number, number]>(
      `SELECT id, seq, route, delivery_id, order_key, next_attempt_at, attempts FROM deliveries
         WHERE status = 'queued' AND seq > ? ORDER BY seq LIMIT ?`,
    ),
    list: {
      all: listBy(''),
      byRoute: listBy('WHERE route = @route'),
      byStatus: listBy('WHERE status = @status'),
      byRouteAndStatus: listBy('WHERE route = @route AND status = @status'),
    },
    outlines: db.prepare<{ since: number; limit: number }>(
      `SELECT id, route, status, received_at, attempt_log, agent FROM deliveries
         WHERE received_at >= @since ORDER BY seq DESC LIMIT @limit`,
    ),
    requeue: db.prepare<{ id: string; attempt_log: string }>(
      `UPDATE deliveries SET status = 'queued', attempt_log = @attempt_log WHERE id = @id`,
    ),
    running: db.prepare<[]>(`SELECT * FROM journal WHERE status = 'running'`),
    // `startAttempt` in SQL: the row is not read or parsed to append to its attempt log.
    markRunning: db.prepare<MarkParams>(
      `UPDATE deliveries SET status = 'running', attempts = attempts + 1,
         started_at = COALESCE(started_at, @now),
         attempt_log = json_insert(attempt_log, '$[#]', json_object(
           'attempt', json_array_length(attempt_log) + 1, 'startedAt', ${NOW},
           'finishedAt', NULL, 'error', NULL))
       WHERE id = @id AND status <> 'superseded'`,
    ),
    saveProgress: db.prepare<ProgressParams>(
      // A null parameter means "not given": keep what is there.
      `UPDATE deliveries SET prompt = COALESCE(@prompt, prompt), answer = COALESCE(@answer, answer),
         agent = COALESCE(@agent, agent), line_comments = COALESCE(@line_comments, line_comments),
         conclusion = COALESCE(@conclusion, conclusion), partial = COALESCE(@partial, partial),
         safety = COALESCE(@safety, safety)
       WHERE id = @id`,
    ),
    markRetry: db.prepare<{ id: string; error: string; next_attempt_at: number; now: number }>(
      `UPDATE deliveries SET status = 'queued', last_error = @error,
         next_attempt_at = @next_attempt_at, attempt_log = ${CLOSE_ATTEMPT}
       WHERE id = @id`,
    ),
    markDelivered: db.prepare<MarkParams & { status: string; error: null }>(
      `UPDATE deliveries SET status = @status, finished_at = @now,
         attempt_log = ${CLOSE_ATTEMPT}
       WHERE id = @id`,
    ),
    markFailed: db.prepare<MarkParams & { error: string }>(
      `UPDATE deliveries SET status = 'failed', last_error = @error, finished_at = @now,
         attempt_log = ${CLOSE_ATTEMPT}, key_expires_at = NULL
       WHERE id = @id`,
    ),
    // A refusal keeps the row's key: a redelivery of the same event is refused again.
    markRefused: db.prepare<MarkParams & { status: string; error: string }>(
      `UPDATE deliveries SET status = @status, last_error = @error, finished_at = @now,
         attempt_log = ${CLOSE_ATTEMPT}
       WHERE id = @id`,
    ),
    replay: db.prepare<{ id: string; seq: number; now: number }>(
      `UPDATE deliveries SET status = 'queued', attempts = 0, answer = NULL, line_comments = NULL,
         conclusion = NULL, partial = NULL, safety = NULL,
         last_error = NULL,
         finished_at = NULL, superseded_by = NULL, next_attempt_at = @now, seq = @seq
       WHERE id = @id`,
    ),
    // A row whose key is still live stays until it expires: it is what de-duplicates.
    pruneDeliveries: db.prepare<{ older_than: number; now: number }>(
      `DELETE FROM deliveries WHERE finished_at IS NOT NULL AND finished_at < @older_than
         AND (key_expires_at IS NULL OR key_expires_at <= @now)`,
    ),
    supersede: db.prepare<{ order_key: string; id: string; now: number }>(
      `UPDATE deliveries SET status = 'superseded', superseded_by = @id, finished_at = @now
         WHERE order_key = @order_key AND status = 'queued' AND started_at IS NULL AND id <> @id
         RETURNING id, received_at, coalesced, burst_started_at`,
    ),
    setCoalesced: db.prepare<{
      id: string;
      next_attempt_at: number;
      burst_started_at: number;
      coalesced: number;
    }>(
      `UPDATE deliveries SET next_attempt_at = @next_attempt_at,
         burst_started_at = @burst_started_at, coalesced = @coalesced
       WHERE id = @id`,
    ),
    lastDelivered: db.prepare<{ order_key: string; except_id: string }>(
      `SELECT * FROM journal WHERE order_key = @order_key AND status = 'delivered'
         AND id <> @except_id ORDER BY seq DESC LIMIT 1`,
    ),
    listSubscriptions: db.prepare<[]>('SELECT * FROM subscriptions ORDER BY name'),
    getSubscription: db.prepare<[string]>('SELECT * FROM subscriptions WHERE name = ?'),
    putSubscription: db.prepare<SubscriptionRow>(
      `INSERT INTO subscriptions (name, description, events, prompt, deliver, deliver_chat_id,
         skills, secret, created_at, updated_at)
       VALUES (@name, @description, @events, @prompt, @deliver, @deliver_chat_id, @skills,
         @secret, @created_at, @updated_at)
       ON CONFLICT (name) DO UPDATE SET description = excluded.description,
         events = excluded.events, prompt = excluded.prompt, deliver = excluded.deliver,
         deliver_chat_id = excluded.deliver_chat_id, skills = excluded.skills,
         secret = excluded.secret, created_at = excluded.created_at,
         updated_at = excluded.updated_at`,
    ),
    removeSubscription: db.prepare<[string]>('DELETE FROM subscriptions WHERE name = ?'),
    // One probe of the (delivery id, route) index per id.
    journaledDeliveryIds: db
      .prepare<{ route: string; ids: string }>(
        `SELECT ids.value FROM (SELECT DISTINCT value FROM json_each(@ids)) AS ids
         WHERE EXISTS (SELECT 1 FROM deliveries
                       WHERE delivery_id = ids.value AND route = @route)`,
      )
      .pluck(),
    readCursor: db.prepare<[string]>('SELECT value FROM cursors WHERE name = ?').pluck(),
    writeCursor: db.prepare<{ name: string; value: string }>(
      `INSERT INTO cursors (name, value) VALUES (@name, @value)
       ON CONFLICT (name) DO UPDATE SET value = excluded.value`,
    ),
    readFindings: db.prepare<[string]>('SELECT findings FROM findings WHERE order_key = ?').pluck(),
    writeFindings: db.prepare<{ order_key: string; findings: string }>(
      `INSERT INTO findings (order_key, findings) VALUES (@order_key, @findings)
       ON CONFLICT (order_key) DO UPDATE SET findings = excluded.findings`,
    ),
    readPauses: db.prepare<[]>('SELECT route, reason, since FROM pauses ORDER BY since, route'),
    readPause: db.prepare<[string]>('SELECT route, reason, since FROM pauses WHERE route = ?'),
    addPause: db.prepare<{ route: string; reason: string | null; since: number }>(
      'INSERT OR IGNORE INTO pauses (route, reason, since) VALUES (@route, @reason, @since)',
    ),
    removePause: db.prepare<[string]>('DELETE FROM pauses WHERE route = ?'),
    insertOutbox: db.prepare<OutboxInsert>(
      `INSERT OR IGNORE INTO outbox
         (id, destination, body, created_at, expires_at, due_at, trace_context)
       VALUES (@id, @destination, @body, @created_at, @expires_at, @created_at, @trace_context)`,
    ),
    dropExpiredOutbox: db.prepare<{ now: number }>('DELETE FROM outbox WHERE expires_at <= @now'),
    claimOutbox: db.prepare<{ now: number; limit: number; claim: string; lease_end: number }>(
      `UPDATE outbox SET due_at = @lease_end, claim = @claim
       WHERE id IN (SELECT id FROM outbox WHERE due_at <= @now ORDER BY due_at LIMIT @limit)
       RETURNING id, destination, body, created_at, expires_at, attempts, last_error, claim,
         trace_context`,
    ),
    settleOutboxDone: db.prepare<{ id: string; claim: string }>(
      'DELETE FROM outbox WHERE id = @id AND claim = @claim',
    ),
    settleOutboxRetry: db.prepare<{ id: string; claim: string; at: number; error: string }>(
      `UPDATE outbox SET due_at = @at, attempts = attempts + 1, last_error = @error, claim = NULL
       WHERE id = @id AND claim = @claim`,
    ),
    settleOutboxDefer: db.prepare<{ id: string; claim: string; at: number }>(
      'UPDATE outbox SET due_at = @at, claim = NULL WHERE id = @id AND claim = @claim',
    ),
  };
}
