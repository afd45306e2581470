import { statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openDatabase } from './connection.js';
import { storeDefaultPath } from './store-options.js';
import { migrate, migrations, SCHEMA_VERSION, schemaVersionOf } from './schema.js';
import { SqliteStore } from './sqlite-store.js';
import { useTestStores } from './test-support/stores.js';

const { dir } = useTestStores();

/** Opens with `openDatabase`, runs `inspect`, closes. */
function withDatabase<T>(file: string, fsync: boolean, inspect: (db: Database.Database) => T): T {
  const db = openDatabase({ path: file, fsync });
  try {
    return inspect(db);
  } finally {
    db.close();
  }
}

describe('storeDefaultPath', () => {
  it('puts the journal at <home>/state.db', () => {
    expect(storeDefaultPath('/srv/gateway')).toBe(path.join('/srv/gateway', 'state.db'));
  });
});

describe('openDatabase', () => {
  it('creates the missing directory and a file only its owner can read', () => {
    const file = path.join(dir(), 'nested', 'home', 'state.db');
    withDatabase(file, false, () => undefined);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('opens in WAL mode with a busy timeout and synchronous NORMAL by default', () => {
    const file = path.join(dir(), 'state.db');
    withDatabase(file, false, (db) => {
      expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
      expect(db.pragma('busy_timeout', { simple: true })).toBe(5000);
      expect(db.pragma('synchronous', { simple: true })).toBe(1); // NORMAL
    });
  });

  it('uses synchronous FULL when fsync is on', () => {
    withDatabase(path.join(dir(), 'state.db'), true, (db) => {
      expect(db.pragma('synchronous', { simple: true })).toBe(2); // FULL
    });
  });

  it('creates the journal and subscriptions tables and their indexes at the current schema version', () => {
    withDatabase(path.join(dir(), 'state.db'), false, (db) => {
      expect(schemaVersionOf(db)).toBe(SCHEMA_VERSION);
      const names = db
        .prepare<[]>(
          `SELECT name FROM sqlite_schema WHERE type IN ('table', 'index') ORDER BY name`,
        )
        .pluck()
        .all();
      expect(names).toEqual(
        expect.arrayContaining([
          'deliveries',
          'delivery_payloads',
          'subscriptions',
          'journal_sequence',
          'deliveries_status_seq',
          'deliveries_route_seq',
          'deliveries_delivery_key',
          'deliveries_finished_at',
        ]),
      );
      expect(names).not.toContain('idempotency_keys');
    });
  });

  it('refuses a file written by a newer schema version and says what to do', () => {
    const file = path.join(dir(), 'state.db');
    const db = new Database(file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 1}`);
    db.close();
    expect(() => openDatabase({ path: file })).toThrow(
      `the database is at schema version ${SCHEMA_VERSION + 1}, newer than this webhook-gateway ` +
        `understands (${SCHEMA_VERSION}); upgrade webhook-gateway`,
    );
  });
});

describe('migrate', () => {
  it('applies only the steps a file lacks, each once', () => {
    const db = new Database(path.join(dir(), 'state.db'));
    try {
      const applied: number[] = [];
      const steps = [1, 2, 3].map((step) => () => void applied.push(step));
      migrate(db, steps.slice(0, 2));
      migrate(db, steps);
      migrate(db, steps);
      expect(applied).toEqual([1, 2, 3]);
      expect(schemaVersionOf(db)).toBe(3);
    } finally {
      db.close();
    }
  });

  it('leaves the version unchanged when a step fails', () => {
    const db = new Database(path.join(dir(), 'state.db'));
    try {
      const failing = () => {
        throw new Error('bad step');
      };
      expect(() => migrate(db, [() => undefined, failing])).toThrow('bad step');
      expect(schemaVersionOf(db)).toBe(0);
    } finally {
      db.close();
    }
  });
});

describe('schema version 2: payloads in their own table', () => {
  it('moves the payloads of a version 1 file, and the rows read back as before', async () => {
    const file = path.join(dir(), 'state.db');
    const old = new Database(file);
    migrate(old, migrations.slice(0, 1));
    old
      .prepare(
        `INSERT INTO deliveries (id, seq, route, event, action, delivery_id, received_at, payload,
           headers, order_key, max_attempts, status, attempts, next_attempt_at, finished_at)
         VALUES ('j-1', 1, 'reviews', 'pull_request', 'opened', 'd-1', 1700000000000,
           '{"number":7,"title":"Old row"}', '{"x-forge-event":"pull_request"}', NULL, 5,
           'delivered', 1, 1700000000000, 1700000000001)`,
      )
      .run();
    old.close();

    const store = new SqliteStore({ path: file });
    try {
      const record = await store.get('d-1');
      expect(record).toMatchObject({
        id: 'j-1',
        status: 'delivered',
        payload: { number: 7, title: 'Old row' },
        headers: { 'x-forge-event': 'pull_request' },
      });
      // Pruning a row takes its payload with it.
      await store.prune(Number.MAX_SAFE_INTEGER, Date.now());
      const check = new Database(file, { readonly: true });
      expect(check.prepare('SELECT count(*) FROM delivery_payloads').pluck().get()).toBe(0);
      check.close();
    } finally {
      await store.close();
    }
  });
});

describe('schema version 3: de-duplication keys on the journal rows', () => {
  it('keeps every live key of a version 2 file, on the newest row of its delivery id', async () => {
    const file = path.join(dir(), 'state.db');
    const old = new Database(file);
    migrate(old, migrations.slice(0, 2));
    const insert = old.prepare<[string, number, string, number, string]>(
      `INSERT INTO deliveries (id, seq, route, event, action, delivery_id, received_at, headers,
         order_key, max_attempts, status, attempts, next_attempt_at)
       VALUES (?, ?, 'reviews', 'pull_request', 'opened', ?, ?, '{}', NULL, 5, ?, 1, 0)`,
    );
    const T0 = 1_700_000_000_000;
    insert.run('j-1', 1, 'live', T0, 'delivered');
    // Failed for good (its key released), then redelivered by the sender: the new row holds it.
    insert.run('j-2', 2, 'redelivered', T0, 'failed');
    insert.run('j-3', 3, 'redelivered', T0 + 10, 'queued');
    insert.run('j-4', 4, 'expired', T0, 'delivered');
    const key = old.prepare<[string, number]>(
      `INSERT INTO idempotency_keys (route, delivery_id, expires_at) VALUES ('reviews', ?, ?)`,
    );
    key.run('live', T0 + 3_600_000);
    key.run('redelivered', T0 + 3_600_010);
    key.run('expired', T0 - 1);
    // A key whose row is gone (pruned) has nothing to go with.
    key.run('pruned', T0 + 3_600_000);
    old.prepare('UPDATE journal_sequence SET last_seq = 4').run();
    old.close();

    const store = new SqliteStore({ path: file });
    try {
      const accept = (deliveryId: string) =>
        store.accept(
          {
            route: 'reviews',
            event: 'pull_request',
            action: 'opened',
            deliveryId,
            receivedAt: T0 + 60_000,
            payload: {},
            headers: {},
            orderKey: null,
            maxAttempts: 5,
          },
          3_600_000,
        );
      expect((await accept('live')).accepted).toBe(false);
      expect((await accept('redelivered')).accepted).toBe(false);
      expect((await accept('expired')).accepted).toBe(true);
      expect((await accept('pruned')).accepted).toBe(true);
      const check = new Database(file, { readonly: true });
      const keys = check
        .prepare<[]>(`SELECT id, key_expires_at FROM deliveries WHERE id LIKE 'j-%' ORDER BY id`)
        .all();
      check.close();
      expect(keys).toEqual([
        { id: 'j-1', key_expires_at: T0 + 3_600_000 },
        { id: 'j-2', key_expires_at: null },
        { id: 'j-3', key_expires_at: T0 + 3_600_010 },
        { id: 'j-4', key_expires_at: T0 - 1 },
      ]);
    } finally {
      await store.close();
    }
  });
});

describe('schema version 7: the refused statuses', () => {
  it('widens the status check of the file before it, keeping its rows, payloads, key and view', async () => {
    const file = path.join(dir(), 'state.db');
    const old = new Database(file);
    migrate(old, migrations.slice(0, 6));
    const T0 = 1_700_000_000_000;
    old
      .prepare(
        `INSERT INTO deliveries (id, seq, route, event, action, delivery_id, received_at, headers,
           order_key, max_attempts, status, attempts, next_attempt_at, key_expires_at, auth_scheme)
         VALUES ('j-1', 1, 'review', 'issue_comment', 'created', 'd-1', ${T0}, '{}', NULL, 5,
           'queued', 0, ${T0}, ${Number.MAX_SAFE_INTEGER}, 'forge')`,
      )
      .run();
    const indexes = `SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'deliveries' ORDER BY name`;
    const before = old.prepare(indexes).pluck().all();
    old.prepare(`INSERT INTO delivery_payloads (id, payload) VALUES ('j-1', '{"n":1}')`).run();
    expect(() =>
      old.prepare(`UPDATE deliveries SET status = 'denied' WHERE id = 'j-1'`).run(),
    ).toThrow(/CHECK constraint failed/);
    old.close();

    const store = new SqliteStore({ path: file });
    try {
      await store.markRunning('j-1', T0 + 1);
      await store.markRefused('j-1', 'denied', 'permission: reader has read', T0 + 2);
      expect(await store.get('j-1')).toMatchObject({
        status: 'denied',
        payload: { n: 1 },
        authScheme: 'forge',
        lastError: 'permission: reader has read',
      });
      const again = await store.accept(
        {
          route: 'review',
          event: 'issue_comment',
          action: 'created',
          deliveryId: 'd-1',
          receivedAt: T0 + 3,
          payload: {},
          headers: {},
          orderKey: null,
          maxAttempts: 5,
        },
        3_600_000,
      );
      expect(again).toEqual({ accepted: false, reason: 'duplicate' });
      // The trigger came back: pruning the row takes its payload with it.
      await store.prune(Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER);
    } finally {
      await store.close();
    }
    const check = new Database(file, { readonly: true });
    expect(check.prepare('SELECT count(*) FROM delivery_payloads').pluck().get()).toBe(0);
    // The same indexes, but for the order key's, which version 9 rebuilt without the status.
    const rebuilt = before.map((name) =>
      name === 'deliveries_order_key' ? 'deliveries_order_key_seq' : name,
    );
    expect(check.prepare(indexes).pluck().all()).toEqual(rebuilt.sort());
    check.close();
  });
});

describe('schema version 8: line comments', () => {
  it('reads the rows of a version 7 file without line comments, and keeps new ones', async () => {
    const file = path.join(dir(), 'state.db');
    const old = new Database(file);
    migrate(old, migrations.slice(0, 7));
    const T0 = 1_700_000_000_000;
    old
      .prepare(
        `INSERT INTO deliveries (id, seq, route, event, action, delivery_id, received_at, headers,
           order_key, max_attempts, status, attempts, next_attempt_at, answer)
         VALUES ('j-1', 1, 'review', 'pull_request', 'opened', 'd-1', ${T0}, '{}', NULL, 5,
           'delivered', 1, ${T0}, 'Looks good.')`,
      )
      .run();
    old.prepare(`INSERT INTO delivery_payloads (id, payload) VALUES ('j-1', '{}')`).run();
    old.close();

    const store = new SqliteStore({ path: file });
    try {
      const before = await store.get('j-1');
      expect(before?.answer).toBe('Looks good.');
      expect(before).not.toHaveProperty('lineComments');
      const lineComments = [{ path: 'src/a.ts', line: 12, body: 'off by one' }];
      await store.saveProgress('j-1', { lineComments });
      expect((await store.get('j-1'))?.lineComments).toEqual(lineComments);
    } finally {
      await store.close();
    }
  });
});

describe('schema version 9: leaner indexes', () => {
  it('replaces the order key and finished_at indexes of a version 8 file and still finds a pull request’s rows', async () => {
    const file = path.join(dir(), 'state.db');
    const old = new Database(file);
    migrate(old, migrations.slice(0, 8));
    const T0 = 1_700_000_000_000;
    const insert = old.prepare<[string, number, string, string]>(
      `INSERT INTO deliveries (id, seq, route, event, action, delivery_id, received_at, headers,
         order_key, max_attempts, status, attempts, next_attempt_at)
       VALUES (?, ?, 'review', 'pull_request', 'synchronize', ?, ${T0}, '{}',
         'review|octo/repo|7', 5, ?, 1, ${T0})`,
    );
    insert.run('j-1', 1, 'd-1', 'delivered');
    insert.run('j-2', 2, 'd-2', 'queued');
    old
      .prepare(`INSERT INTO delivery_payloads (id, payload) VALUES ('j-1', '{}'), ('j-2', '{}')`)
      .run();
    old.close();

    const store = new SqliteStore({ path: file });
    try {
      expect((await store.lastDelivered('review|octo/repo|7', 'j-9'))?.id).toBe('j-1');
    } finally {
      await store.close();
    }
    const check = new Database(file, { readonly: true });
    const indexes = check
      .prepare(`SELECT name FROM sqlite_schema WHERE type = 'index' AND tbl_name = 'deliveries'`)
      .pluck()
      .all();
    expect(indexes).toContain('deliveries_order_key_seq');
    expect(indexes).not.toContain('deliveries_order_key');
    const finishedAt = check
      .prepare(`SELECT sql FROM sqlite_schema WHERE name = 'deliveries_finished_at'`)
      .pluck()
      .get();
    expect(finishedAt).toMatch(/WHERE finished_at IS NOT NULL$/);
    check.close();
  });
});

describe('schema version 13: the outbox', () => {
  it('adds the outbox to a version 12 file, whose rows then write their lifecycle events', async () => {
    const file = path.join(dir(), 'state.db');
    const old = new Database(file);
    migrate(old, migrations.slice(0, 12));
    const T0 = 1_700_000_000_000;
    old
      .prepare(
        `INSERT INTO deliveries (id, seq, route, event, action, delivery_id, received_at, headers,
           order_key, max_attempts, status, attempts, next_attempt_at, started_at, attempt_log)
         VALUES ('j-1', 1, 'review', 'pull_request', 'opened', 'd-1', ${T0}, '{}', NULL, 5,
           'running', 1, ${T0}, ${T0},
           '[{"attempt":1,"startedAt":${T0},"finishedAt":null,"error":null}]')`,
      )
      .run();
    old.prepare(`INSERT INTO delivery_payloads (id, payload) VALUES ('j-1', '{}')`).run();
    old.close();

    const store = new SqliteStore({ path: file });
    try {
      const plan = {
        subscriptions: [
          { destination: 'outbound:ops', events: ['silent' as const], includeAnswer: false },
        ],
      };
      await store.markDelivered('j-1', T0 + 5, 'silent', plan);
      const { messages } = await store.claimOutbox(T0 + 6, 60_000, 10);
      expect(messages).toHaveLength(1);
      expect(JSON.parse(messages[0]?.body ?? '{}')).toMatchObject({
        type: 'delivery.silent',
        data: { journal_id: 'j-1', status: 'silent', attempt: 1 },
      });
    } finally {
      await store.close();
    }
    const check = new Database(file, { readonly: true });
    expect(schemaVersionOf(check)).toBe(SCHEMA_VERSION);
    const status = check
      .prepare(`SELECT sql FROM sqlite_schema WHERE name = 'deliveries'`)
      .pluck()
      .get();
    // The outbox touched no status: the CHECK still lists every one, silent and skipped too.
    expect(status).toContain(
      "CHECK (status IN ('queued', 'running', 'delivered', 'failed', 'superseded', 'denied', 'over_budget', 'silent', 'skipped'))",
    );
    check.close();
  });
});

describe('schema version 14: the conclusion', () => {
  it('adds the column to a version 13 file; its rows read with no conclusion, then keep one', async () => {
    const file = path.join(dir(), 'state.db');
    const old = new Database(file);
    migrate(old, migrations.slice(0, 13));
    const T0 = 1_700_000_000_000;
    old
      .prepare(
        `INSERT INTO deliveries (id, seq, route, event, action, delivery_id, received_at, headers,
           order_key, max_attempts, status, attempts, next_attempt_at, started_at, attempt_log)
         VALUES ('j-1', 1, 'review', 'pull_request', 'opened', 'd-1', ${T0}, '{}', NULL, 5,
           'running', 1, ${T0}, ${T0},
           '[{"attempt":1,"startedAt":${T0},"finishedAt":null,"error":null}]')`,
      )
      .run();
    old.prepare(`INSERT INTO delivery_payloads (id, payload) VALUES ('j-1', '{}')`).run();
    old.close();

    const store = new SqliteStore({ path: file });
    try {
      expect((await store.get('j-1'))?.conclusion).toBeUndefined();
      await store.saveProgress('j-1', { answer: 'ok', conclusion: { value: 'success' } });
      expect((await store.get('j-1'))?.conclusion).toEqual({ value: 'success' });
    } finally {
      await store.close();
    }
  });
});

describe('schema version 15: findings', () => {
  it('adds the findings table to a version 14 file, keeping its rows, and the store reads and writes it', async () => {
    const file = path.join(dir(), 'state.db');
    const old = new Database(file);
    migrate(old, migrations.slice(0, 14));
    old.prepare(`INSERT INTO cursors (name, value) VALUES ('kept', 'yes')`).run();
    old.close();

    const store = new SqliteStore({ path: file });
    const finding = {
      fingerprint: 'ab12',
      path: 'src/a.ts',
      line: 2,
      body: 'b is unused',
      lineText: 'const b = 2;',
      state: 'open' as const,
      raisedBy: 'd-1',
    };
    try {
      expect(await store.readCursor('kept')).toBe('yes');
      expect(await store.findings('review|octo/repo|1')).toEqual([]);
      await store.saveFindings('review|octo/repo|1', [finding]);
    } finally {
      await store.close();
    }
    const reopened = new SqliteStore({ path: file });
    try {
      expect(await reopened.findings('review|octo/repo|1')).toEqual([finding]);
    } finally {
      await reopened.close();
    }
  });
});

describe('schema version 16: the partial column', () => {
  it('reads the rows of a version 15 file as complete answers, and keeps a partial one after', async () => {
    const file = path.join(dir(), 'state.db');
    const old = new Database(file);
    migrate(old, migrations.slice(0, 15));
    const T0 = 1_700_000_000_000;
    for (const [seq, id] of ['j-1', 'j-2'].entries()) {
      old
        .prepare(
          `INSERT INTO deliveries (id, seq, route, event, action, delivery_id, received_at, headers,
             order_key, max_attempts, status, attempts, next_attempt_at, started_at, attempt_log)
           VALUES ('${id}', ${seq + 1}, 'review', 'pull_request', 'opened', 'd-${id}', ${T0}, '{}', NULL, 5,
             'running', 1, ${T0}, ${T0},
             '[{"attempt":1,"startedAt":${T0},"finishedAt":null,"error":null}]')`,
        )
        .run();
      old.prepare(`INSERT INTO delivery_payloads (id, payload) VALUES ('${id}', '{}')`).run();
    }
    old.close();

    const store = new SqliteStore({ path: file });
    try {
      await store.saveProgress('j-2', { answer: 'Stopped early.', partial: true });
      expect((await store.get('j-1'))?.partial).toBeUndefined();
      expect(await store.get('j-2')).toMatchObject({ answer: 'Stopped early.', partial: true });
    } finally {
      await store.close();
    }
  });
});

describe('the safety column', () => {
  it('reads a row of an older file with no safety, and keeps one saved after the migration', async () => {
    const file = path.join(dir(), 'state.db');
    const old = new Database(file);
    const at = migrations.findIndex((step) => step.name === 'safetyColumn');
    migrate(old, migrations.slice(0, at));
    const T0 = 1_700_000_000_000;
    old
      .prepare(
        `INSERT INTO deliveries (id, seq, route, event, action, delivery_id, received_at, headers,
           order_key, max_attempts, status, attempts, next_attempt_at, started_at, attempt_log)
         VALUES ('j-1', 1, 'review', 'pull_request', 'opened', 'd-1', ${T0}, '{}', NULL, 5,
           'running', 1, ${T0}, ${T0},
           '[{"attempt":1,"startedAt":${T0},"finishedAt":null,"error":null}]')`,
      )
      .run();
    old.prepare(`INSERT INTO delivery_payloads (id, payload) VALUES ('j-1', '{}')`).run();
    old.close();

    const store = new SqliteStore({ path: file });
    try {
      expect((await store.get('j-1'))?.safety).toBeUndefined();
      const safety = { redactions: 3, hidden: [{ field: 'body', removed: { 'HTML comment': 1 } }] };
      await store.saveProgress('j-1', { safety });
      expect((await store.get('j-1'))?.safety).toEqual(safety);
    } finally {
      await store.close();
    }
  });
});
