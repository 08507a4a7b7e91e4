/**
 * The audit database as files and rows: opening it for writing (WAL, migrated), the words for what went
 * wrong with it, and the conversion between rows and the trail's records. Shared by the writer (which may
 * run in a worker thread), the store's reading connection and the export.
 */
import { closeSync, existsSync, mkdirSync, openSync, readSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import type { CallView, PolicyDecisionView } from '../contracts/index.js';
import type { AuditEventKind, StoredCall, StoredEvent } from './records.js';
import { assertSupported, migrate, SCHEMA_VERSION, type MigrationReport, type UpgradeListener } from './schema.js';
import { errorMessage } from '../shared/index.js';

export const CALL_COLUMNS =
  'seq, call_id, started_at, agent, transport, tool, target, status, error_code, duration_ms, request_bytes, response_bytes, arguments, result, redacted, truncated, policy, decided_by, replay_of, traceparent';

/**
 * A call row's columns and the keys of its parameters (rows.ts). The writer binds them by position
 * (better-sqlite3 binds a named parameter by looking its name up on the object, twice, which costs more
 * than the array's reads); an export reads spilled parameters back as rows through them.
 */
export const CALL_FIELDS = [
  ['call_id', 'callId'],
  ['started_at', 'startedAt'],
  ['agent', 'agent'],
  ['transport', 'transport'],
  ['tool', 'tool'],
  ['target', 'target'],
  ['status', 'status'],
  ['error_code', 'errorCode'],
  ['duration_ms', 'durationMs'],
  ['request_bytes', 'requestBytes'],
  ['response_bytes', 'responseBytes'],
  ['arguments', 'arguments'],
  ['result', 'result'],
  ['redacted', 'redacted'],
  ['truncated', 'truncated'],
  ['policy', 'policy'],
  ['decided_by', 'decidedBy'],
  ['replay_of', 'replayOf'],
  ['traceparent', 'traceparent'],
] as const;

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
  traceparent: string | null;
}

export interface EventRow {
  seq: number;
  at: number;
  kind: string;
  workspace_id: string | null;
  transaction_id: string | null;
  data: string;
}

const parseJson = (text: string | null): unknown => (text === null ? undefined : JSON.parse(text));

export function rowToCall(row: CallRow): StoredCall {
  return { seq: row.seq, ...unsequencedCall(row) };
}

/** A call's stored columns as the trail reads them back, for rows with a sequence number and for spilled ones without. */
export function unsequencedCall(row: Omit<CallRow, 'seq'>): Omit<StoredCall, 'seq'> {
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
  if (row.traceparent !== null) call.traceparent = row.traceparent;
  const policy = row.policy === null ? null : parseJson(row.policy);
  // History rows say who decided what, as live ones do.
  if (policy !== null) call.policy = policy as PolicyDecisionView;
  return {
    call,
    arguments: parseJson(row.arguments),
    result: parseJson(row.result),
    redacted: row.redacted === null ? [] : (JSON.parse(row.redacted) as string[]),
    truncated: row.truncated === 1,
    policy,
    decidedBy: row.decided_by,
    replayOf: row.replay_of,
  };
}

export function rowToEvent(row: EventRow): StoredEvent {
  return { seq: row.seq, kind: row.kind as AuditEventKind, at: row.at, workspaceId: row.workspace_id, transactionId: row.transaction_id, data: JSON.parse(row.data) };
}

/**
 * Whether the file holds recorded history at an older schema version, read from its header without
 * writing: an upgrade that may take long. False for a missing file, a new empty one, a current or a
 * newer one, and for one that cannot be read (opening it for writing reports why).
 */
export function needsUpgrade(path: string): boolean {
  if (!existsSync(path)) return false;
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true, timeout: 0 });
    if ((db.pragma('user_version', { simple: true }) as number) >= SCHEMA_VERSION) return false;
    return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'calls'").get() !== undefined;
  } catch {
    return false;
  } finally {
    db?.close();
  }
}

/**
 * Each connection's page cache, in KiB: SQLite's default (2,000 KiB), stated so what relies on it (the
 * audit memory test's plateau) reads it here. The writer appends at the ends of its indexes (seqs,
 * time-ordered ids), and a 16 MB cache bought no measurable write speed, while the memory it freed when
 * the writer thread rested stayed in the allocator's arena (12 MB of RSS after a load).
 */
export const PAGE_CACHE_KIB = 2_000;

/** The write-ahead log's size limit: many batches' worth, so ordinary writes never truncate it. */
const WAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** Listeners to a database's opening: how an upgrade goes, and the migration that ran. */
export interface OpenListeners {
  upgrade?: UpgradeListener;
  migrated?: (report: MigrationReport) => void;
}

/** The database file's size in bytes as its header records it, when the header says it is current; undefined otherwise. */
function headerBytes(path: string): number | undefined {
  const header = Buffer.alloc(100);
  const fd = openSync(path, 'r');
  try {
    if (readSync(fd, header, 0, header.length, 0) < header.length) return undefined;
  } finally {
    closeSync(fd);
  }
  if (header.toString('latin1', 0, 16) !== 'SQLite format 3\u0000') return undefined;
  const raw = header.readUInt16BE(16);
  const pageSize = raw === 1 ? 65_536 : raw;
  // The in-header page count is valid only when written with the current change counter (SQLite's own rule).
  if (header.readUInt32BE(92) !== header.readUInt32BE(24)) return undefined;
  return header.readUInt32BE(28) * pageSize;
}

/**
 * Throws `SQLITE_CORRUPT` when the file is shorter than its header says, which SQLite itself notices
 * only when a read reaches a missing page: a trail cut short (a copy, a full disk, a crash of the disk)
 * would look whole, record, and lose its newest pages without a word. Sound only without a write-ahead
 * log: pages in the log may lie beyond the file's end until a checkpoint copies them.
 */
function assertWhole(path: string): void {
  if (!existsSync(path)) return;
  const wal = `${path}-wal`;
  if (existsSync(wal) && statSync(wal).size > 0) return;
  const size = statSync(path).size;
  const expected = size === 0 ? undefined : headerBytes(path);
  if (expected !== undefined && size < expected) {
    throw Object.assign(new Error(`it is truncated: ${size} bytes of the ${expected} its header records`), { code: 'SQLITE_CORRUPT' });
  }
}

/**
 * Opens (creating when needed) an audit database for writing, in WAL mode, never waiting on another
 * process's lock, and migrates it to the current schema (told to `migrated` when it had to). A file
 * shorter than its header says is refused as damaged.
 */
export function openAuditDatabase(path: string, listeners: OpenListeners = {}): Database.Database {
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  assertWhole(path);
  const db = new Database(path, { timeout: 0 });
  try {
    // Before any pragma writes to the file: a newer Junction's database stays exactly as it was.
    assertSupported(db);
    // Incremental auto-vacuum lets size-based retention give pages back to the file system.
    db.pragma('auto_vacuum = INCREMENTAL');
    db.pragma('journal_mode = WAL');
    // The write-ahead log keeps the size its largest transaction gave it; past this it is cut back after a
    // checkpoint. An upgrade's backfill is one transaction as large as the search index it builds.
    db.pragma(`journal_size_limit = ${WAL_SIZE_LIMIT_BYTES}`);
    db.pragma('synchronous = NORMAL');
    db.pragma(`cache_size = -${PAGE_CACHE_KIB}`);
    const report = migrate(db, SCHEMA_VERSION, listeners.upgrade);
    if (report) {
      // Gives the log's pages back now rather than after the next write's checkpoint.
      db.pragma('wal_checkpoint(TRUNCATE)');
      listeners.migrated?.(report);
    }
    return db;
  } catch (error) {
    db.close();
    throw error;
  }
}

/** Words for the operator: what went wrong with the database, without a stack. */
export function describeDbError(path: string, error: unknown): { key: string; message: string } {
  const code = (error as { code?: unknown }).code;
  const text = errorMessage(error);
  if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') return { key: 'locked', message: `the audit database ${path} is locked by another process` };
  if (code === 'SQLITE_FULL' || /ENOSPC|disk is full|database or disk is full/i.test(text)) return { key: 'full', message: `the disk holding the audit database ${path} is full` };
  if (code === 'SQLITE_READONLY' || code === 'SQLITE_CANTOPEN' || code === 'EACCES') return { key: 'access', message: `the audit database ${path} cannot be written (${text})` };
  if (code === 'SQLITE_CORRUPT' || code === 'SQLITE_NOTADB') return { key: 'corrupt', message: `the audit database ${path} is damaged (${text}); move it aside to start a new one` };
  return { key: `other:${String(code)}`, message: `the audit database ${path} failed: ${text}` };
}
