/**
 * Adapter: the durable audit trail in SQLite (better-sqlite3, WAL). Recording only appends to an
 * in-memory queue; a timer hands the queue in batches to a worker thread that owns the writing
 * connection (redaction, one transaction per batch, the full-text index, retention), so an agent's call
 * pays for the trail with a message, not with SQLite. A batch is either wholly in the file or not at all.
 * A locked, full or broken database never fails a call: the store warns once per distinct problem,
 * keeps a bounded queue, retries, and counts what it had to drop. Reads (the console's history) use a
 * second connection on this thread after the writer has written what was recorded before them (`written`,
 * awaited by message; the direct `queryCalls` flushes synchronously), so a page shows every call recorded before it.
 */
import { statSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Logger } from '../shared/index.js';
import { needsUpgrade } from './database.js';
import { HistoryUpgrade, type UpgradeFailure } from './history-upgrade.js';
import { endedTransactions, findCall, queryCalls } from './queries.js';
import type { AuditCallInput, AuditEventInput, AuditStatus, CallPage, CallQuery, StoredCall, StoredEvent } from './records.js';
import type { RedactionRules } from './redact.js';
import type { MigrationReport } from './schema.js';
import { SpillKeeper } from './spill-keeper.js';
import { WriteProblems, type AuditProblem } from './write-problems.js';
import { WriteProgress } from './write-progress.js';
import { toError, type WriterNotice, type WriterReply } from './writer-protocol.js';
import { WriterLifecycle } from './writer-lifecycle.js';
import type { WriterThread } from './writer-thread.js';
import { AuditWriter, type AuditWriterOptions } from './writer.js';
import { prepared, type AuditRecord, type PreparedRecord } from './rows.js';

export type { AuditProblem } from './write-problems.js';

export interface AuditStoreOptions {
  path: string;
  rules: RedactionRules;
  logger: Logger;
  /** Calls and events older than this are deleted. */
  retentionDays: number;
  /** The file is kept under this size by deleting the oldest records. */
  maxBytes: number;
  /** Largest stored JSON text for arguments, a result or an event payload; longer values keep a text preview. */
  previewBytes?: number;
  flushIntervalMs?: number;
  /** Records held while the database is unavailable; the oldest are dropped beyond it. */
  maxQueue?: number;
  /** How long the writer thread stays after its last write before it stops (it starts again with the next record). */
  restAfterMs?: number;
  /** How long after a failure the store waits before opening the database again. */
  retryMs?: number;
  now?: () => number;
  /** Told each time the database starts failing in a new way (locked, full, damaged…), with the operator's words for it. */
  onProblem?: (problem: AuditProblem) => void;
}

/** Records per timer-driven batch: one message and one transaction each; the rest follows when it is written. */
const TIMED_BATCH = 500;
/** Longest a synchronous wait for the writer may block (a flush before a query, close): a dead worker cannot say so while we block. */
const SYNC_WAIT_MS = 30_000;

const DEFAULT_PREVIEW_BYTES = 16 * 1024;

export class AuditStore {
  private readonly writer: WriterLifecycle;
  /** The batch the writer holds, until it answers. */
  private inflight: { id: number; batch: AuditRecord[] } | undefined;
  private writerOpen = false;
  /** The id of the request that opens and upgrades the database in the writer thread, until it answers. */
  private opening: number | undefined;
  /** An upgrade of recorded history running in the writer thread: records queue, history waits for it. */
  private readonly upgrade: HistoryUpgrade;
  private readonly spill: SpillKeeper;
  private readonly problems: WriteProblems;
  private reader: Database.Database | undefined;
  private queue: AuditRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private dropped = 0;
  /** What `written()` waits on. */
  private readonly progress = new WriteProgress();
  private closed = false;
  private readonly flushIntervalMs: number;
  private readonly maxQueue: number;
  private readonly retryMs: number;
  private readonly now: () => number;

  constructor(private readonly options: AuditStoreOptions) {
    this.flushIntervalMs = options.flushIntervalMs ?? 100;
    this.maxQueue = options.maxQueue ?? 50_000;
    this.retryMs = options.retryMs ?? 5_000;
    this.now = options.now ?? Date.now;
    const { path, logger, onProblem } = options;
    this.upgrade = new HistoryUpgrade({ path, logger, maxQueue: this.maxQueue, now: this.now });
    this.spill = new SpillKeeper(path, logger);
    this.problems = new WriteProblems({ path, logger, retryMs: this.retryMs, maxQueue: this.maxQueue, now: this.now, onProblem });
    this.writer = new WriterLifecycle({
      writer: this.writerOptions(),
      restAfterMs: options.restAfterMs,
      onReply: (reply) => this.onReply(reply),
      onCrash: (error) => this.crashed(error),
      onNotice: (notice) => this.upgradeNotice(notice),
    });
  }

  /**
   * Opens, migrates and prunes the database once, on this thread, and closes it again: the writer thread
   * starts with the first record. A failure is reported as a warning and retried later, never thrown.
   * Recorded history at an older schema is upgraded in the writer thread instead, since rebuilding its
   * search index takes seconds to a minute: calls are served and queued meanwhile, and history says why
   * it is unavailable until the upgrade ends (see `upgraded`).
   */
  open(): void {
    this.takeSpill();
    if (needsUpgrade(this.options.path)) {
      this.startUpgrade();
      return;
    }
    const writer = new AuditWriter(this.writerOptions());
    try {
      const migrated = writer.open(this.now());
      if (migrated && migrated.calls > 0) this.migrated(migrated);
      this.writerOpen = true;
    } catch (error) {
      this.fail(error);
    } finally {
      writer.close();
    }
  }

  /** Whether the writer thread is running now (it rests while nothing is written). */
  get writerRunning(): boolean {
    return this.writer.current !== undefined;
  }

  /** Resolves when no upgrade runs (at once when none does): it ended, failed, or the store closed. */
  upgraded(): Promise<void> {
    return this.upgrade.ended();
  }

  status(): AuditStatus {
    const upgrade = this.upgrade.status();
    const state = upgrade ? 'upgrading' : this.writerOpen ? 'open' : 'unavailable';
    const out: AuditStatus = { path: this.options.path, state, queued: this.queue.length + (this.inflight?.batch.length ?? 0), dropped: this.dropped };
    if (upgrade) {
      out.upgrade = upgrade.upgrade;
      out.reason = upgrade.reason;
    } else if (this.problems.current) out.reason = this.problems.current.message;
    return out;
  }

  recordCall(input: AuditCallInput): void {
    const record: AuditRecord = { type: 'call', input };
    // A call far larger than its stored previews is cut here: handing megabytes to the writer thread
    // would copy them into its heap only to keep a preview, and that heap does not give memory back.
    // JSON kept in pieces (long strings) is such a call, and only text crosses to the thread.
    const bytes = input.call.requestBytes + (input.call.responseBytes ?? 0);
    const inPieces = typeof input.json.arguments !== 'string' || (input.json.result !== undefined && typeof input.json.result !== 'string');
    this.enqueue(inPieces || bytes > 2 * this.previewBytes() ? this.stored(record) : record);
  }

  recordEvent(input: AuditEventInput): void {
    this.enqueue({ type: 'event', input });
  }

  /**
   * Waits until everything queued is written, or the database failed; during an upgrade it returns at once
   * (what is queued is written when the upgrade ends). Safe to call at any time; never throws.
   */
  flush(): void {
    this.clearTimer();
    for (;;) {
      if (this.upgrade.running) return;
      const writer = this.writer.current;
      if (this.inflight && writer) {
        this.await(writer, this.inflight.id);
        if (this.inflight) return;
        continue;
      }
      if (this.queue.length === 0 || !this.post(Number.POSITIVE_INFINITY)) return;
    }
  }

  /**
   * Resolves once every record queued before the call has been written (or dropped), without blocking:
   * the console's reads see what was recorded before them. Resolves at once during an upgrade, while
   * the database is unavailable, and when a write fails (the read then says why).
   */
  written(): Promise<void> {
    const settled = this.upgrade.running || this.closed || this.problems.retryIn() > 0 ? undefined : this.progress.wait();
    if (!settled) return Promise.resolve();
    // The interval would wait for more records; the reader waits now, so the queue goes now (starting the thread if it rests).
    if (!this.inflight) this.post(TIMED_BATCH);
    this.holdWriter();
    return settled;
  }

  /** Reads without flushing first (after `written()`): the async path of the console's history. */
  readNow<T>(read: (db: Database.Database) => T, none: T): T {
    const db = this.readerDb(false);
    return db ? read(db) : none;
  }

  /** Newest first, filtered on the server side, paged by sequence cursor. */
  queryCalls(query: CallQuery): CallPage {
    const db = this.readerDb();
    return db ? queryCalls(db, query) : { items: [] };
  }

  findCall(callId: string): StoredCall | undefined {
    const db = this.readerDb();
    return db ? findCall(db, callId) : undefined;
  }

  /** Events of the most recent transactions that ended (committed or rolled back), newest transaction first. */
  endedTransactions(limit: number): Array<{ transactionId: string; events: StoredEvent[] }> {
    const db = this.readerDb();
    return db ? endedTransactions(db, limit) : [];
  }

  /** Applies retention now (it also runs after writes, once a minute), after writing what is queued. */
  prune(): void {
    this.flush();
    const writer = this.writerOpen ? this.writerThread() : undefined;
    if (writer) this.await(writer, writer.send({ op: 'prune', now: this.now() }));
  }

  /** Flushes what is queued and closes the database. */
  close(): void {
    if (this.closed) return;
    // An upgrade in progress is stopped rather than waited out; what is queued cannot be written meanwhile.
    if (this.upgrade.running) this.abandonUpgrade();
    else this.flush();
    this.closed = true;
    this.releaseWaiters();
    this.clearTimer();
    this.writer.clearRest();
    this.keepUnwritten();
    const writer = this.writer.current;
    if (writer) this.await(writer, writer.send({ op: 'close' }));
    this.writer.stop();
    this.closeReader();
  }

  /** Size of the database file and its write-ahead log, in bytes (0 when absent). */
  fileBytes(): number {
    let total = 0;
    for (const suffix of ['', '-wal']) {
      try {
        total += statSync(this.options.path + suffix).size;
      } catch {
        // A missing WAL is normal after a checkpoint.
      }
    }
    return total;
  }

  /** Records an earlier run kept in the spill file go first: they are older than anything recorded from now on. */
  private takeSpill(): void {
    const records = this.spill.take();
    if (records.length === 0) return;
    this.queue = [...records, ...this.queue];
    this.progress.queued(records.length);
    this.trim();
    this.schedule(this.flushIntervalMs);
  }

  /** At close: what is still unwritten (spilled records included) goes to the spill file for the next run. */
  private keepUnwritten(): void {
    const unwritten = [...(this.inflight?.batch ?? []), ...this.queue];
    this.spill.keep(
      unwritten.map((record) => this.stored(record)),
      this.problems.current?.message ?? 'the database is unavailable',
    );
  }

  /** The record in its stored form, for a queue that may be held while the writer is away. */
  private stored(record: AuditRecord): PreparedRecord {
    return prepared(record, { rules: this.options.rules, previewBytes: this.previewBytes() });
  }

  private previewBytes(): number {
    return this.options.previewBytes ?? DEFAULT_PREVIEW_BYTES;
  }

  private enqueue(item: AuditRecord): void {
    if (this.closed) return;
    this.writer.clearRest();
    // While the writer is away the queue may hold thousands of records: keep them in stored form only.
    this.queue.push(this.writerOpen ? item : this.stored(item));
    this.progress.queued(1);
    this.trim();
    // While a batch is in flight its reply posts the next one: a timer per record would only find the writer busy.
    this.schedule(this.queue.length >= TIMED_BATCH && !this.inflight ? 0 : this.flushIntervalMs);
  }

  /** Hands up to `max` queued records to the writer; false when it cannot take them now. */
  private post(max: number): boolean {
    // During an upgrade the queue is the records' one place: bounded, and written in order once it ends.
    if (this.inflight || this.opening !== undefined || this.upgrade.running) return false;
    const retryIn = this.problems.retryIn();
    if (retryIn > 0) {
      this.schedule(retryIn);
      return false;
    }
    const writer = this.writerThread();
    if (!writer) return false;
    const batch = this.queue.length <= max ? this.queue : this.queue.slice(0, max);
    this.queue = this.queue.length <= max ? [] : this.queue.slice(max);
    // The spilled records lead the queue: they may be in the file already, if a run was killed writing them back.
    this.inflight = { id: writer.send({ op: 'write', batch, now: this.now(), fromSpill: this.spill.leading(batch.length) }), batch };
    return true;
  }

  private onReply(reply: WriterReply): void {
    this.writerOpen = reply.open;
    if (!reply.open) this.closeReader();
    if (this.opening === reply.id) this.opening = undefined;
    // A new, empty database is migrated too; only an upgrade of recorded calls is worth a line.
    if (reply.ok && reply.migrated && reply.migrated.calls > 0) this.migrated(reply.migrated);
    // Whatever the request, its answer means the upgrade it ran has ended: committed, or rolled back.
    this.upgradeEnded(reply.ok ? undefined : 'rolled-back');
    const batch = this.inflight?.id === reply.id ? this.inflight.batch : undefined;
    if (batch) this.inflight = undefined;
    if (!reply.ok) {
      // The transaction rolled back: nothing of this batch is in the file, so it is retried whole.
      if (batch) {
        this.queue = batch.concat(this.queue).map((record) => this.stored(record));
        this.trim();
      }
      this.fail(toError(reply.error));
      this.releaseWaiters();
      return;
    }
    if (batch) {
      this.spill.settle(batch.length);
      this.handle(batch.length);
    }
    if (reply.pruneError) this.fail(toError(reply.pruneError));
    else this.problems.recovered(this.dropped);
    // What arrived during the write waits for the interval like any record, unless it is a full batch:
    // posting it at once would hand the thread a small batch per write, a message and a wake-up each.
    // A reader waiting for what it recorded (see `written`) does not wait for the interval.
    if (this.queue.length > 0) this.schedule(this.queue.length >= TIMED_BATCH || this.progress.waiting ? 0 : this.flushIntervalMs);
    else if (!this.inflight) this.scheduleRest();
  }

  /** `count` records left the queue, written or dropped. */
  private handle(count: number): void {
    if (this.progress.handled(count)) this.holdWriter();
  }

  /** A write failed, an upgrade started or the store closed: readers go on and read what there is. */
  private releaseWaiters(): void {
    this.progress.release();
    this.holdWriter();
  }

  /** The writer thread keeps the process alive while an upgrade runs or a reader waits for it (its messages and timers do not). */
  private holdWriter(): void {
    this.writer.current?.hold(this.upgrade.running || this.progress.waiting);
  }

  private scheduleRest(): void {
    if (!this.closed) this.writer.scheduleRest(() => this.rest());
  }

  /** Stops an idle writer thread; the database stays as writable as it was, and the next record starts a new thread. */
  private rest(): void {
    if (this.inflight || this.opening !== undefined || this.upgrade.running || this.queue.length > 0 || this.closed) return;
    // The thread's answer to closing its connection says the database is closed: it is, for this thread only.
    const wasOpen = this.writerOpen;
    this.writer.rest();
    this.writerOpen = wasOpen;
  }

  private trim(): void {
    const excess = this.queue.length - this.maxQueue;
    if (excess <= 0) return;
    this.queue.splice(0, excess);
    this.dropped += excess;
    this.handle(excess);
    this.spill.settle(excess);
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    if (this.timer && delayMs > 0) return;
    this.clearTimer();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.post(TIMED_BATCH);
    }, delayMs);
    this.timer.unref();
  }

  private clearTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The writer thread, started on first use and again after a crash; undefined while a retry waits. */
  private writerThread(): WriterThread | undefined {
    if (!this.writer.alive && this.problems.retryIn() > 0) return undefined;
    try {
      return this.writer.start();
    } catch (error) {
      this.fail(error);
      return undefined;
    }
  }

  private writerOptions(): AuditWriterOptions {
    return { path: this.options.path, rules: this.options.rules, retentionDays: this.options.retentionDays, maxBytes: this.options.maxBytes, previewBytes: this.previewBytes() };
  }

  /** Waits for the answer to `id`, or until the writer says it is upgrading, which would keep it busy for long. */
  private await(writer: WriterThread, id: number, timeoutMs = SYNC_WAIT_MS): void {
    if (!writer.waitFor(id, timeoutMs, () => this.upgrade.running) && writer.alive && !this.upgrade.running) {
      this.fail(new Error(`the audit writer thread did not answer within ${timeoutMs / 1000} s`));
    }
  }

  private crashed(error: Error): void {
    this.writerOpen = false;
    this.opening = undefined;
    this.upgradeEnded('writer-stopped');
    if (this.inflight) {
      this.queue = this.inflight.batch.concat(this.queue).map((record) => this.stored(record));
      this.inflight = undefined;
      this.trim();
    }
    this.fail(error);
    this.releaseWaiters();
    this.schedule(this.retryMs);
  }

  /** A connection for reading, once the writer has the database open; what is queued is written first unless `flushFirst` is false. */
  private readerDb(flushFirst = true): Database.Database | undefined {
    if (this.upgrade.running) return undefined;
    if (flushFirst) this.flush();
    if (!this.writerOpen) return undefined;
    if (!this.reader) {
      try {
        this.reader = new Database(this.options.path, { fileMustExist: true, timeout: 0 });
      } catch (error) {
        this.fail(error);
        return undefined;
      }
    }
    return this.reader;
  }

  private closeReader(): void {
    try {
      this.reader?.close();
    } catch {
      // Closing a broken handle can fail too; there is nothing left to release.
    }
    this.reader = undefined;
  }

  /** Starts the writer thread on an upgrade of recorded history; records queue until it answers. */
  private startUpgrade(): void {
    this.upgrade.start(this.dropped);
    const writer = this.writerThread();
    if (!writer) {
      this.upgradeEnded();
      return;
    }
    // An upgrade in progress keeps the process alive until it ends or the store closes, so it is not cut short.
    this.holdWriter();
    this.opening = writer.send({ op: 'open', now: this.now() });
  }

  /** The writer thread is about to run an upgrade's transaction, or is running it: readers waiting for a write go on. */
  private upgradeNotice(notice: WriterNotice): void {
    if (!this.upgrade.notice(notice, this.dropped)) return;
    this.releaseWaiters();
    this.holdWriter();
  }

  /** The upgrade, if one runs, ended (`failure` says how, when it did not commit): history and the queue go on. */
  private upgradeEnded(failure?: UpgradeFailure): void {
    if (!this.upgrade.running) return;
    this.upgrade.end(this.dropped, failure);
    this.holdWriter();
  }

  /**
   * Closing stops an upgrade in progress rather than waiting out its backfill: its one transaction rolls
   * back with the thread, the file stays at the old schema, and the next start upgrades it again. The
   * records queued meanwhile cannot be written to the old schema: close keeps them in the spill file.
   */
  private abandonUpgrade(): void {
    this.problems.note({ key: 'upgrading', message: `the upgrade of ${this.options.path} was still running at close` });
    this.upgradeEnded('closed');
    this.writer.stop();
    this.opening = undefined;
    this.writerOpen = false;
  }

  private migrated(report: MigrationReport): void {
    this.options.logger.info(`audit: upgraded ${this.options.path} from schema ${report.from} to ${report.to}, indexing ${report.calls} recorded calls for search in ${Math.round(report.ms)} ms`);
  }

  private fail(error: unknown): void {
    this.problems.fail(error);
    if (this.queue.length > 0) this.schedule(this.retryMs);
  }
}
