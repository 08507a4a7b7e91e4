/**
 * Adapter: streams the audit trail as JSON lines or CSV, one call or event per line, oldest first, calls
 * and events merged by time. Rows come from SQLite iterators and each line waits for the output to drain,
 * so memory stays flat however many records there are. Works while Junction runs (WAL readers do not
 * block its writer) and while it is stopped.
 */
import { existsSync } from 'node:fs';
import type { Writable } from 'node:stream';
import Database from 'better-sqlite3';
import { JunctionError } from '../contracts/index.js';
import { CALL_COLUMNS, rowToCall, rowToEvent, type CallRow, type EventRow } from './database.js';

export type ExportFormat = 'jsonl' | 'csv';

export interface ExportOptions {
  path: string;
  /** Epoch ms, inclusive. */
  since?: number;
  /** Epoch ms, exclusive. */
  until?: number;
  format: ExportFormat;
}

const CSV_COLUMNS = [
  'type', 'at', 'callId', 'agent', 'transport', 'tool', 'target', 'status', 'errorCode', 'durationMs', 'requestBytes', 'responseBytes',
  'policy', 'decidedBy', 'replayOf', 'redacted', 'kind', 'workspaceId', 'transactionId', 'arguments', 'result', 'data',
] as const;

type Line = Partial<Record<(typeof CSV_COLUMNS)[number], unknown>>;

function callLine(row: CallRow): Line {
  const stored = rowToCall(row);
  const line: Line = { type: 'call', at: new Date(row.started_at).toISOString(), ...stored.call, policy: stored.policy, decidedBy: stored.decidedBy, replayOf: stored.replayOf, redacted: stored.redacted, arguments: stored.arguments };
  if (stored.result !== undefined) line.result = stored.result;
  return line;
}

function eventLine(row: EventRow): Line {
  const event = rowToEvent(row);
  return { type: 'event', at: new Date(event.at).toISOString(), kind: event.kind, workspaceId: event.workspaceId, transactionId: event.transactionId, data: event.data };
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

async function write(out: Writable, text: string): Promise<void> {
  if (out.write(text)) return;
  await new Promise<void>((resolve, reject) => {
    const onDrain = () => {
      out.off('error', onError);
      resolve();
    };
    const onError = (error: Error) => {
      out.off('drain', onDrain);
      reject(error);
    };
    out.once('drain', onDrain);
    out.once('error', onError);
  });
}

/** Writes the export to `out` and resolves with the number of records written; `out` is left open. */
export async function exportAudit(options: ExportOptions, out: Writable): Promise<number> {
  if (!existsSync(options.path)) throw new JunctionError('ResourceNotFound', `No audit trail at ${options.path}; check state-dir (Junction records there once it has served a call).`);
  const db = new Database(options.path, { readonly: true, fileMustExist: true, timeout: 2_000 });
  try {
    const since = options.since ?? Number.MIN_SAFE_INTEGER;
    const until = options.until ?? Number.MAX_SAFE_INTEGER;
    const calls = db.prepare(`SELECT ${CALL_COLUMNS} FROM calls WHERE started_at >= ? AND started_at < ? ORDER BY started_at, seq`).iterate(since, until) as IterableIterator<CallRow>;
    const events = db.prepare('SELECT * FROM events WHERE at >= ? AND at < ? ORDER BY at, seq').iterate(since, until) as IterableIterator<EventRow>;
    if (options.format === 'csv') await write(out, `${CSV_COLUMNS.join(',')}\n`);
    let call = calls.next();
    let event = events.next();
    let count = 0;
    while (!call.done || !event.done) {
      const takeCall = !call.done && (event.done || call.value.started_at <= event.value.at);
      if (takeCall && !call.done) {
        await write(out, format(callLine(call.value), options.format));
        call = calls.next();
      } else if (!event.done) {
        await write(out, format(eventLine(event.value), options.format));
        event = events.next();
      }
      count++;
    }
    return count;
  } finally {
    db.close();
  }
}

/** Parses `--since`/`--until` values: ISO 8601 dates or date-times. */
export function parseInstant(name: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const ms = /^\d{4}-\d{2}-\d{2}/.test(text) ? Date.parse(text) : NaN;
  if (Number.isNaN(ms)) throw new JunctionError('ConfigInvalid', `${name}: expected an ISO 8601 date or date-time (2026-01-31 or 2026-01-31T12:00:00Z), got ${JSON.stringify(text)}`);
  return ms;
}
