/**
 * Adapter: streams the audit trail as JSON lines or CSV, one call or event per line, oldest first, calls
 * and events merged by time. Rows come from SQLite iterators and each line waits for the output to drain,
 * so memory stays flat however many records there are. Works while Junction runs (WAL readers do not
 * block its writer) and while it is stopped.
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
import type { StoredCall } from './records.js';
import { loadSpill, spillPath, type SpilledCall, type SpilledEvent } from './spill.js';

export type ExportFormat = 'jsonl' | 'csv';

export interface ExportOptions {
  path: string;
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
  format: ExportFormat;
  /** Told what the export skipped (damaged lines of the spill file). */
  warn?: (message: string) => void;
}

const CSV_COLUMNS = [
  'type', 'at', 'callId', 'agent', 'transport', 'tool', 'target', 'status', 'errorCode', 'durationMs', 'requestBytes', 'responseBytes',
  'policy', 'decidedBy', 'replayOf', 'traceparent', 'redacted', 'kind', 'workspaceId', 'transactionId', 'arguments', 'result', 'data',
] as const;

type Line = Partial<Record<(typeof CSV_COLUMNS)[number], unknown>>;

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

function format(line: Line, as: ExportFormat): string {
  if (as === 'jsonl') return `${JSON.stringify(line)}\n`;
  return `${CSV_COLUMNS.map((c) => csvCell(line[c])).join(',')}\n`;
}

/**
 * Writes `text`, waiting for the output to drain; false once the output is closed, when its reader went
 * away (`junction audit export | head`): the export then stops, as a Unix filter does.
 */
async function write(out: Writable, text: string): Promise<boolean> {
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

/** Writes the export to `out` and resolves with the number of records written (fewer when `out` closed first); `out` is left open. */
export async function exportAudit(options: ExportOptions, out: Writable): Promise<number> {
  const pendingPath = spillPath(options.path);
  const hasDatabase = existsSync(options.path);
  if (!hasDatabase && !existsSync(pendingPath)) throw new JunctionError('ResourceNotFound', `No audit trail at ${options.path}; check state-dir (Junction records there once it has served a call).`);
  const db = hasDatabase ? new Database(options.path, { readonly: true, fileMustExist: true, timeout: 2_000 }) : undefined;
  try {
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
    const lines = mergedByTime([
      timed(rows<CallRow>('calls', `SELECT ${db && tables.has('calls') ? callColumns(db) : CALL_COLUMNS} FROM calls WHERE started_at >= ? AND started_at < ? ORDER BY started_at, seq`), callAt, callLine),
      timed(spilledCalls, callAt, callLine),
      timed(rows<EventRow>('events', 'SELECT * FROM events WHERE at >= ? AND at < ? ORDER BY at, seq'), eventAt, eventLine),
      timed(spilledEvents, eventAt, eventLine),
    ]);
    return await writeLines(lines, options.format, out);
  } finally {
    db?.close();
  }
}

async function writeLines(lines: Iterable<Line>, as: ExportFormat, out: Writable): Promise<number> {
  if (as === 'csv' && !(await write(out, `${CSV_COLUMNS.join(',')}\n`))) return 0;
  let count = 0;
  for (const line of lines) {
    if (!(await write(out, format(line, as)))) break;
    count++;
  }
  return count;
}

/** Writes the given recorded calls in the order given, in the export's line format; resolves with their number. */
export function exportCalls(calls: Iterable<StoredCall>, as: ExportFormat, out: Writable): Promise<number> {
  return writeLines((function* () {
    for (const stored of calls) yield storedCallLine(stored);
  })(), as, out);
}

/** Parses `--since`/`--until` values: ISO 8601 dates or date-times. */
export function parseInstant(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) throw new JunctionError('ConfigInvalid', `${name}: expected an ISO 8601 date or date-time (2026-01-31 or 2026-01-31T12:00:00Z), got ${JSON.stringify(text)}`);
  return ms;
}
