/**
 * Adapter: the audit trail as JSON lines or CSV, one call or event per line, oldest first, calls and
 * events merged by time; or the calls a console filter matches, as its history search finds them. Lines
 * come lazily from SQLite iterators, and the output is written as it drains, so memory stays flat however
 * many records there are. Works while Junction runs (WAL readers do not block its writer) and while it
 * is stopped. The command line writes lines here on its own thread; a running Junction forms them in its
 * reader thread and writes them out in chunks (`reader-worker.ts`, `AuditStore.exportTo`).
 *
 * Records a Junction could not write before it closed wait in the spill file (spill.ts) until the next
 * start writes them; they are part of the trail, so the export merges them in. That file is bounded by the
 * store's queue and read whole, as the store itself reads it. A spilled record already in the database
 * (the moments between the next start's write and its removal of the file) is exported once.
 */
import { existsSync } from 'node:fs';
import type { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { JunctionError } from '../contracts/index.js';
import { CALL_COLUMNS, CALL_FIELDS, unsequencedCall, type CallRow, type EventRow } from './database.js';
import { queryCalls } from './queries.js';
import type { CallQuery, StoredCall } from './records.js';
import { loadSpill, spillPath, type SpilledCall, type SpilledEvent } from './spill.js';

export type ExportFormat = 'jsonl' | 'csv';

/** A time window of the trail: epoch ms, `since` inclusive, `until` exclusive. */
export interface ExportWindow {
  since?: number;
  until?: number;
}

export interface ExportOptions extends ExportWindow {
  path: string;
  format: ExportFormat;
  /** Told what the export skipped (damaged lines of the spill file). */
  warn?: (message: string) => void;
}

/** The console's filter on an export: the calls its history search finds (`refused`: refused by the policy or operator, or not). */
export type ExportFilter = Omit<CallQuery, 'limit' | 'before' | 'since' | 'until'> & { refused?: boolean };

const CSV_COLUMNS = [
  'type', 'at', 'callId', 'agent', 'transport', 'tool', 'target', 'status', 'errorCode', 'durationMs', 'requestBytes', 'responseBytes',
  'policy', 'decidedBy', 'replayOf', 'traceparent', 'redacted', 'kind', 'workspaceId', 'transactionId', 'arguments', 'result', 'data',
] as const;

export type Line = Partial<Record<(typeof CSV_COLUMNS)[number], unknown>>;

type UnsequencedCall = Omit<CallRow, 'seq'>;
type UnsequencedEvent = Omit<EventRow, 'seq'>;

function storedCallLine(stored: Omit<StoredCall, 'seq'>): Line {
  const line: Line = { type: 'call', at: new Date(stored.call.startedAt).toISOString(), ...stored.call, policy: stored.policy, decidedBy: stored.decidedBy, replayOf: stored.replayOf, redacted: stored.redacted, arguments: stored.arguments };
  if (stored.result !== undefined) line.result = stored.result;
  return line;
}

const callLine = (row: UnsequencedCall): Line => storedCallLine(unsequencedCall(row));

function eventLine(row: UnsequencedEvent): Line {
  return { type: 'event', at: new Date(row.at).toISOString(), kind: row.kind, workspaceId: row.workspace_id, transactionId: row.transaction_id, data: JSON.parse(row.data) };
}

const spilledCallRow = (params: SpilledCall): UnsequencedCall => Object.fromEntries(CALL_FIELDS.map(([column, key]) => [column, params[key]])) as UnsequencedCall;

const spilledEventRow = (params: SpilledEvent): UnsequencedEvent => ({ at: params.at, kind: params.kind, workspace_id: params.workspaceId, transaction_id: params.transactionId, data: params.data });

/** A line and the time it sorts by. */
interface Timed {
  at: number;
  line: Line;
}

function* timed<R>(rows: Iterable<R>, at: (row: R) => number, line: (row: R) => Line): Generator<Timed> {
  for (const row of rows) yield { at: at(row), line: line(row) };
}

/**
 * The lines of every source, oldest first; on a tie the earlier source goes first (calls before events,
 * the database before the spill file). Sources left unread are closed, so no statement stays open.
 */
function* mergedByTime(sources: ReadonlyArray<Generator<Timed>>): Generator<Line> {
  const take = (source: Generator<Timed>) => {
    const next = source.next();
    return next.done ? undefined : next.value;
  };
  try {
    const heads = sources.map(take);
    for (;;) {
      let first = -1;
      for (let i = 0; i < heads.length; i++) {
        const at = heads[i]?.at;
        if (at !== undefined && (first === -1 || at < heads[first]!.at)) first = i;
      }
      if (first === -1) return;
      yield heads[first]!.line;
      heads[first] = take(sources[first]!);
    }
  } finally {
    for (const source of sources) source.return(undefined);
  }
}

function csvCell(value: unknown): string {
  if (value === undefined || value === null) return '';
  const text = typeof value === 'string' ? value : typeof value === 'number' || typeof value === 'boolean' ? String(value) : JSON.stringify(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function formatLine(line: Line, as: ExportFormat): string {
  if (as === 'jsonl') return `${JSON.stringify(line)}\n`;
  return `${CSV_COLUMNS.map((c) => csvCell(line[c])).join(',')}\n`;
}

/** What an export starts with before its first line: the CSV header row. */
export const exportHeader = (as: ExportFormat): string => (as === 'csv' ? `${CSV_COLUMNS.join(',')}\n` : '');

/**
 * Writes `text`, waiting for the output to drain; false once the output is closed, when its reader went
 * away (`junction audit export | head`): the export then stops, as a Unix filter does.
 */
export async function write(out: Writable, text: string): Promise<boolean> {
  if (out.destroyed) return false;
  if (out.write(text)) return true;
  return new Promise<boolean>((resolve, reject) => {
    const settle = (open: boolean, error?: Error) => {
      out.off('drain', onDrain);
      out.off('close', onClose);
      out.off('error', onError);
      if (error) reject(error);
      else resolve(open);
    };
    const onDrain = () => settle(true);
    const onClose = () => settle(false);
    const onError = (error: NodeJS.ErrnoException) => settle(false, error.code === 'EPIPE' ? undefined : error);
    out.once('drain', onDrain);
    out.once('close', onClose);
    out.once('error', onError);
  });
}

/**
 * The call columns to select from this file: one an older Junction wrote (or one still being upgraded)
 * lacks the columns later schema versions added, which read as null, as for a call that had none.
 */
function callColumns(db: Database.Database): string {
  const present = new Set((db.prepare("SELECT name FROM pragma_table_info('calls')").pluck().all() as string[]));
  return CALL_COLUMNS.split(', ')
    .map((column) => (present.has(column) ? column : `NULL AS ${column}`))
    .join(', ');
}

/**
 * The trail's database for an export, read-only, or undefined when only a spill file exists; throws
 * `ResourceNotFound` when neither does. The caller closes it once the lines are read.
 */
export function openExport(path: string): Database.Database | undefined {
  const hasDatabase = existsSync(path);
  if (!hasDatabase && !existsSync(spillPath(path))) throw new JunctionError('ResourceNotFound', `No audit trail at ${path}; check state-dir (Junction records there once it has served a call).`);
  return hasDatabase ? new Database(path, { readonly: true, fileMustExist: true, timeout: 2_000 }) : undefined;
}

/**
 * Every record of the trail in the window, oldest first, from `db` (see `openExport`) and the spill file
 * beside `path`. Closing the generator early closes its statements.
 */
export function* trailLines(db: Database.Database | undefined, options: Omit<ExportOptions, 'format'>): Generator<Line> {
  const pendingPath = spillPath(options.path);
  const since = options.since ?? Number.MIN_SAFE_INTEGER;
  const until = options.until ?? Number.MAX_SAFE_INTEGER;
  const inWindow = (at: number) => at >= since && at < until;
  // A file Junction never migrated (its first open failed) holds no trail yet.
  const tables = db ? new Set((db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name IN ('calls', 'events')").pluck().all() as string[])) : new Set<string>();
  const rows = <R>(table: string, sql: string): Iterable<R> => (db && tables.has(table) ? (db.prepare(sql).iterate(since, until) as IterableIterator<R>) : []);
  const written = {
    call: db && tables.has('calls') ? db.prepare('SELECT 1 FROM calls WHERE call_id = ?').pluck() : undefined,
    event: db && tables.has('events') ? db.prepare('SELECT 1 FROM events WHERE at = ? AND kind = ? AND data = ?').pluck() : undefined,
  };
  const pending = loadSpill(pendingPath);
  if (pending.damaged > 0) options.warn?.(`${pending.damaged} damaged lines of ${pendingPath} were skipped`);
  const spilledCalls: UnsequencedCall[] = [];
  const spilledEvents: UnsequencedEvent[] = [];
  for (const record of pending.records) {
    if (record.type === 'call') {
      if (inWindow(record.params.startedAt) && written.call?.get(record.params.callId) === undefined) spilledCalls.push(spilledCallRow(record.params));
    } else if (inWindow(record.params.at) && written.event?.get(record.params.at, record.params.kind, record.params.data) === undefined) {
      spilledEvents.push(spilledEventRow(record.params));
    }
  }
  // Records are spilled in the order they were recorded, which is not the order of their times.
  spilledCalls.sort((a, b) => a.started_at - b.started_at);
  spilledEvents.sort((a, b) => a.at - b.at);
  const callAt = (row: UnsequencedCall) => row.started_at;
  const eventAt = (row: UnsequencedEvent) => row.at;
  yield* mergedByTime([
    timed(rows<CallRow>('calls', `SELECT ${db && tables.has('calls') ? callColumns(db) : CALL_COLUMNS} FROM calls WHERE started_at >= ? AND started_at < ? ORDER BY started_at, seq`), callAt, callLine),
    timed(spilledCalls, callAt, callLine),
    timed(rows<EventRow>('events', 'SELECT * FROM events WHERE at >= ? AND at < ? ORDER BY at, seq'), eventAt, eventLine),
    timed(spilledEvents, eventAt, eventLine),
  ]);
}

/** Calls read per history page while a filtered export goes through them. */
const MATCHING_PAGE = 500;

/** The recorded calls a console filter matches in the window, newest first (as the history lists them), page by page through the history search. */
export function* matchingLines(db: Database.Database, filter: ExportFilter, window: ExportWindow): Generator<Line> {
  const { refused, ...query } = filter;
  let before: number | undefined;
  do {
    const page = queryCalls(db, { ...query, ...window, limit: MATCHING_PAGE, ...(before !== undefined ? { before } : {}) });
    for (const stored of page.items) if (refused === undefined || (stored.call.policy?.decision === 'deny') === refused) yield storedCallLine(stored);
    before = page.nextBefore;
  } while (before !== undefined);
}

/** Writes the export to `out` on this thread (the command line's) and resolves with the number of records written (fewer when `out` closed first); `out` is left open. */
export async function exportAudit(options: ExportOptions, out: Writable): Promise<number> {
  const db = openExport(options.path);
  try {
    return await writeLines(trailLines(db, options), options.format, out);
  } finally {
    db?.close();
  }
}

/** Writes `lines` with the export's header, each as the output drains; resolves with how many were written. */
export async function writeLines(lines: Iterable<Line>, as: ExportFormat, out: Writable): Promise<number> {
  const header = exportHeader(as);
  if (header && !(await write(out, header))) return 0;
  let count = 0;
  for (const line of lines) {
    if (!(await write(out, formatLine(line, as)))) break;
    count++;
  }
  return count;
}

/** Parses `--since`/`--until` values: ISO 8601 dates or date-times. */
export function parseInstant(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) throw new JunctionError('ConfigInvalid', `${name}: expected an ISO 8601 date or date-time (2026-01-31 or 2026-01-31T12:00:00Z), got ${JSON.stringify(text)}`);
  return ms;
}
