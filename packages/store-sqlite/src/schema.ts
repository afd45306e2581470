/**
 * The database schema and its migrations. `PRAGMA user_version` holds the version a file is
 * at; each migration moves it up by one, inside a write transaction, so two processes opening a
 * new file at once cannot both migrate it.
 */
import type Database from 'better-sqlite3';

/** One step of the schema: applied to a database at version `index`, leaves it at `index + 1`. */
type Migration = (db: Database.Database) => void;

const createJournal: Migration = (db) => {
  db.exec(`
    CREATE TABLE deliveries (
      id              TEXT PRIMARY KEY,            -- the journal's own id (uuid)
      seq             INTEGER NOT NULL UNIQUE,     -- order of arrival; a replay takes a new one
      route           TEXT NOT NULL,
      event           TEXT NOT NULL,
      action          TEXT,
      delivery_id     TEXT NOT NULL,               -- the sender's id
      received_at     INTEGER NOT NULL,
      payload         TEXT NOT NULL,               -- JSON object
      headers         TEXT NOT NULL,               -- JSON object of strings
      order_key       TEXT,
      max_attempts    INTEGER NOT NULL,
      status          TEXT NOT NULL CHECK (status IN ('queued', 'running', 'delivered', 'failed')),
      attempts        INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL,
      prompt          TEXT,
      answer          TEXT,
      last_error      TEXT,
      started_at      INTEGER,
      finished_at     INTEGER,
      attempt_log     TEXT NOT NULL DEFAULT '[]',  -- JSON array of attempts
      agent           TEXT                         -- JSON accounting of the last run
    );
    CREATE INDEX deliveries_status_seq ON deliveries (status, seq);
    CREATE INDEX deliveries_route_seq ON deliveries (route, seq);
    CREATE INDEX deliveries_delivery_id ON deliveries (delivery_id);
    CREATE INDEX deliveries_finished_at ON deliveries (finished_at);

    -- The last seq handed out. Not MAX(seq): pruning the newest row must not let a later row
    -- reuse its number, or a poller whose cursor is already there would never see that row.
    CREATE TABLE journal_sequence (
      id       INTEGER PRIMARY KEY CHECK (id = 1),
      last_seq INTEGER NOT NULL
    );
    INSERT INTO journal_sequence (id, last_seq) VALUES (1, 0);

    CREATE TABLE idempotency_keys (
      route       TEXT NOT NULL,
      delivery_id TEXT NOT NULL,
      expires_at  INTEGER NOT NULL,
      PRIMARY KEY (route, delivery_id)
    ) WITHOUT ROWID;
    CREATE INDEX idempotency_keys_expires_at ON idempotency_keys (expires_at);

    CREATE TABLE subscriptions (
      name            TEXT PRIMARY KEY,
      description     TEXT,
      events          TEXT NOT NULL,               -- JSON array of strings
      prompt          TEXT,
      deliver         TEXT NOT NULL,
      deliver_chat_id TEXT,
      skills          TEXT NOT NULL,               -- JSON array of strings
      secret          TEXT NOT NULL,
      created_at      INTEGER NOT NULL,
      updated_at      INTEGER NOT NULL
    );
  `);
};

/**
 * Payloads move to their own table. A worker updates a delivery's row four times (running,
 * prompt, answer, delivered) and SQLite rewrites a whole row on each update: with the ~6 KB
 * payload inside, every update wrote it (and its overflow page) to the log again. Apart, an
 * update writes a few hundred bytes. `journal` is the row as before, payload included (a LEFT
 * JOIN: a row whose payload went missing is reported as damaged, not silently left out).
 */
const splitPayloads: Migration = (db) => {
  db.exec(`
    CREATE TABLE delivery_payloads (
      id      TEXT PRIMARY KEY,                    -- deliveries.id
      payload TEXT NOT NULL                        -- JSON object
    );
    INSERT INTO delivery_payloads (id, payload) SELECT id, payload FROM deliveries;
    ALTER TABLE deliveries DROP COLUMN payload;
    CREATE TRIGGER deliveries_delete_payload AFTER DELETE ON deliveries
      BEGIN DELETE FROM delivery_payloads WHERE id = old.id; END;
    CREATE VIEW journal AS
      SELECT deliveries.*, delivery_payloads.payload
      FROM deliveries LEFT JOIN delivery_payloads USING (id);
  `);
};

/**
 * De-duplication keys move onto the journal rows. A key was a row of its own, keyed by (route,
 * delivery id): random keys, so each accept wrote one more page of a B-tree to the log, and the
 * journal's index on the delivery id another. Now the row carries its key's end
 * (`key_expires_at`, NULL once released) and one index on (delivery id, route) serves both the
 * duplicate check and the lookup by the sender's id. Each live key goes to the newest row with
 * its (route, delivery id); a key whose row was pruned goes with it.
 */
const keysOnRows: Migration = (db) => {
  db.exec('ALTER TABLE deliveries ADD COLUMN key_expires_at INTEGER');
  // Key by key (the table holds about one window's worth), not row by row of the journal.
  const keys = db
    .prepare<[]>('SELECT route, delivery_id, expires_at FROM idempotency_keys')
    .all() as { route: string; delivery_id: string; expires_at: number }[];
  const giveKey = db.prepare<{ route: string; delivery_id: string; expires_at: number }>(
    `UPDATE deliveries SET key_expires_at = @expires_at WHERE id = (
       SELECT id FROM deliveries WHERE route = @route AND delivery_id = @delivery_id
       ORDER BY received_at DESC, seq DESC LIMIT 1)`,
  );
  for (const key of keys) giveKey.run(key);
  db.exec(`
    DROP TABLE idempotency_keys;
    DROP INDEX deliveries_delivery_id;
    CREATE INDEX deliveries_delivery_key ON deliveries (delivery_id, route);
  `);
};

/** Rows record which auth scheme verified their request (NULL: an INSECURE_NO_AUTH route, or older rows). */
const authSchemes: Migration = (db) => {
  db.exec('ALTER TABLE deliveries ADD COLUMN auth_scheme TEXT');
};

/** Resume points of background passes (reconcile keeps the newest forge delivery it saw). */
const addCursors: Migration = (db) => {
  db.exec(`
    CREATE TABLE cursors (
      name  TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) WITHOUT ROWID;
  `);
};

/**
 * Status `superseded` (a route's `supersede`): the status CHECK cannot be altered in place, so
 * the table is rebuilt with it, plus `superseded_by` (the journal id of the replacing row) and an
 * index on (order_key, status, seq) for finding a pull request's queued and delivered rows.
 */
const supersededStatus: Migration = (db) => {
  db.exec(`
    DROP VIEW journal;
    DROP TRIGGER deliveries_delete_payload;
    CREATE TABLE deliveries_new (
      id              TEXT PRIMARY KEY,
      seq             INTEGER NOT NULL UNIQUE,
      route           TEXT NOT NULL,
      event           TEXT NOT NULL,
      action          TEXT,
      delivery_id     TEXT NOT NULL,
      received_at     INTEGER NOT NULL,
      headers         TEXT NOT NULL,
      order_key       TEXT,
      max_attempts    INTEGER NOT NULL,
      status          TEXT NOT NULL
        CHECK (status IN ('queued', 'running', 'delivered', 'failed', 'superseded')),
      attempts        INTEGER NOT NULL DEFAULT 0,
      next_attempt_at INTEGER NOT NULL,
      prompt          TEXT,
      answer          TEXT,
      last_error      TEXT,
      started_at      INTEGER,
      finished_at     INTEGER,
      attempt_log     TEXT NOT NULL DEFAULT '[]',
      agent           TEXT,
      key_expires_at  INTEGER,
      auth_scheme     TEXT,
      superseded_by   TEXT                         -- journal id of the row that replaced it
    );
    INSERT INTO deliveries_new (id, seq, route, event, action, delivery_id, received_at, headers,
        order_key, max_attempts, status, attempts, next_attempt_at, prompt, answer, last_error,
        started_at, finished_at, attempt_log, agent, key_expires_at, auth_scheme)
      SELECT id, seq, route, event, action, delivery_id, received_at, headers, order_key,
        max_attempts, status, attempts, next_attempt_at, prompt, answer, last_error, started_at,
        finished_at, attempt_log, agent, key_expires_at, auth_scheme
      FROM deliveries;
    DROP TABLE deliveries;
    ALTER TABLE deliveries_new RENAME TO deliveries;
    CREATE INDEX deliveries_status_seq ON deliveries (status, seq);
    CREATE INDEX deliveries_route_seq ON deliveries (route, seq);
    CREATE INDEX deliveries_finished_at ON deliveries (finished_at);
    CREATE INDEX deliveries_delivery_key ON deliveries (delivery_id, route);
    CREATE INDEX deliveries_order_key ON deliveries (order_key, status, seq);
    CREATE TRIGGER deliveries_delete_payload AFTER DELETE ON deliveries
      BEGIN DELETE FROM delivery_payloads WHERE id = old.id; END;
    CREATE VIEW journal AS
      SELECT deliveries.*, delivery_payloads.payload
      FROM deliveries LEFT JOIN delivery_payloads USING (id);
  `);
};

/**
 * Rebuilds `deliveries` with `statuses` as the allowed values of its status CHECK (SQLite cannot
 * alter a CHECK in place): the table's own SQL with the list replaced, rows copied, and its
 * indexes, trigger and view re-created from their stored SQL. A later status addition calls it
 * again with the longer list.
 */
function allowStatuses(db: Database.Database, statuses: readonly string[]): void {
  const objects = db
    .prepare<[]>(
      `SELECT type, name, sql FROM sqlite_schema
       WHERE sql IS NOT NULL AND (tbl_name = 'deliveries' OR name = 'journal')`,
    )
    .all() as { type: string; name: string; sql: string }[];
  const table = objects.find((o) => o.type === 'table' && o.name === 'deliveries');
  const check = /CHECK \(status IN \([^)]*\)\)/;
  if (!table || !check.test(table.sql)) throw new Error('deliveries has no status CHECK to widen');
  const list = statuses.map((status) => `'${status.replace(/'/g, "''")}'`).join(', ');
  const others = objects.filter((o) => o !== table);
  for (const o of others) db.exec(`DROP ${o.type.toUpperCase()} "${o.name}"`);
  db.exec(
    table.sql
      .replace(check, `CHECK (status IN (${list}))`)
      .replace(/^CREATE TABLE "?deliveries"?/, 'CREATE TABLE deliveries_widened'),
  );
  db.exec(`
    INSERT INTO deliveries_widened SELECT * FROM deliveries;
    DROP TABLE deliveries;
    ALTER TABLE deliveries_widened RENAME TO deliveries;
  `);
  // Indexes first, then the trigger and the view that read the table.
  const order = ['index', 'trigger', 'view'];
  for (const o of others.sort((a, b) => order.indexOf(a.type) - order.indexOf(b.type))) {
    db.exec(o.sql);
  }
}

/** The worker's refusals: `denied` (the commenter's permission) and `over_budget`. */
const refusedStatuses: Migration = (db) => {
  allowStatuses(db, [
    'queued',
    'running',
    'delivered',
    'failed',
    'superseded',
    'denied',
    'over_budget',
  ]);
};

/** The agent's line comments next to its answer: a JSON array, NULL when it made none. */
const lineComments: Migration = (db) => {
  db.exec('ALTER TABLE deliveries ADD COLUMN line_comments TEXT');
};

/**
 * Fewer index writes per delivery. The order key's index loses its status column: each status
 * change (running, then delivered) moved the row within (order_key, status, seq), two more index
 * pages written per change, at random places since order keys are. A pull request has few rows,
 * so finding its queued or delivered ones by (order_key, seq) and checking their status on the
 * row costs next to nothing. The finished_at index (for pruning) holds finished rows only, so an
 * accept no longer adds a NULL entry to it.
 */
const leanIndexes: Migration = (db) => {
  db.exec(`
    DROP INDEX deliveries_order_key;
    CREATE INDEX deliveries_order_key_seq ON deliveries (order_key, seq);
    DROP INDEX deliveries_finished_at;
    CREATE INDEX deliveries_finished_at ON deliveries (finished_at) WHERE finished_at IS NOT NULL;
  `);
};

/** `silent`: an answer of exactly `[SILENT]`, not delivered. */
const silentStatus: Migration = (db) => {
  allowStatuses(db, [
    'queued',
    'running',
    'delivered',
    'failed',
    'superseded',
    'denied',
    'over_budget',
    'silent',
  ]);
};

/** Status `skipped`: the route's script dropped the delivery before its agent ran. */
const skippedStatus: Migration = (db) => {
  allowStatuses(db, [
    'queued',
    'running',
    'delivered',
    'failed',
    'superseded',
    'denied',
    'over_budget',
    'silent',
    'skipped',
  ]);
};

/**
 * A route's `coalesce`: how many deliveries a row replaced (`{_gateway.coalesced}`) and when its
 * burst began (its wait never passes `max_wait_s` from there). NULL on rows of other routes.
 */
const coalesceColumns: Migration = (db) => {
  db.exec(`
    ALTER TABLE deliveries ADD COLUMN coalesced INTEGER;
    ALTER TABLE deliveries ADD COLUMN burst_started_at INTEGER;
  `);
};

/**
 * The outbox: signed POSTs waiting to be sent (lifecycle events of `extra.outbound`, the `webhook`
 * target's answers), each written in the transaction of the change it reports. `due_at` is when a
 * sender may claim it: its next try, or its claim's lease end while claimed (`claim` holds the
 * claim's token). No status CHECK is touched: `deliveries` keeps its list.
 */
const outboxTable: Migration = (db) => {
  db.exec(`
    CREATE TABLE outbox (
      id          TEXT PRIMARY KEY,                -- the webhook-id of every try
      destination TEXT NOT NULL,                   -- outbound:<hash> or endpoint:<name>, never a URL
      body        TEXT NOT NULL,                   -- JSON, sent as it is
      created_at  INTEGER NOT NULL,
      expires_at  INTEGER NOT NULL,                -- dropped unsent after this
      due_at      INTEGER NOT NULL,
      attempts    INTEGER NOT NULL DEFAULT 0,      -- failed tries
      last_error  TEXT,
      claim       TEXT
    );
    CREATE INDEX outbox_due_at ON outbox (due_at);
    CREATE INDEX outbox_expires_at ON outbox (expires_at);
  `);
};

/** The agent's verdict on a review (`{"value","reason"}` JSON), NULL when it gave none. */
const conclusionColumn: Migration = (db) => {
  db.exec('ALTER TABLE deliveries ADD COLUMN conclusion TEXT');
};

/**
 * The findings each route's reviews posted on a pull or merge request, with their fates, so a
 * later review does not raise them again: one row per order key, the findings as JSON.
 */
const findingsTable: Migration = (db) => {
  db.exec(`
    CREATE TABLE findings (
      order_key TEXT PRIMARY KEY,                 -- route|repository|number
      findings  TEXT NOT NULL                     -- JSON: Finding[]
    ) WITHOUT ROWID;
  `);
};

/** A partial answer (a run a limit stopped, `agent.on_limit: partial`): 1, NULL for a complete one. */
const partialAnswers: Migration = (db) => {
  db.exec('ALTER TABLE deliveries ADD COLUMN partial INTEGER');
};

/**
 * What the gateway took out of a delivery's payload (hidden content) and answer (redactions):
 * a JSON object, NULL when nothing.
 */
const safetyColumn: Migration = (db) => {
  db.exec('ALTER TABLE deliveries ADD COLUMN safety TEXT');
};

/**
 * 18: the pauses of new attempts (`webhook-gateway pause`), kept across restarts: one row per
 * paused route, `''` for every route (a route name is never empty).
 */
const pausesTable: Migration = (db) => {
  db.exec(`
    CREATE TABLE pauses (
      route  TEXT PRIMARY KEY,                    -- '' = every route
      reason TEXT,
      since  INTEGER NOT NULL                     -- ms since the epoch
    ) WITHOUT ROWID;
  `);
};

/**
 * 19: the W3C `traceparent` of the request that journaled a delivery (with `observability.otlp`), so
 * its attempts join that trace; NULL when tracing was off.
 */
const traceContextColumn: Migration = (db) => {
  db.exec('ALTER TABLE deliveries ADD COLUMN trace_context TEXT');
};

/**
 * 20: an outbox message's trace context, its delivery's `traceparent` (with `observability.otlp`),
 * so its POSTs join that delivery's trace; NULL when the delivery was not traced.
 */
const outboxTraceContextColumn: Migration = (db) => {
  db.exec('ALTER TABLE outbox ADD COLUMN trace_context TEXT');
};

/** Every migration in order; append new ones, never edit a released one. */
export const migrations: readonly Migration[] = [
  createJournal,
  splitPayloads,
  keysOnRows,
  authSchemes,
  addCursors,
  supersededStatus,
  refusedStatuses,
  lineComments,
  leanIndexes,
  silentStatus,
  skippedStatus,
  coalesceColumns,
  outboxTable,
  conclusionColumn,
  findingsTable,
  partialAnswers,
  safetyColumn,
  pausesTable,
  traceContextColumn,
  outboxTraceContextColumn,
];

/** The schema version this code writes. */
export const SCHEMA_VERSION = migrations.length;

/** The version a database file is at (0 for a new file). */
export function schemaVersionOf(db: Database.Database): number {
  const version: unknown = db.pragma('user_version', { simple: true });
  if (typeof version !== 'number') {
    throw new Error(`PRAGMA user_version returned ${String(version)}, not a number`);
  }
  return version;
}

/**
 * Brings a database up to `SCHEMA_VERSION`. Refuses a file written by a newer version rather
 * than guess at columns it does not know.
 */
export function migrate(db: Database.Database, steps: readonly Migration[] = migrations): void {
  const apply = db.transaction(() => {
    // Read again inside the write lock: another process may have migrated meanwhile.
    const from = schemaVersionOf(db);
    if (from > steps.length) {
      throw new Error(
        `the database is at schema version ${from}, newer than this webhook-gateway understands ` +
          `(${steps.length}); upgrade webhook-gateway or point store.path at another file`,
      );
    }
    for (let version = from; version < steps.length; version++) {
      steps[version]?.(db);
      db.pragma(`user_version = ${version + 1}`);
    }
  });
  if (schemaVersionOf(db) !== steps.length) apply.immediate();
}
