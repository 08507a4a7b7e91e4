/** The messages between the audit store and its reader thread: plain, structured-clone-safe data. */
import type { MessagePort } from 'node:worker_threads';
import type { ExportFilter, ExportFormat, ExportWindow } from './export.js';
import type { CallPage, CallQuery, StoredCall, StoredEvent } from './records.js';
import type { ErrorData } from './writer-protocol.js';

export interface ReaderInit {
  path: string;
  port: MessagePort;
}

/** What an export reads: the whole trail in a window, or (with `filter`) the calls the console's filter matches. */
export interface ExportSpec extends ExportWindow {
  format: ExportFormat;
  filter?: ExportFilter;
}

/** The next lines of an export, formatted; `count` records. The first chunk of a CSV export starts with its header. */
export interface ExportChunk {
  text: string;
  count: number;
  done: boolean;
  /** What the export skipped so far (damaged lines of the spill file), for the log. */
  warnings: string[];
}

export type EndedTransaction = { transactionId: string; events: StoredEvent[] };

/**
 * Each request's arguments and answer. `export` opens a cursor over an export's lines, which `more`
 * reads a chunk at a time (about `maxBytes`) and `end` closes early; `close` closes every connection.
 */
export interface ReaderOps {
  page: { args: { query: CallQuery }; value: CallPage };
  call: { args: { callId: string }; value: StoredCall | undefined };
  transactions: { args: { limit: number }; value: EndedTransaction[] };
  export: { args: { spec: ExportSpec }; value: number };
  more: { args: { cursor: number; maxBytes: number }; value: ExportChunk };
  end: { args: { cursor: number }; value: null };
  close: { args: Record<string, never>; value: null };
}

export type ReaderOp = keyof ReaderOps;

export type ReaderRequest = { [K in ReaderOp]: { id: number; op: K } & ReaderOps[K]['args'] }[ReaderOp];

export type ReaderReply = { id: number; ok: true; value: ReaderOps[ReaderOp]['value'] } | { id: number; ok: false; error: ErrorData };
