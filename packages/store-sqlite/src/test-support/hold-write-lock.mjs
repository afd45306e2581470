// Holds the write lock of a SQLite file for a while, as another process (the CLI) might.
// Usage: node hold-write-lock.mjs <db path> <hold ms>
import Database from 'better-sqlite3';

const [file, holdMs] = process.argv.slice(2);
const db = new Database(file);
db.exec('BEGIN IMMEDIATE');
process.stdout.write('locked\n');
Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Number(holdMs));
db.exec('COMMIT');
db.close();
