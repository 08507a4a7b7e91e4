/**
 * Adapter: the durable audit trail in SQLite (better-sqlite3, WAL). Recording only appends to an
 * in-memory queue; a timer flushes it off the call path, redacting and writing each batch in one
 * transaction, so a batch is either wholly in the file or not at all. A locked, full or broken database
 * never fails a call: the store warns once per distinct problem, keeps a bounded queue, retries, and
 * counts what it had to drop.
 */
import { mkdirSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { CallView } from '../control/index.js';
import type { Logger } from '../shared/log.js';
import type { AuditCallInput, AuditEventInput, AuditEventKind, AuditStatus, CallPage, CallQuery, StoredCall, StoredEvent } from './records.js';
import { redactCall, redactValue, type RedactionRules } from './redact.js';
import { assertSupported, migrate, type MigrationReport } from './schema.js';
import { searchExpression } from './search.js';

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
  /** How long after a failure the store waits before opening the database again. */
  retryMs?: number;
  now?: () => number;
}

export const CALL_COLUMNS =
  'seq, call_id, started_at, agent, transport, tool, target, status, error_code, duration_ms, request_bytes, response_bytes, arguments, result, redacted, truncated, policy, decided_by, replay_of';

export interface CallRow {
  seq: number;
  call_id: string;
  started_at: number;
  agent: string;
  transport: string;
  tool: string;
  target: string;
  status: string;
  error_code: string | null;
  duration_ms: number | null;
  request_bytes: number;
  response_bytes: number | null;
  arguments: string;
  result: string | null;
  redacted: string | null;
  truncated: number;
  policy: string | null;
  decided_by: string | null;
  replay_of: string | null;
}

export interface EventRow {
  seq: number;
  at: number;
  kind: string;
  workspace_id: string | null;
  transaction_id: string | null;
  data: string;
}

type Queued = { type: 'call'; input: AuditCallInput } | { type: 'event'; input: AuditEventInput };

const DAY_MS = 86_400_000;
const PRUNE_EVERY_MS = 60_000;
/**
 * Records per timer-driven transaction: writing is synchronous on the event loop, so a bounded batch
 * (tens of microseconds a record) keeps every pause short; the rest follows on the next turn.
 */
const TIMED_BATCH = 500;
/** Rows one retention statement deletes, so a large backlog of expired records is removed in short steps. */
const PRUNE_STEP = 10_000;
/** Longest a size-cap pass may hold the event loop before it yields and continues at the next flush. */
const PRUNE_BUDGET_MS = 25;

/** JSON text of a value, replaced by a JSON string preview when longer than `max` bytes. */
export function jsonPreview(value: unknown, max: number): { text: string; truncated: boolean } {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch {
    text = JSON.stringify(String(value));
  }
  if (text.length <= max / 3 || Buffer.byteLength(text, 'utf8') <= max) return { text, truncated: false };
  return { text: JSON.stringify(`${text.slice(0, Math.floor(max / 3))}…`), truncated: true };
}

const parseJson = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));

export function rowToCall(row: CallRow): StoredCall {
  const call: CallView = {
    callId: row.call_id,
    agent: row.agent,
    transport: row.transport as CallView['transport'],
    tool: row.tool,
    target: row.target,
    status: row.status as CallView['status'],
    startedAt: row.started_at,
    requestBytes: row.request_bytes,
  };
  if (row.duration_ms !== null) call.durationMs = row.duration_ms;
  if (row.response_bytes !== null) call.responseBytes = row.response_bytes;
  if (row.error_code !== null) call.errorCode = row.error_code;
  if (row.replay_of !== null) call.replayOf = row.replay_of;
  return {
    seq: row.seq,
    call,
    arguments: parseJson(row.arguments),
    result: parseJson(row.result),
    redacted: row.redacted === null ? [] : (JSON.parse(row.redacted) as string[]),
    truncated: row.truncated === 1,
    policy: row.policy === null ? null : parseJson(row.policy),
    decidedBy: row.decided_by,
    replayOf: row.replay_of,
  };
}

export function rowToEvent(row: EventRow): StoredEvent {
  return { seq: row.seq, kind: row.kind as AuditEventKind, at: row.at, workspaceId: row.workspace_id, transactionId: row.transaction_id, data: JSON.parse(row.data) };
}

/**
 * Opens (creating when needed) an audit database for writing, in WAL mode, never waiting on another
 * process's lock, and migrates it to the current schema (told to `migrated` when it had to).
 */
export function openAuditDatabase(path: string, migrated?: (report: MigrationReport) => void): Database.Database {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const db = new Database(path, { timeout: 0 });
  try {
    // Before any pragma writes to the file: a newer Junction's database stays exactly as it was.
    assertSupported(db);
    // Incremental auto-vacuum lets size-based retention give pages back to the file system.
    db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = NORMAL');
    // Call ids are random, so their index takes inserts all over the tree; a larger page cache keeps those pages in memory.
    db.pragma('cache_size = -16384');
    const report = migrate(db);
    if (report) migrated?.(report);
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Words for the operator: what went wrong with the database, without a stack. */
export function describeDbError(path: string, error: unknown): { key: string; message: string } {
  const code = (error as { code?: unknown }).code;
  const text = error instanceof Error ? error.message : String(error);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return { key: 'locked', message: `the audit database ${path} is locked by another process` };
  if (code === 'SQLITE_FULL' || /ENOSPC|disk is full|database or disk is full/i.test(text)) return { key: 'full', message: `the disk holding the audit database ${path} is full` };
  if (code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN' || code === 'EACCES') return { key: 'access', message: `the audit database ${path} cannot be written (${text})` };
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') return { key: 'corrupt', message: `the audit database ${path} is damaged (${text}); move it aside to start a new one` };
  return { key: `other:${String(code)}`, message: `the audit database ${path} failed: ${text}` };
}

export class AuditStore {
  private db: Database.Database | undefined;
  private writeBatch: ((batch: Queued[]) => void) | undefined;
  private queue: Queued[] = [];
  private timer: NodeJS.Timeout | undefined;
  private dropped = 0;
  private problem: { key: string; message: string } | undefined;
  private retryAt = 0;
  private lastPrune = 0;
  private closed = false;
  private readonly previewBytes: number;
  private readonly flushIntervalMs: number;
  private readonly maxQueue: number;
  private readonly retryMs: number;
  private readonly now: () => number;

  constructor(private readonly options: AuditStoreOptions) {
    this.previewBytes = options.previewBytes ?? 16 * 1024;
    this.flushIntervalMs = options.flushIntervalMs ?? 100;
    this.maxQueue = options.maxQueue ?? 50_000;
    this.retryMs = options.retryMs ?? 5_000;
    this.now = options.now ?? Date.now;
  }

  /** Opens the database; a failure is reported as a warning and retried later, never thrown. */
  open(): void {
    this.tryOpen();
  }

  status(): AuditStatus {
    const out: AuditStatus = { path: this.options.path, state: this.db ? 'open' : 'unavailable', queued: this.queue.length, dropped: this.dropped };
    if (this.problem) out.reason = this.problem.message;
    return out;
  }

  recordCall(input: AuditCallInput): void {
    this.enqueue({ type: 'call', input });
  }

  recordEvent(input: AuditEventInput): void {
    this.enqueue({ type: 'event', input });
  }

  /** Writes everything queued in one transaction. Safe to call at any time; never throws. */
  flush(): void {
    this.write(Number.POSITIVE_INFINITY);
  }

  /** Writes up to `max` queued records in one transaction and schedules the rest. */
  private write(max: number): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.queue.length === 0) return;
    if (!this.db && !this.tryOpen()) {
      this.schedule(this.retryMs);
      return;
    }
    const batch = this.queue.length <= max ? this.queue : this.queue.slice(0, max);
    this.queue = this.queue.length <= max ? [] : this.queue.slice(max);
    try {
      this.writeBatch?.(batch);
      this.recovered();
      if (this.now() - this.lastPrune >= PRUNE_EVERY_MS) this.prune();
      if (this.queue.length > 0) this.schedule(0);
    } catch (error) {
      // The transaction rolled back: nothing of this batch is in the file, so it is retried whole.
      this.queue = batch.concat(this.queue);
      this.trim();
      this.fail(error);
      this.schedule(this.retryMs);
    }
  }

  /** Newest first, filtered on the server side, paged by sequence cursor. */
  queryCalls(query: CallQuery): CallPage {
    this.flush();
    const db = this.db;
    if (!db) return { items: [] };
    const where: string[] = [];
    const params: Record<string, string | number> = {};
    const text = query.text?.trim();
    const match = text ? searchExpression(text) : undefined;
    // Text without a single word can match nothing (see search.ts).
    if (text && !match) return { items: [] };
    if (query.status) {
      // With a tool or agent, those indexes are far more selective; the unary + keeps the planner off the status index.
      where.push(query.tool || query.agent ? '+c.status = @status' : 'c.status = @status');
      params.status = query.status;
    }
    if (query.tool) {
      where.push('c.tool = @tool');
      params.tool = query.tool;
    }
    if (query.agent) {
      where.push('c.agent = @agent');
      params.agent = query.agent;
    }
    if (query.since !== undefined) {
      where.push('c.started_at >= @since');
      params.since = query.since;
    }
    if (query.until !== undefined) {
      where.push('c.started_at < @until');
      params.until = query.until;
    }
    if (query.before !== undefined) {
      // On the index's rowid when searching, so the full-text scan itself starts below the cursor.
      where.push(match ? 'calls_fts.rowid < @before' : 'c.seq < @before');
      params.before = query.before;
    }
    if (match) {
      where.push('calls_fts MATCH @match');
      params.match = match;
    }
    params.limit = query.limit + 1;
    const columns = CALL_COLUMNS.split(', ').map((c) => `c.${c}`).join(', ');
    // Searching walks the index's matches newest first and stops at a full page.
    const from = match ? 'calls_fts JOIN calls c ON c.seq = calls_fts.rowid' : 'calls c';
    const order = match ? 'calls_fts.rowid' : 'c.seq';
    const sql = `SELECT ${columns} FROM ${from} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} DESC LIMIT @limit`;
    const rows = db.prepare(sql).all(params) as CallRow[];
    const items = rows.slice(0, query.limit).map(rowToCall);
    const last = items[items.length - 1];
    return rows.length > query.limit && last ? { items, nextBefore: last.seq } : { items };
  }

  findCall(callId: string): StoredCall | undefined {
    this.flush();
    const row = this.db?.prepare(`SELECT ${CALL_COLUMNS} FROM calls WHERE call_id = ? ORDER BY seq DESC LIMIT 1`).get(callId) as CallRow | undefined;
    return row ? rowToCall(row) : undefined;
  }

  /** Events of the most recent transactions that ended (committed or rolled back), newest transaction first. */
  endedTransactions(limit: number): Array<{ transactionId: string; events: StoredEvent[] }> {
    this.flush();
    const db = this.db;
    if (!db) return [];
    const ids = db
      .prepare("SELECT transaction_id AS id, MAX(seq) AS last FROM events WHERE kind IN ('transaction.committed', 'transaction.rolledBack') AND transaction_id IS NOT NULL GROUP BY transaction_id ORDER BY last DESC LIMIT ?")
      .all(limit) as Array<{ id: string }>;
    const byTx = db.prepare('SELECT * FROM events WHERE transaction_id = ? ORDER BY seq');
    return ids.map(({ id }) => ({ transactionId: id, events: (byTx.all(id) as EventRow[]).map(rowToEvent) }));
  }

  /** Deletes records past the retention age, then the oldest until the file fits `maxBytes`. */
  prune(): void {
    const db = this.db;
    if (!db) return;
    this.lastPrune = this.now();
    try {
      const cutoff = this.now() - this.options.retentionDays * DAY_MS;
      const expiredCalls = db.prepare('DELETE FROM calls WHERE seq IN (SELECT seq FROM calls WHERE started_at < ? LIMIT ?)').run(cutoff, PRUNE_STEP).changes;
      const expiredEvents = db.prepare('DELETE FROM events WHERE seq IN (SELECT seq FROM events WHERE at < ? LIMIT ?)').run(cutoff, PRUNE_STEP).changes;
      // More expired rows remain: the next flush continues instead of one long pause now.
      if (expiredCalls === PRUNE_STEP || expiredEvents === PRUNE_STEP) this.lastPrune = 0;
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      const used = () => ((db.pragma('page_count', { simple: true }) as number) - (db.pragma('freelist_count', { simple: true }) as number)) * pageSize;
      const started = performance.now();
      while (used() > this.options.maxBytes) {
        const { n } = db.prepare('SELECT COUNT(*) AS n FROM calls').get() as { n: number };
        const { e } = db.prepare('SELECT COUNT(*) AS e FROM events').get() as { e: number };
        if (n + e === 0) break;
        // A tenth of the oldest rows per round: few rounds, and no more history lost than the cap demands.
        db.prepare('DELETE FROM calls WHERE seq IN (SELECT seq FROM calls ORDER BY seq LIMIT ?)').run(Math.min(PRUNE_STEP, Math.max(1, Math.ceil(n / 10))));
        db.prepare('DELETE FROM events WHERE seq IN (SELECT seq FROM events ORDER BY seq LIMIT ?)').run(Math.min(PRUNE_STEP, Math.max(1, Math.ceil(e / 10))));
        if (performance.now() - started > PRUNE_BUDGET_MS) {
          this.lastPrune = 0;
          break;
        }
      }
      db.pragma('incremental_vacuum');
      // Keeps the planner's statistics current, so a filtered page walks the most selective index.
      db.pragma('optimize');
      db.pragma('wal_checkpoint(PASSIVE)');
    } catch (error) {
      this.fail(error);
    }
  }

  /** Flushes what is queued and closes the database. */
  close(): void {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    if (this.queue.length > 0) this.options.logger.warn(`audit: ${this.queue.length} records could not be written before closing: ${this.problem?.message ?? 'the database is unavailable'}`);
    this.closeDb();
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

  private enqueue(item: Queued): void {
    if (this.closed) return;
    this.queue.push(item);
    this.trim();
    if (this.queue.length >= TIMED_BATCH) this.schedule(0);
    else this.schedule(this.flushIntervalMs);
  }

  private trim(): void {
    const excess = this.queue.length - this.maxQueue;
    if (excess <= 0) return;
    this.queue.splice(0, excess);
    this.dropped += excess;
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    if (this.timer && delayMs > 0) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.write(TIMED_BATCH), delayMs);
    this.timer.unref();
  }

  private tryOpen(): boolean {
    if (this.db) return true;
    if (this.now() < this.retryAt) return false;
    try {
      this.db = openAuditDatabase(this.options.path, (report) => {
        this.options.logger.info(`audit: upgraded ${this.options.path} from schema ${report.from} to ${report.to}, indexing ${report.calls} recorded calls for search in ${Math.round(report.ms)} ms`);
      });
      this.prepare(this.db);
      this.prune();
      this.recovered();
      return true;
    } catch (error) {
      this.closeDb();
      this.fail(error);
      return false;
    }
  }

  private prepare(db: Database.Database): void {
    const insertCall = db.prepare(
      `INSERT INTO calls (call_id, started_at, agent, transport, tool, target, status, error_code, duration_ms, request_bytes, response_bytes, arguments, result, redacted, truncated, policy, decided_by, replay_of)
       VALUES (@callId, @startedAt, @agent, @transport, @tool, @target, @status, @errorCode, @durationMs, @requestBytes, @responseBytes, @arguments, @result, @redacted, @truncated, @policy, @decidedBy, @replayOf)`,
    );
    const insertEvent = db.prepare('INSERT INTO events (at, kind, workspace_id, transaction_id, data) VALUES (@at, @kind, @workspaceId, @transactionId, @data)');
    this.writeBatch = db.transaction((batch: Queued[]) => {
      for (const item of batch) {
        if (item.type === 'call') insertCall.run(this.callParams(item.input));
        else insertEvent.run(this.eventParams(item.input));
      }
    });
  }

  private callParams(input: AuditCallInput): Record<string, string | number | null> {
    const { call } = input;
    const redacted = redactCall({ arguments: input.arguments, result: input.result }, this.options.rules);
    const args = jsonPreview(redacted.value.arguments, this.previewBytes);
    const result = input.result === undefined ? undefined : jsonPreview(redacted.value.result, this.previewBytes);
    const policy = input.policy === null || input.policy === undefined ? null : jsonPreview(redactValue(input.policy, this.options.rules).value, this.previewBytes).text;
    return {
      callId: call.callId,
      startedAt: call.startedAt,
      agent: call.agent,
      transport: call.transport,
      tool: call.tool,
      target: call.target,
      status: call.status,
      errorCode: call.errorCode ?? null,
      durationMs: call.durationMs ?? null,
      requestBytes: call.requestBytes,
      responseBytes: call.responseBytes ?? null,
      arguments: args.text,
      result: result?.text ?? null,
      redacted: redacted.paths.length > 0 ? JSON.stringify(redacted.paths) : null,
      truncated: args.truncated || result?.truncated ? 1 : 0,
      policy,
      decidedBy: input.decidedBy,
      replayOf: input.replayOf ?? null,
    };
  }

  private eventParams(input: AuditEventInput): Record<string, string | number | null> {
    // Event payloads hold diffs: give them more room than call previews, still bounded.
    const data = jsonPreview(redactValue(input.data, this.options.rules).value, this.previewBytes * 16);
    return { at: input.at, kind: input.kind, workspaceId: input.workspaceId ?? null, transactionId: input.transactionId ?? null, data: data.text };
  }

  private fail(error: unknown): void {
    const problem = describeDbError(this.options.path, error);
    const first = this.problem?.key !== problem.key;
    this.problem = problem;
    this.retryAt = this.now() + this.retryMs;
    if (first) this.options.logger.warn(`audit: ${problem.message}; tool calls continue unrecorded meanwhile (retrying every ${Math.round(this.retryMs / 1000)} s, holding up to ${this.maxQueue} records)`);
    if (problem.key !== 'locked' && problem.key !== 'full') this.closeDb();
  }

  private recovered(): void {
    if (!this.problem) return;
    this.options.logger.warn(`audit: the audit database ${this.options.path} is writable again${this.dropped > 0 ? `; ${this.dropped} records were dropped meanwhile` : ''}`);
    this.problem = undefined;
  }

  private closeDb(): void {
    try {
      this.db?.close();
    } catch {
      // Closing a broken handle can fail too; there is nothing left to release.
    }
    this.db = undefined;
    this.writeBatch = undefined;
  }
}
