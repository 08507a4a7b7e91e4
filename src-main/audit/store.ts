/**
 * Adapter: the durable audit trail in SQLite (better-sqlite3, WAL). Recording only appends to an
 * in-memory queue; a timer hands the queue in batches to a worker thread that owns the writing
 * connection (redaction, one transaction per batch, the full-text index, retention), so an agent's call
 * pays for the trail with a message, not with SQLite. A batch is either wholly in the file or not at all.
 * A locked, full or broken database never fails a call: the store warns once per distinct problem,
 * keeps a bounded queue, retries, and counts what it had to drop. Reads (the console's history, exports)
 * run in a second worker thread on connections of its own (`reader.ts`), once the writer has written
 * what was recorded before them (`written`, awaited by message), so a page shows every call recorded
 * before it and neither the wait nor SQLite's work holds this thread.
 */
import { statSync } from 'node:fs';
import type { Writable } from 'node:stream';
import type { Logger } from '../shared/index.js';
import { needsUpgrade } from './database.js';
import { write, writeLines } from './export.js';
import { HistoryUpgrade, type UpgradeFailure } from './history-upgrade.js';
import { readsSearchIndex } from './queries.js';
import { RecordQueue } from './record-queue.js';
import { AuditReader } from './reader.js';
import type { EndedTransaction, ExportSpec, ReaderOps } from './reader-protocol.js';
import type { AuditCallInput, AuditEventInput, AuditStatus, CallPage, CallQuery, StoredCall } from './records.js';
import type { RedactionRules } from './redact.js';
import type { MigrationReport } from './schema.js';
import { SpillKeeper } from './spill-keeper.js';
import { WriteProblems, type AuditProblem } from './write-problems.js';
import { WriteProgress } from './write-progress.js';
import { toError, type WireBatch, type WriterNotice, type WriterReply } from './writer-protocol.js';
import { WriterLifecycle } from './writer-lifecycle.js';
import type { WriterThread } from './writer-thread.js';
import { AuditWriter, type AuditWriterOptions } from './writer.js';
import { eventParams, preparedRecord, storedCall, storedRecord, type RowOptions, type RowParams, type StoredRecord } from './rows.js';

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
export const TIMED_BATCH = 500;
/** After this long without a record, the writer indexes for search what it has not yet (it otherwise waits for a chunk; see writer.ts). */
const IDLE_INDEX_MS = 1_000;
/** Longest a wait for the writer may take (a flush, close): a worker that hangs cannot say so. */
const WRITER_WAIT_MS = 30_000;
/** An export's text crosses from the reader thread in chunks of about this many characters. */
const EXPORT_CHUNK = 256 * 1024;

const DEFAULT_PREVIEW_BYTES = 16 * 1024;

export class AuditStore {
  private readonly writer: WriterLifecycle;
  /** The batch the writer holds, until it answers. */
  private inflight: { id: number; batch: StoredRecord[] } | undefined;
  private writerOpen = false;
  /** The id of the request that opens and upgrades the database in the writer thread, until it answers. */
  private opening: number | undefined;
  /** An upgrade of recorded history running in the writer thread: records queue, history waits for it. */
  private readonly upgrade: HistoryUpgrade;
  private readonly spill: SpillKeeper;
  private readonly problems: WriteProblems;
  private readonly reader: AuditReader;
  private readonly queue = new RecordQueue(TIMED_BATCH);
  private timer: NodeJS.Timeout | undefined;
  private idleTimer: NodeJS.Timeout | undefined;
  /** When the last record was queued, by `performance.now()`. */
  private lastRecordAt = 0;
  /** Searches waiting for the writer to index what it has not yet. */
  private indexing = 0;
  private readonly rowOptions: RowOptions;
  private dropped = 0;
  /** What `written()` waits on. */
  private readonly progress = new WriteProgress();
  private closed = false;
  private closing: Promise<void> | undefined;
  /** The writer thread is closing its connection to rest, which says nothing about the database. */
  private resting = false;
  private readonly flushIntervalMs: number;
  private readonly maxQueue: number;
  private readonly retryMs: number;
  private readonly now: () => number;

  constructor(private readonly options: AuditStoreOptions) {
    this.flushIntervalMs = options.flushIntervalMs ?? 100;
    this.maxQueue = options.maxQueue ?? 50_000;
    this.retryMs = options.retryMs ?? 5_000;
    this.now = options.now ?? Date.now;
    this.rowOptions = { rules: options.rules, previewBytes: this.previewBytes() };
    const { path, logger, onProblem } = options;
    this.upgrade = new HistoryUpgrade({ path, logger, maxQueue: this.maxQueue, now: this.now });
    this.spill = new SpillKeeper(path, logger);
    this.reader = new AuditReader(path, options.restAfterMs);
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

  /** Queues the call in stored form (redacted, previews capped): the writer thread is handed only that. */
  recordCall(input: AuditCallInput): void {
    if (!this.closed) this.enqueue(storedCall(input, this.rowOptions));
  }

  recordEvent(input: AuditEventInput): void {
    if (!this.closed) this.enqueue({ type: 'event', params: eventParams(input, this.rowOptions) });
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

  /** Newest first, filtered on the server side, paged by sequence cursor: every call recorded before the request is in reach. */
  async queryCalls(query: CallQuery): Promise<CallPage> {
    if (readsSearchIndex(query)) await this.indexed();
    return (await this.read('page', { query })) ?? { items: [] };
  }

  async findCall(callId: string): Promise<StoredCall | undefined> {
    return this.read('call', { callId });
  }

  /** Events of the most recent transactions that ended (committed or rolled back), newest transaction first. */
  async endedTransactions(limit: number): Promise<EndedTransaction[]> {
    return (await this.read('transactions', { limit })) ?? [];
  }

  /**
   * Writes an export to `out` as it drains, formed in the reader thread, after what was recorded before it
   * is written; resolves with the records written. The whole trail is read from the file whatever the
   * writer's state (an upgrade, a locked database); a filtered export is the history search's, with
   * nothing to find while history is unavailable.
   */
  async exportTo(spec: ExportSpec, out: Writable, warn: (message: string) => void): Promise<number> {
    if (spec.filter && readsSearchIndex(spec.filter)) await this.indexed();
    await this.written();
    if (spec.filter && !this.readable) return writeLines([], spec.format, out);
    const cursor = await this.reader.request('export', { spec });
    let count = 0;
    let done = false;
    try {
      while (!done) {
        const chunk = await this.reader.request('more', { cursor, maxBytes: EXPORT_CHUNK });
        done = chunk.done;
        for (const warning of chunk.warnings) warn(warning);
        if (chunk.text && !(await write(out, chunk.text))) break;
        count += chunk.count;
      }
    } finally {
      if (!done) await this.reader.request('end', { cursor }).catch(() => null);
    }
    return count;
  }

  /** Applies retention now (it also runs after writes, once a minute), after writing what is queued. */
  prune(): void {
    this.flush();
    const writer = this.writerOpen ? this.writerThread() : undefined;
    if (writer) this.await(writer, writer.send({ op: 'prune', now: this.now() }));
  }

  /**
   * Writes what is queued (waiting by message, so the event loop runs meanwhile), keeps in the spill file
   * what could not be written, and closes both threads' connections. Resolves once all that is done.
   */
  close(): Promise<void> {
    this.closing ??= this.closeNow();
    return this.closing;
  }

  private async closeNow(): Promise<void> {
    // An upgrade in progress is stopped rather than waited out; what is queued cannot be written meanwhile.
    if (this.upgrade.running) this.abandonUpgrade();
    else await this.drain();
    this.closed = true;
    this.releaseWaiters();
    this.clearTimer();
    clearTimeout(this.idleTimer);
    this.writer.clearRest();
    this.keepUnwritten();
    await this.reader.close();
    const writer = this.writer.current;
    if (writer) {
      writer.hold(true);
      await writer.answered(writer.send({ op: 'close' }), WRITER_WAIT_MS);
    }
    this.writer.stop();
  }

  /** Waits, by message, until what is queued is written or cannot be (see `written`), or the writer failed to answer in time. */
  private async drain(): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    const late = await Promise.race([
      this.written().then(() => false),
      new Promise<boolean>((resolve) => {
        timer = setTimeout(() => resolve(true), WRITER_WAIT_MS);
      }),
    ]);
    clearTimeout(timer);
    if (late && this.writer.alive) this.fail(new Error(`the audit writer thread did not answer within ${WRITER_WAIT_MS / 1000} s`));
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
    const records = this.spill.take().map(storedRecord);
    if (records.length === 0) return;
    this.queue.putBack(records);
    this.progress.queued(records.length);
    this.trim();
    this.schedule(this.flushIntervalMs);
  }

  /** At close: what is still unwritten (spilled records included) goes to the spill file for the next run. */
  private keepUnwritten(): void {
    const unwritten = [...(this.inflight?.batch ?? []), ...this.queue.toArray()];
    this.spill.keep(
      unwritten.map(preparedRecord),
      this.problems.current?.message ?? 'the database is unavailable',
    );
  }

  private previewBytes(): number {
    return this.options.previewBytes ?? DEFAULT_PREVIEW_BYTES;
  }

  private enqueue(item: StoredRecord): void {
    this.writer.clearRest();
    this.queue.push(item);
    this.lastRecordAt = performance.now();
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
    const batch = this.queue.take(max);
    const { calls, ...rest } = this.writeBatch(batch);
    this.inflight = { id: writer.sendBatch(calls, rest, this.now()), batch };
    return true;
  }

  /** The batch as the writer takes it: its calls' rows (see rows.ts), its events as they are. */
  private writeBatch(batch: readonly StoredRecord[]): Omit<WireBatch, 'calls'> & { calls: string[] } {
    // The spilled records lead the queue: they may be in the file already, if a run was killed writing them back.
    const leading = this.spill.leading(batch.length);
    const calls: string[] = [];
    const events: RowParams[] = [];
    const spilled = { calls: 0, events: 0 };
    batch.forEach((record, i) => {
      if (record.type === 'call') {
        calls.push(record.row);
        if (i < leading) spilled.calls++;
      } else {
        events.push(record.params);
        if (i < leading) spilled.events++;
      }
    });
    return { calls, events, spilled };
  }

  private onReply(reply: WriterReply): void {
    this.writerOpen = reply.open;
    // The database failed or closed: the reader's connections go too, and open afresh with the next read.
    if (!reply.open && !this.resting) this.reader.stop();
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
        this.queue.putBack(batch);
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
    else if (!this.inflight) {
      this.scheduleRest();
      if (batch) this.scheduleIdleIndex();
    }
  }

  /** Once no record has come for IDLE_INDEX_MS, the writer indexes what it has not yet, so the next search need not wait for it. */
  private scheduleIdleIndex(): void {
    if (this.idleTimer || this.closed) return;
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      if (this.queue.length > 0 || this.inflight || this.closed) return;
      const quietFor = performance.now() - this.lastRecordAt;
      if (quietFor < IDLE_INDEX_MS) this.scheduleIdleIndex();
      else if (this.writer.alive && this.readable) this.writer.current!.send({ op: 'index', now: this.now() });
    }, IDLE_INDEX_MS);
    this.idleTimer.unref();
  }

  /**
   * Resolves once every call recorded before it is in the search indexes, or cannot be now (see
   * `written`; a failure to index is told as a write's is): a search then finds every call recorded
   * before it.
   */
  async indexed(): Promise<void> {
    await this.written();
    if (!this.readable || this.problems.retryIn() > 0) return;
    const writer = this.writerThread();
    if (!writer) return;
    this.writer.clearRest();
    this.indexing++;
    this.holdWriter();
    try {
      await writer.answered(writer.send({ op: 'index', now: this.now() }), WRITER_WAIT_MS);
    } finally {
      this.indexing--;
      this.holdWriter();
    }
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
    this.writer.current?.hold(this.upgrade.running || this.progress.waiting || this.indexing > 0);
  }

  private scheduleRest(): void {
    if (!this.closed) this.writer.scheduleRest(() => this.rest());
  }

  /** Stops an idle writer thread; the database stays as writable as it was, and the next record starts a new thread. */
  private rest(): void {
    if (this.inflight || this.opening !== undefined || this.upgrade.running || this.queue.length > 0 || this.closed) return;
    // The thread's answer to closing its connection says the database is closed: it is, for this thread only.
    const wasOpen = this.writerOpen;
    this.resting = true;
    this.writer.rest();
    this.resting = false;
    this.writerOpen = wasOpen;
  }

  private trim(): void {
    const excess = this.queue.length - this.maxQueue;
    if (excess <= 0) return;
    this.queue.take(excess);
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
  private await(writer: WriterThread, id: number, timeoutMs = WRITER_WAIT_MS): void {
    if (!writer.waitFor(id, timeoutMs, () => this.upgrade.running) && writer.alive && !this.upgrade.running) {
      this.fail(new Error(`the audit writer thread did not answer within ${timeoutMs / 1000} s`));
    }
  }

  private crashed(error: Error): void {
    this.writerOpen = false;
    this.opening = undefined;
    this.upgradeEnded('writer-stopped');
    if (this.inflight) {
      this.queue.putBack(this.inflight.batch);
      this.inflight = undefined;
      this.trim();
    }
    this.fail(error);
    this.releaseWaiters();
    this.schedule(this.retryMs);
  }

  /** Whether history can be read: the database is open and not being upgraded. */
  private get readable(): boolean {
    return this.writerOpen && !this.upgrade.running && !this.closed;
  }

  /** Reads in the reader thread once what was recorded before is written; undefined while history cannot be read. */
  private async read<K extends 'page' | 'call' | 'transactions'>(op: K, args: ReaderOps[K]['args']): Promise<ReaderOps[K]['value'] | undefined> {
    await this.written();
    return this.readable ? this.reader.request(op, args) : undefined;
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
