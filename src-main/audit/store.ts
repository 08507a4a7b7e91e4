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
import { describeDbError, needsUpgrade } from './database.js';
import { endedTransactions, findCall, queryCalls } from './queries.js';
import type { AuditCallInput, AuditEventInput, AuditStatus, AuditUpgrade, CallPage, CallQuery, StoredCall, StoredEvent } from './records.js';
import type { RedactionRules } from './redact.js';
import type { MigrationReport } from './schema.js';
import { toError, type WriterNotice, type WriterReply } from './writer-protocol.js';
import { WriterThread } from './writer-thread.js';
import { AuditWriter, type AuditWriterOptions } from './writer.js';
import { prepared, type AuditRecord, type PreparedRecord } from './rows.js';
import { loadSpill, removeSpill, saveSpill, spillPath } from './spill.js';
import { errorMessage } from '../shared/index.js';

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

/** Why the trail cannot write: `key` tells kinds apart (`locked`, `full`, `access`, `corrupt`, …). */
export interface AuditProblem {
  key: string;
  message: string;
}

/** Records per timer-driven batch: one message and one transaction each; the rest follows when it is written. */
const TIMED_BATCH = 500;
/** Longest a synchronous wait for the writer may block (a flush before a query, close): a dead worker cannot say so while we block. */
const SYNC_WAIT_MS = 30_000;

const DEFAULT_PREVIEW_BYTES = 16 * 1024;
/**
 * The writer thread is an isolate of its own with SQLite's caches, about 10 MB resident: it runs while
 * there is something to write and this long after, so a Junction nobody is calling does not keep it.
 * Restarting costs a few tens of milliseconds of the writer's time, never the caller's.
 */
const DEFAULT_REST_AFTER_MS = 30_000;
/** Longest the store waits for a resting thread to close its connection before stopping it. */
const REST_WAIT_MS = 1_000;

export class AuditStore {
  private writer: WriterThread | undefined;
  /** The batch the writer holds, until it answers. */
  private inflight: { id: number; batch: AuditRecord[] } | undefined;
  private writerOpen = false;
  /** The id of the request that opens and upgrades the database in the writer thread, until it answers. */
  private opening: number | undefined;
  /** An upgrade of recorded history running in the writer thread: records queue, history waits for it. */
  private upgrade: AuditUpgrade | undefined;
  private upgradeWaiters: Array<() => void> = [];
  /** `dropped` when the upgrade started: what the queue lost during it is told when it ends. */
  private upgradeDropped = 0;
  private reader: Database.Database | undefined;
  private queue: AuditRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private restTimer: NodeJS.Timeout | undefined;
  private dropped = 0;
  /**
   * Records at the front of the queue (or in flight) that an earlier run kept in the spill file and are
   * not written yet; the file is on disk exactly while this is above zero.
   */
  private spilled = 0;
  private problem: AuditProblem | undefined;
  /** Records ever queued, and those that left the queue written or dropped: `written()` waits for the second to reach the first. */
  private enqueued = 0;
  private handled = 0;
  private writtenWaiters: Array<{ target: number; resolve: () => void }> = [];
  private retryAt = 0;
  private closed = false;
  private readonly flushIntervalMs: number;
  private readonly maxQueue: number;
  private readonly retryMs: number;
  private readonly restAfterMs: number;
  private readonly now: () => number;

  constructor(private readonly options: AuditStoreOptions) {
    this.flushIntervalMs = options.flushIntervalMs ?? 100;
    this.maxQueue = options.maxQueue ?? 50_000;
    this.retryMs = options.retryMs ?? 5_000;
    this.restAfterMs = options.restAfterMs ?? DEFAULT_REST_AFTER_MS;
    this.now = options.now ?? Date.now;
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
    return this.writer !== undefined;
  }

  /** Resolves when no upgrade runs (at once when none does): it ended, failed, or the store closed. */
  upgraded(): Promise<void> {
    if (!this.upgrade) return Promise.resolve();
    return new Promise((resolve) => this.upgradeWaiters.push(resolve));
  }

  status(): AuditStatus {
    const state = this.upgrade ? 'upgrading' : this.writerOpen ? 'open' : 'unavailable';
    const out: AuditStatus = { path: this.options.path, state, queued: this.queue.length + (this.inflight?.batch.length ?? 0), dropped: this.dropped };
    if (this.upgrade) {
      out.upgrade = { ...this.upgrade };
      out.reason = upgradeReason(this.upgrade, this.now());
    } else if (this.problem) out.reason = this.problem.message;
    return out;
  }

  recordCall(input: AuditCallInput): void {
    const record: AuditRecord = { type: 'call', input };
    // A call far larger than its stored previews is cut here: handing megabytes to the writer thread
    // would copy them into its heap only to keep a preview, and that heap does not give memory back.
    const bytes = input.call.requestBytes + (input.call.responseBytes ?? 0);
    this.enqueue(bytes > 2 * this.previewBytes() ? this.stored(record) : record);
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
      if (this.upgrade) return;
      const writer = this.writer;
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
    const target = this.enqueued;
    if (this.handled >= target || this.upgrade || this.closed || this.retryAt > this.now()) return Promise.resolve();
    const settled = new Promise<void>((resolve) => this.writtenWaiters.push({ target, resolve }));
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
    if (this.upgrade) this.abandonUpgrade();
    else this.flush();
    this.closed = true;
    this.releaseWaiters();
    this.clearTimer();
    this.clearRest();
    this.keepUnwritten();
    const writer = this.writer;
    if (writer) {
      this.await(writer, writer.send({ op: 'close' }));
      writer.terminate();
      this.writer = undefined;
    }
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

  /**
   * Records an earlier run could not write go first: they are older than anything recorded from now on.
   * The file stays until they are written, so a run that cannot write them either keeps them too.
   */
  private takeSpill(): void {
    const path = spillPath(this.options.path);
    let loaded: { records: PreparedRecord[]; damaged: number };
    try {
      loaded = loadSpill(path);
    } catch (error) {
      this.options.logger.warn(`audit: the records an earlier run kept in ${path} could not be read: ${errorMessage(error)}`);
      return;
    }
    if (loaded.damaged > 0) this.options.logger.warn(`audit: ${loaded.damaged} damaged lines of ${path} were skipped`);
    if (loaded.records.length === 0) {
      if (loaded.damaged > 0) this.forgetSpill();
      return;
    }
    this.options.logger.info(`audit: writing ${loaded.records.length} records an earlier run kept in ${path}`);
    this.queue = [...loaded.records, ...this.queue];
    this.enqueued += loaded.records.length;
    this.spilled = loaded.records.length;
    this.trim();
    this.schedule(this.flushIntervalMs);
  }

  /** At close: what is still unwritten (spilled records included) goes to the spill file for the next run. */
  private keepUnwritten(): void {
    const unwritten = [...(this.inflight?.batch ?? []), ...this.queue];
    if (unwritten.length === 0) return;
    const path = spillPath(this.options.path);
    const reason = this.problem?.message ?? 'the database is unavailable';
    try {
      saveSpill(path, unwritten.map((record) => this.stored(record)));
      this.options.logger.warn(`audit: ${unwritten.length} records could not be written before closing (${reason}); they are kept in ${path} and written when the trail next opens`);
    } catch (error) {
      this.options.logger.warn(`audit: ${unwritten.length} records could not be written before closing (${reason}), nor kept in ${path}: ${errorMessage(error)}`);
    }
  }

  /** `count` records left the front of the queue, written or dropped: the spill file goes with the last of its records. */
  private settleSpill(count: number): void {
    if (this.spilled === 0) return;
    this.spilled = Math.max(0, this.spilled - count);
    if (this.spilled === 0) this.forgetSpill();
  }

  private forgetSpill(): void {
    const path = spillPath(this.options.path);
    try {
      removeSpill(path);
    } catch (error) {
      this.options.logger.warn(`audit: ${path} holds records already written and could not be removed: ${errorMessage(error)}`);
    }
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
    this.clearRest();
    // While the writer is away the queue may hold thousands of records: keep them in stored form only.
    this.queue.push(this.writerOpen ? item : this.stored(item));
    this.enqueued++;
    this.trim();
    // While a batch is in flight its reply posts the next one: a timer per record would only find the writer busy.
    this.schedule(this.queue.length >= TIMED_BATCH && !this.inflight ? 0 : this.flushIntervalMs);
  }

  /** Hands up to `max` queued records to the writer; false when it cannot take them now. */
  private post(max: number): boolean {
    // During an upgrade the queue is the records' one place: bounded, and written in order once it ends.
    if (this.inflight || this.opening !== undefined || this.upgrade) return false;
    if (this.now() < this.retryAt) {
      this.schedule(this.retryAt - this.now());
      return false;
    }
    const writer = this.writerThread();
    if (!writer) return false;
    const batch = this.queue.length <= max ? this.queue : this.queue.slice(0, max);
    this.queue = this.queue.length <= max ? [] : this.queue.slice(max);
    // The spilled records lead the queue: they may be in the file already, if a run was killed writing them back.
    this.inflight = { id: writer.send({ op: 'write', batch, now: this.now(), fromSpill: Math.min(this.spilled, batch.length) }), batch };
    return true;
  }

  private onReply(reply: WriterReply): void {
    this.writerOpen = reply.open;
    if (!reply.open) this.closeReader();
    if (this.opening === reply.id) this.opening = undefined;
    // A new, empty database is migrated too; only an upgrade of recorded calls is worth a line.
    if (reply.ok && reply.migrated && reply.migrated.calls > 0) this.migrated(reply.migrated);
    // Whatever the request, its answer means the upgrade it ran has ended: committed, or rolled back.
    if (this.upgrade) this.upgradeEnded(reply.ok ? undefined : `the upgrade failed and was rolled back, so ${this.options.path} stays wholly at ${oldSchema(this.upgrade)}`);
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
      this.settleSpill(batch.length);
      this.handle(batch.length);
    }
    if (reply.pruneError) this.fail(toError(reply.pruneError));
    else this.recovered();
    // What arrived during the write waits for the interval like any record, unless it is a full batch:
    // posting it at once would hand the thread a small batch per write, a message and a wake-up each.
    // A reader waiting for what it recorded (see `written`) does not wait for the interval.
    if (this.queue.length > 0) this.schedule(this.queue.length >= TIMED_BATCH || this.writtenWaiters.length > 0 ? 0 : this.flushIntervalMs);
    else if (!this.inflight) this.scheduleRest();
  }

  /** `count` records left the queue, written or dropped. */
  private handle(count: number): void {
    this.handled += count;
    if (this.writtenWaiters.length === 0) return;
    const waiting = this.writtenWaiters;
    this.writtenWaiters = waiting.filter((waiter) => waiter.target > this.handled);
    for (const waiter of waiting) if (waiter.target <= this.handled) waiter.resolve();
    this.holdWriter();
  }

  /** A write failed, an upgrade started or the store closed: readers go on and read what there is. */
  private releaseWaiters(): void {
    for (const { resolve } of this.writtenWaiters.splice(0)) resolve();
    this.holdWriter();
  }

  /** The writer thread keeps the process alive while an upgrade runs or a reader waits for it (its messages and timers do not). */
  private holdWriter(): void {
    this.writer?.hold(this.upgrade !== undefined || this.writtenWaiters.length > 0);
  }

  private scheduleRest(): void {
    if (this.closed || !this.writer) return;
    this.clearRest();
    this.restTimer = setTimeout(() => this.rest(), this.restAfterMs);
    this.restTimer.unref();
  }

  private clearRest(): void {
    if (this.restTimer) clearTimeout(this.restTimer);
    this.restTimer = undefined;
  }

  /** Stops an idle writer thread; the database stays as writable as it was, and the next record starts a new thread. */
  private rest(): void {
    this.restTimer = undefined;
    const writer = this.writer;
    if (!writer || this.inflight || this.opening !== undefined || this.upgrade || this.queue.length > 0 || this.closed) return;
    const wasOpen = this.writerOpen;
    // An idle thread answers at once; one that does not is stopped all the same, without blocking for long.
    writer.waitFor(writer.send({ op: 'close' }), REST_WAIT_MS);
    writer.terminate();
    this.writer = undefined;
    this.writerOpen = wasOpen;
  }

  private trim(): void {
    const excess = this.queue.length - this.maxQueue;
    if (excess <= 0) return;
    this.queue.splice(0, excess);
    this.dropped += excess;
    this.handle(excess);
    this.settleSpill(excess);
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
    if (this.writer?.alive) return this.writer;
    if (this.now() < this.retryAt) return undefined;
    this.writer?.terminate();
    this.writer = undefined;
    try {
      this.writer = new WriterThread(
        this.writerOptions(),
        (reply) => this.onReply(reply),
        (error) => this.crashed(error),
        (notice) => this.upgradeNotice(notice),
      );
      return this.writer;
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
    if (!writer.waitFor(id, timeoutMs, () => this.upgrade !== undefined) && writer.alive && !this.upgrade) {
      this.fail(new Error(`the audit writer thread did not answer within ${timeoutMs / 1000} s`));
    }
  }

  private crashed(error: Error): void {
    this.writerOpen = false;
    this.opening = undefined;
    if (this.upgrade) this.upgradeEnded(`the writer thread stopped, so the upgrade was rolled back and ${this.options.path} stays wholly at ${oldSchema(this.upgrade)}`);
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
    if (this.upgrade) return undefined;
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
    this.upgrade = { startedAt: this.now() };
    this.upgradeDropped = this.dropped;
    const writer = this.writerThread();
    if (!writer) {
      this.upgradeEnded();
      return;
    }
    // An upgrade in progress keeps the process alive until it ends or the store closes, so it is not cut short.
    this.holdWriter();
    this.opening = writer.send({ op: 'open', now: this.now() });
  }

  /** The writer thread is about to run an upgrade's transaction (the start, or a retry after a failure), or is running it. */
  private upgradeNotice(notice: WriterNotice): void {
    if (notice.notice === 'progress') {
      if (this.upgrade) this.upgrade.done = notice.done;
      return;
    }
    const { upgrade } = notice;
    // A new, empty file is migrated in no time: only recorded calls make an upgrade worth waiting for.
    if (upgrade.calls === 0) return;
    if (!this.upgrade) this.upgradeDropped = this.dropped;
    this.upgrade = { ...upgrade, startedAt: this.upgrade?.startedAt ?? this.now() };
    this.releaseWaiters();
    this.holdWriter();
    this.options.logger.info(
      `audit: upgrading ${this.options.path} from schema ${upgrade.from} to ${upgrade.to}, indexing ${upgrade.calls} recorded calls for search; history is unavailable until it ends, and calls are recorded once it has (up to ${this.maxQueue} held meanwhile, the oldest dropped beyond)`,
    );
  }

  /** The upgrade ended (`failed` says how, when it did not commit): history and the queue go on. */
  private upgradeEnded(failed?: string): void {
    this.upgrade = undefined;
    this.holdWriter();
    const dropped = this.dropped - this.upgradeDropped;
    if (failed) this.options.logger.warn(`audit: ${failed}; it runs again when the database is next opened`);
    if (dropped > 0) this.options.logger.warn(`audit: ${dropped} records were dropped during the upgrade of ${this.options.path}: more calls ended than the ${this.maxQueue} it holds`);
    for (const resolve of this.upgradeWaiters.splice(0)) resolve();
  }

  /**
   * Closing stops an upgrade in progress rather than waiting out its backfill: its one transaction rolls
   * back with the thread, the file stays at the old schema, and the next start upgrades it again. The
   * records queued meanwhile cannot be written to the old schema: close keeps them in the spill file.
   */
  private abandonUpgrade(): void {
    this.problem = { key: 'upgrading', message: `the upgrade of ${this.options.path} was still running at close` };
    this.upgradeEnded(`closing stopped the upgrade, so it was rolled back and ${this.options.path} stays wholly at ${oldSchema(this.upgrade!)}`);
    this.writer?.terminate();
    this.writer = undefined;
    this.opening = undefined;
    this.writerOpen = false;
  }

  private migrated(report: MigrationReport): void {
    this.options.logger.info(`audit: upgraded ${this.options.path} from schema ${report.from} to ${report.to}, indexing ${report.calls} recorded calls for search in ${Math.round(report.ms)} ms`);
  }

  private fail(error: unknown): void {
    const problem = describeDbError(this.options.path, error);
    const first = this.problem?.key !== problem.key;
    this.problem = problem;
    this.retryAt = this.now() + this.retryMs;
    if (first) {
      this.options.logger.warn(`audit: ${problem.message}; tool calls continue unrecorded meanwhile (retrying every ${Math.round(this.retryMs / 1000)} s, holding up to ${this.maxQueue} records)`);
      this.options.onProblem?.(problem);
    }
    if (this.queue.length > 0) this.schedule(this.retryMs);
  }

  private recovered(): void {
    if (!this.problem) return;
    this.options.logger.warn(`audit: the audit database ${this.options.path} is writable again${this.dropped > 0 ? `; ${this.dropped} records were dropped meanwhile` : ''}`);
    this.problem = undefined;
  }
}

const oldSchema = (upgrade: AuditUpgrade): string => (upgrade.from === undefined ? 'its old schema' : `schema ${upgrade.from}`);

/** Words for the console while an upgrade runs: what it does, for how many calls, since when. */
function upgradeReason(upgrade: AuditUpgrade, now: number): string {
  const what = upgrade.calls === undefined ? 'recorded calls' : `${upgrade.calls.toLocaleString('en-US')} recorded calls`;
  const schema = upgrade.from === undefined ? '' : ` from schema ${upgrade.from} to ${upgrade.to}`;
  const done = upgrade.done === undefined ? '' : `, ${Math.floor(upgrade.done * 100)} % done`;
  return `The audit trail is being upgraded${schema}: indexing ${what} for search (running for ${Math.round((now - upgrade.startedAt) / 1000)} s${done}). History is available when it ends; calls are recorded meanwhile.`;
}
