/**
 * The audit database's one writing connection: redacts each record, writes a batch in one transaction
 * (wholly in the file or not at all) and applies retention. Synchronous and free of timers and queues, so
 * it runs the same on the main thread or in the store's worker thread; every failure is thrown to the
 * caller, which decides what the operator is told.
 */
import { statSync } from 'node:fs';
import type Database from 'better-sqlite3';
import { CALL_FIELDS, describeDbError, openAuditDatabase } from './database.js';
import type { RedactionRules } from './redact.js';
import { rowParams, type AuditRecord } from './rows.js';
import { batchStatements, type MigrationReport, type UpgradeListener } from './schema.js';

export type { AuditRecord } from './rows.js';

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
/** A pass deletes down to this share of the cap, so the next batches fit without another. */
const CAP_TARGET = 0.9;

export class AuditWriter {
  private db: Database.Database | undefined;
  private writeBatch: ((batch: readonly AuditRecord[], fromSpill: number) => void) | undefined;
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
   * The first `fromSpill` records came back from the spill file: an earlier run may have written them
   * before it was killed, so each is written only when the file does not hold it yet (see `prepare`).
   */
  write(batch: readonly AuditRecord[], now: number, fromSpill = 0): { migrated?: MigrationReport; pruneError?: unknown } {
    const migrated = this.open(now);
    this.guard(() => this.writeBatch?.(batch, fromSpill));
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

  /** Deletes records past the retention age, then the oldest until the files fit `maxBytes` (see `capSize`). */
  prune(now: number, budgetMs = Number.POSITIVE_INFINITY): void {
    const db = this.db;
    if (!db) return;
    this.lastPrune = now;
    const cutoff = now - this.options.retentionDays * DAY_MS;
    const expiredCalls = db.prepare('DELETE FROM calls WHERE seq IN (SELECT seq FROM calls WHERE started_at < ? LIMIT ?)').run(cutoff, PRUNE_STEP).changes;
    const expiredEvents = db.prepare('DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE at < ? LIMIT ?)').run(cutoff, PRUNE_STEP).changes;
    // More expired rows remain: the next flush continues instead of one long pause now.
    if (expiredCalls === PRUNE_STEP || expiredEvents === PRUNE_STEP) this.lastPrune = 0;
    if (!this.capSize(budgetMs)) {
      db.pragma('incremental_vacuum');
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
    const insertCall = db.prepare(`INSERT INTO calls (${columns}) VALUES (${values})`);
    const insertEvent = db.prepare(`INSERT INTO events (${EVENT_COLUMNS}) VALUES (${EVENT_VALUES})`);
    // A spilled record is written again after a crash mid-write-back: a call is known by its id (its
    // last parameter binds the id once more), an event, which has none, by all its columns.
    const insertSpilledCall = db.prepare(`INSERT INTO calls (${columns}) SELECT ${values} WHERE NOT EXISTS (SELECT 1 FROM calls WHERE call_id = ?)`);
    const insertSpilledEvent = db.prepare(
      `INSERT INTO events (${EVENT_COLUMNS}) SELECT ${EVENT_VALUES} WHERE NOT EXISTS (SELECT 1 FROM events WHERE at = @at AND kind = @kind AND workspace_id IS @workspaceId AND transaction_id IS @transactionId AND data = @data)`,
    );
    // One statement per index covers the whole batch: FTS5 costs about half as much per row as a statement (or trigger) per row.
    const indexBatch = batchStatements('?').map((sql) => db.prepare(sql));
    this.writeBatch = db.transaction((batch: readonly AuditRecord[], fromSpill: number) => {
      let first: number | bigint | undefined;
      for (let i = 0; i < batch.length; i++) {
        const item = batch[i]!;
        const params = rowParams(item, this.options);
        const spilled = i < fromSpill;
        if (item.type === 'call') {
          const bound = CALL_FIELDS.map(([, key]) => params[key] ?? null);
          const { changes, lastInsertRowid } = spilled ? insertSpilledCall.run([...bound, params.callId ?? null]) : insertCall.run(bound);
          if (changes > 0) first ??= lastInsertRowid;
        } else (spilled ? insertSpilledEvent : insertEvent).run(params);
      }
      if (first === undefined) return;
      for (const statement of indexBatch) statement.run(first);
    });
  }
}

const EVENT_COLUMNS = 'at, kind, workspace_id, transaction_id, data';
const EVENT_VALUES = '@at, @kind, @workspaceId, @transactionId, @data';
