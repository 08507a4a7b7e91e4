/**
 * The audit database's one writing connection: writes a batch of stored records in one transaction
 * (wholly in the file or not at all), indexes calls for search a chunk at a time, and applies retention.
 * Synchronous and free of timers and queues, so it runs the same on the main thread or in the store's
 * worker thread; every failure is thrown to the caller, which decides what the operator is told.
 */
import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { CALL_FIELDS, describeDbError, openAuditDatabase } from './database.js';
import type { RedactionRules } from './redact.js';
import type { RowParams } from './rows.js';
import { searchIndexStatements, timeMapStatement, type MigrationReport, type UpgradeListener } from './schema.js';

/**
 * A batch as the writer takes it: its calls as the UTF-8 text of one JSON array of rows (each the text of
 * a `StoredRecord`'s row; empty when there are none), its events by their columns. The first
 * `spilled.calls` calls and `spilled.events` events came back from the spill file (see `AuditWriter.write`).
 */
export interface WriteBatch {
  calls: Buffer;
  events: readonly RowParams[];
  spilled: { calls: number; events: number };
}

export interface AuditWriterOptions {
  path: string;
  rules: RedactionRules;
  /** Calls and events older than this are deleted. */
  retentionDays: number;
  /** The file and its write-ahead log are kept under this size by deleting the oldest records. */
  maxBytes: number;
  /** Largest stored JSON text for arguments, a result or an event payload; longer values keep a text preview. */
  previewBytes: number;
}

const DAY_MS = 86_400_000;
const PRUNE_EVERY_MS = 60_000;
/** Rows one retention statement deletes, so a large backlog of expired records is removed in short steps. */
const PRUNE_STEP = 10_000;
/**
 * Longest the size-cap pass run when the database opens may take (on the main thread, at start) before
 * it stops and continues after the first batch. After a batch it runs to the end: the cap must hold, and
 * the writer thread's pause costs the agents nothing (their records queue meanwhile).
 */
const OPEN_PRUNE_BUDGET_MS = 25;
/** Age-based retention gives freed pages back once they are over this share of the file (see `mostlyFree`). */
const VACUUM_FREE_SHARE = 0.25;
/** A pass deletes down to this share of the cap, so the next batches fit without another. */
const CAP_TARGET = 0.9;
/**
 * Calls indexed for search at once: a batch that leaves this many unindexed indexes them (see schema.ts,
 * version 6). A search indexes what is left first, at most this many calls, about 50 ms of the writer's time.
 */
export const INDEX_CHUNK = 8192;

export class AuditWriter {
  private db: Database.Database | undefined;
  private writeBatch: ((batch: WriteBatch) => void) | undefined;
  private indexAll: (() => void) | undefined;
  private lastPrune = 0;

  /**
   * `now` is the store's clock, given with each request: retention ages records by the clock that recorded
   * them. `upgrade` hears how an upgrade of recorded history goes.
   */
  constructor(
    private readonly options: AuditWriterOptions,
    private readonly upgrade: UpgradeListener = {},
  ) {}

  get isOpen(): boolean {
    return this.db !== undefined;
  }

  /** Opens and migrates the database when it is not open yet; the migration's report when one ran. */
  open(now: number): MigrationReport | undefined {
    if (this.db) return undefined;
    let report: MigrationReport | undefined;
    const db = openAuditDatabase(this.options.path, { migrated: (r) => (report = r), upgrade: this.upgrade });
    this.db = db;
    this.prepare(db);
    this.guard(() => this.prune(now, OPEN_PRUNE_BUDGET_MS));
    return report;
  }

  /**
   * Writes a batch in one transaction (a throw means none of it is in the file), then applies retention
   * when it is due; a retention failure is returned, not thrown, since the batch itself is written.
   * The spilled records came back from the spill file: an earlier run may have written them before it
   * was killed, so each is written only when the file does not hold it yet (see `prepare`).
   */
  write(batch: WriteBatch, now: number): { migrated?: MigrationReport; pruneError?: unknown } {
    const migrated = this.open(now);
    this.guard(() => this.writeBatch?.(batch));
    const out: { migrated?: MigrationReport; pruneError?: unknown } = migrated ? { migrated } : {};
    // The size cap holds after every batch; age-based retention, which scans, once a minute.
    const due = now - this.lastPrune >= PRUNE_EVERY_MS;
    try {
      this.guard(() => (due ? this.prune(now) : this.capSize()));
    } catch (error) {
      out.pruneError = error;
    }
    return out;
  }

  /** Indexes for search every call not indexed yet, in one transaction (the writer otherwise waits for a chunk). */
  indexRest(now: number): MigrationReport | undefined {
    const migrated = this.open(now);
    this.guard(() => this.indexAll?.());
    return migrated;
  }

  /** Deletes records past the retention age, then the oldest until the files fit `maxBytes` (see `capSize`). */
  prune(now: number, budgetMs = Number.POSITIVE_INFINITY): void {
    const db = this.db;
    if (!db) return;
    this.lastPrune = now;
    const cutoff = now - this.options.retentionDays * DAY_MS;
    const expiredCalls = db.prepare('DELETE FROM calls WHERE seq IN (SELECT seq FROM calls WHERE started_at < ? LIMIT ?)').run(cutoff, PRUNE_STEP).changes;
    const expiredEvents = db.prepare('DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE at < ? LIMIT ?)').run(cutoff, PRUNE_STEP).changes;
    // More expired rows remain: the next flush continues instead of one long pause now.
    const backlog = expiredCalls === PRUNE_STEP || expiredEvents === PRUNE_STEP;
    if (backlog) this.lastPrune = 0;
    const capped = this.capSize(budgetMs);
    // What ends a pass waits for its last step: after each step of a backlog it would give back pages that
    // the next step frees more of and that new calls take again, and checkpoint a log that keeps growing
    // (a quarter to a third of retention's cost per call in bench:audit's loop part, which retires a day of
    // calls at once).
    if (backlog) return;
    if (!capped) {
      if (this.mostlyFree(db)) db.pragma('incremental_vacuum');
      db.pragma('wal_checkpoint(PASSIVE)');
    }
    // Keeps the planner's statistics current, so a filtered page walks the most selective index.
    db.pragma('optimize');
  }

  /**
   * Keeps the database file and its write-ahead log together under `maxBytes`: checked after every
   * batch (three pragmas and a stat), so the cap holds as writes happen. Over it, the log is checkpointed
   * and cut to nothing, then the oldest records go until the rest fills a `CAP_TARGET` share of the cap
   * (or `budgetMs` ran out; the next batch continues), and the freed pages go back to the file system.
   * True when it had to act.
   */
  private capSize(budgetMs = Number.POSITIVE_INFINITY): boolean {
    const db = this.db;
    if (!db || this.bytesOnDisk(db) <= this.options.maxBytes) return false;
    db.pragma('wal_checkpoint(TRUNCATE)');
    const pageSize = db.pragma('page_size', { simple: true }) as number;
    const used = () => ((db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number)) * pageSize;
    const started = performance.now();
    while (used() > this.options.maxBytes * CAP_TARGET) {
      const { n } = db.prepare('SELECT COUNT(*) AS n FROM calls').get() as { n: number };
      const { e } = db.prepare('SELECT COUNT(*) AS e FROM events').get() as { e: number };
      if (n + e === 0) break;
      // A tenth of the oldest rows per round: few rounds, and no more history lost than the cap demands.
      db.prepare('DELETE FROM calls WHERE seq IN (SELECT seq FROM calls ORDER BY seq LIMIT ?)').run(Math.min(PRUNE_STEP, Math.max(1, Math.ceil(n / 10))));
      db.prepare('DELETE FROM events WHERE seq IN (SELECT seq FROM events ORDER BY seq LIMIT ?)').run(Math.min(PRUNE_STEP, Math.max(1, Math.ceil(e / 10))));
      if (performance.now() - started > budgetMs) break;
    }
    db.pragma('incremental_vacuum');
    // The deletes went to the log: copied into the file and cut again, so what is on disk is the file alone.
    db.pragma('wal_checkpoint(TRUNCATE)');
    return true;
  }

  /**
   * Whether free pages are over VACUUM_FREE_SHARE of the file, worth giving back to the file system after
   * age-based retention. Below it they are left for the next calls to take: in the steady state retention
   * frees about what new calls need, and moving pages to give them back, to grow the file again, cost
   * more than the deletes themselves (measured in bench:audit's loop part).
   */
  private mostlyFree(db: Database.Database): boolean {
    return (db.pragma('freelist_count', { simple: true }) as number) > (db.pragma('page_count', { simple: true }) as number) * VACUUM_FREE_SHARE;
  }

  /** The database file's pages and the write-ahead log's bytes: what the trail takes on disk. */
  private bytesOnDisk(db: Database.Database): number {
    const pages = (db.pragma('page_count', { simple: true }) as number) * (db.pragma('page_size', { simple: true }) as number);
    let wal = 0;
    try {
      wal = statSync(`${this.options.path}-wal`).size;
    } catch {
      // No log (after a truncating checkpoint, or not yet written).
    }
    return pages + wal;
  }

  close(): void {
    try {
      this.db?.close();
    } catch {
      // Closing a broken handle can fail too; there is nothing left to release.
    }
    this.db = undefined;
    this.writeBatch = undefined;
    this.indexAll = undefined;
  }

  /** Runs `step`; a failure other than a lock or a full disk closes the handle, so the next attempt opens afresh. */
  private guard(step: () => void): void {
    try {
      step();
    } catch (error) {
      const { key } = describeDbError(this.options.path, error);
      if (key !== 'locked' && key !== 'full') this.close();
      throw error;
    }
  }

  private prepare(db: Database.Database): void {
    const columns = CALL_FIELDS.map(([column]) => column).join(', ');
    const values = CALL_FIELDS.map(() => '?').join(', ');
    const insertCalls = db.prepare(INSERT_CALLS);
    const insertCall = db.prepare(`INSERT INTO calls (${columns}) VALUES (${values})`);
    const insertEvent = db.prepare(`INSERT INTO events (${EVENT_COLUMNS}) VALUES (${EVENT_VALUES})`);
    // A spilled record is written again after a crash mid-write-back: a call is known by its id (its
    // last parameter binds the id once more), an event, which has none, by all its columns.
    const insertSpilledCall = db.prepare(`INSERT INTO calls (${columns}) SELECT ${values} WHERE NOT EXISTS (SELECT 1 FROM calls WHERE call_id = ?)`);
    const insertSpilledEvent = db.prepare(
      `INSERT INTO events (${EVENT_COLUMNS}) SELECT ${EVENT_VALUES} WHERE NOT EXISTS (SELECT 1 FROM events WHERE at = @at AND kind = @kind AND workspace_id IS @workspaceId AND transaction_id IS @transactionId AND data = @data)`,
    );
    const mapTimes = db.prepare(timeMapStatement('?'));
    const indexFrom = searchIndexStatements('?').map((sql) => db.prepare(sql));
    const indexedBelow = db.prepare('SELECT below FROM calls_fts_progress').pluck();
    const setIndexedBelow = db.prepare('UPDATE calls_fts_progress SET below = ?');
    const lastSeq = db.prepare('SELECT MAX(seq) FROM calls').pluck();
    /** Indexes every call from the first not indexed yet to `last`. */
    const indexUpTo = (below: number, last: number) => {
      for (const statement of indexFrom) statement.run(below);
      setIndexedBelow.run(last + 1);
    };
    /** The calls of a batch with spilled ones among them, one statement each: those are few, and rare. */
    const insertOneByOne = (rows: Buffer, spilled: number): { first?: number; last?: number } => {
      let first: number | undefined;
      let last: number | undefined;
      (JSON.parse(rows.toString('utf8')) as unknown[][]).forEach((row, i) => {
        const { changes, lastInsertRowid } = i < spilled ? insertSpilledCall.run([...row, row[0]]) : insertCall.run(row);
        if (changes === 0) return;
        first ??= Number(lastInsertRowid);
        last = Number(lastInsertRowid);
      });
      return { first, last };
    };
    this.writeBatch = db.transaction(({ calls, events, spilled }: WriteBatch) => {
      events.forEach((params, i) => (i < spilled.events ? insertSpilledEvent : insertEvent).run(params));
      let first: number | undefined;
      let last: number | undefined;
      if (spilled.calls > 0) ({ first, last } = insertOneByOne(calls, spilled.calls));
      else if (calls.length > 0) {
        const { changes, lastInsertRowid } = insertCalls.run(calls);
        // One statement's rows take consecutive seqs, each the largest so far plus one.
        last = Number(lastInsertRowid);
        first = last - changes + 1;
      }
      if (first === undefined || last === undefined) return;
      mapTimes.run(first);
      let below = indexedBelow.get() as number;
      if (first < below) setIndexedBelow.run((below = first));
      if (last + 1 - below >= INDEX_CHUNK) indexUpTo(below, last);
    });
    this.indexAll = db.transaction(() => {
      const below = indexedBelow.get() as number;
      const last = lastSeq.get() as number | null;
      if (last !== null && last >= below) indexUpTo(below, last);
    });
  }
}

/**
 * A batch's calls in one statement, bound to the bytes of the batch's JSON array of rows (a blob, read as
 * the UTF-8 text it is): SQLite reads the rows out of it (as JSONB, which it walks by position), where
 * binding each call's values from JavaScript costs more.
 */
export const INSERT_CALLS = `INSERT INTO calls (${CALL_FIELDS.map(([column]) => column).join(', ')}) SELECT ${CALL_FIELDS.map((_, i) => `value->>${i}`).join(', ')} FROM jsonb_each(jsonb(CAST(? AS TEXT)))`;

const EVENT_COLUMNS = 'at, kind, workspace_id, transaction_id, data';
const EVENT_VALUES = '@at, @kind, @workspaceId, @transactionId, @data';
