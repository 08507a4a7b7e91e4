/**
 * The audit database's schema and its versioned migrations. `PRAGMA user_version` holds the schema
 * version; each migration runs once, in one transaction with the version bump, so a database is either
 * wholly at the old version or wholly at the new one. A database from a newer Junction is refused
 * rather than written in a shape it does not expect.
 */
import type Database from 'better-sqlite3';

const BASE = `
CREATE TABLE IF NOT EXISTS calls (
  seq INTEGER PRIMARY KEY,
  call_id TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  agent TEXT NOT NULL,
  transport TEXT NOT NULL,
  tool TEXT NOT NULL,
  target TEXT NOT NULL,
  status TEXT NOT NULL,
  error_code TEXT,
  duration_ms INTEGER,
  request_bytes INTEGER NOT NULL,
  response_bytes INTEGER,
  arguments TEXT NOT NULL,
  result TEXT,
  redacted TEXT,
  truncated INTEGER NOT NULL DEFAULT 0,
  policy TEXT,
  decided_by TEXT,
  replay_of TEXT
);
CREATE INDEX IF NOT EXISTS calls_call_id ON calls(call_id);
CREATE INDEX IF NOT EXISTS calls_started_at ON calls(started_at);
CREATE INDEX IF NOT EXISTS calls_tool ON calls(tool, seq);
CREATE INDEX IF NOT EXISTS calls_agent ON calls(agent, seq);
CREATE INDEX IF NOT EXISTS calls_status ON calls(status, seq);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  kind TEXT NOT NULL,
  workspace_id TEXT,
  transaction_id TEXT,
  data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_at ON events(at);
CREATE INDEX IF NOT EXISTS events_transaction ON events(transaction_id, seq);
`;

/** The calls' columns the full-text index covers, in its column order. */
export const SEARCHED_COLUMNS = ['tool', 'agent', 'target', 'call_id', 'error_code', 'arguments', 'result'] as const;

const searched = SEARCHED_COLUMNS.join(', ');
const fromRow = (row: 'new' | 'old') => SEARCHED_COLUMNS.map((c) => `${row}.${c}`).join(', ');

/**
 * Version 1: a full-text index over the searchable text of every call. Contentless (the text already lives
 * in `calls`), with deletes by rowid so retention needs no re-tokenising; triggers keep it in step inside
 * the writing transaction, whoever writes. The backfill indexes the calls an older Junction recorded.
 */
const SEARCH_INDEX = `
CREATE VIRTUAL TABLE calls_fts USING fts5(${searched}, content='', contentless_delete=1);
CREATE TRIGGER calls_fts_insert AFTER INSERT ON calls BEGIN
  INSERT INTO calls_fts(rowid, ${searched}) VALUES (new.seq, ${fromRow('new')});
END;
CREATE TRIGGER calls_fts_delete AFTER DELETE ON calls BEGIN
  DELETE FROM calls_fts WHERE rowid = old.seq;
END;
CREATE TRIGGER calls_fts_update AFTER UPDATE ON calls BEGIN
  DELETE FROM calls_fts WHERE rowid = old.seq;
  INSERT INTO calls_fts(rowid, ${searched}) VALUES (new.seq, ${fromRow('new')});
END;
INSERT INTO calls_fts(rowid, ${searched}) SELECT seq, ${searched} FROM calls;
`;

/** Migration n takes a database from version n to n + 1. Append only: a released step never changes. */
const MIGRATIONS: readonly string[] = [SEARCH_INDEX];

export const SCHEMA_VERSION = MIGRATIONS.length;

export interface MigrationReport {
  from: number;
  to: number;
  /** Calls already recorded when the database was migrated: what the search index's backfill covered. */
  calls: number;
  ms: number;
}

/** The database's schema version; throws, changing nothing, when a newer Junction wrote it. */
export function assertSupported(db: Database.Database): number {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw Object.assign(new Error(`its schema version ${version} is newer than this Junction's (${SCHEMA_VERSION}); use a newer Junction or move the file aside`), { code: 'SCHEMA_NEWER' });
  }
  return version;
}

/** Brings a database to the current schema; undefined when it already was. Throws for a newer schema. */
export function migrate(db: Database.Database): MigrationReport | undefined {
  const from = assertSupported(db);
  db.exec(BASE);
  if (from === SCHEMA_VERSION) return undefined;
  const started = performance.now();
  const { n } = db.prepare('SELECT COUNT(*) AS n FROM calls').get() as { n: number };
  db.transaction(() => {
    for (const step of MIGRATIONS.slice(from)) db.exec(step);
    db.pragma(`user_version = ${SCHEMA_VERSION}`);
  })();
  return { from, to: SCHEMA_VERSION, calls: n, ms: performance.now() - started };
}
