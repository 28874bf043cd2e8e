import Database from 'better-sqlite3';
import path from 'node:path';
import { migrations } from './migrations.ts';

export type Db = Database.Database;

/** Opens (creating if needed) the platform database and applies pending migrations. */
export function openDatabase(dataDir: string): Db {
  const db = new Database(path.join(dataDir, 'ivory.db'));
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);
  return db;
}

/**
 * Runs `fn` (one write transaction) with synchronous = NORMAL: its commit skips the WAL fsync,
 * so it survives a crash of the process but maybe not a power cut; the next FULL commit makes it
 * durable. Only for rows whose loss the caller detects and recovers from. Inside another
 * transaction (where SQLite cannot change the setting) `fn` is simply part of that one.
 */
export function withoutFsync<T>(db: Db, fn: () => T): T {
  if (db.inTransaction) return fn();
  db.pragma('synchronous = NORMAL');
  try {
    return fn();
  } finally {
    db.pragma('synchronous = FULL');
  }
}

function migrate(db: Db): void {
  db.exec(
    'CREATE TABLE IF NOT EXISTS migrations (version INTEGER PRIMARY KEY, applied_at INTEGER NOT NULL)',
  );
  const applied = new Set(
    db
      .prepare('SELECT version FROM migrations')
      .pluck()
      .all()
      .map((v) => Number(v)),
  );
  migrations.forEach((migration, index) => {
    const version = index + 1;
    if (applied.has(version)) return;
    db.transaction(() => {
      if (typeof migration === 'string') db.exec(migration);
      else migration(db);
      db.prepare('INSERT INTO migrations (version, applied_at) VALUES (?, ?)').run(
        version,
        Date.now(),
      );
    })();
  });
}

/** Reads a value from the settings table, creating it with `create()` the first time. */
export function ensureSetting(db: Db, key: string, create: () => string): string {
  const existing = db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(key);
  if (typeof existing === 'string') return existing;
  const value = create();
  db.prepare('INSERT OR IGNORE INTO settings (key, value) VALUES (?, ?)').run(key, value);
  return db.prepare('SELECT value FROM settings WHERE key = ?').pluck().get(key) as string;
}
