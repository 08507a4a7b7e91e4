/** The messages between the audit store and its writer thread: plain, structured-clone-safe data. */
import type { MessagePort } from 'node:worker_threads';
import { ERROR_CODES, JunctionError, type ErrorCode } from '../contracts/index.js';
import type { MigrationReport, UpgradeStart } from './schema.js';
import type { AuditWriterOptions, WriteBatch } from './writer.js';
import { errorMessage } from '../shared/index.js';

export interface WriterInit {
  options: AuditWriterOptions;
  port: MessagePort;
  /** Bumped and notified after every reply. */
  signal: Int32Array;
}

/**
 * `now` is the store's clock (retention ages records by it). `open` opens, upgrades and prunes the
 * database. `index` indexes for search every call not indexed yet (before a search).
 */
/** A batch as it crosses: its calls' rows are the first `calls` bytes of the shared rows memory (`shared-rows.ts`), sent along when it is new. */
export type WireBatch = Omit<WriteBatch, 'calls'> & { calls: number };

export type WriterRequest =
  | { id: number; op: 'open'; now: number }
  | { id: number; op: 'write'; batch: WireBatch; memory?: SharedArrayBuffer; now: number }
  | { id: number; op: 'index'; now: number }
  | { id: number; op: 'prune'; now: number }
  | { id: number; op: 'close' };

/** An error as it crosses a thread boundary: the SQLite code and message `describeDbError` reads, or a Junction error's code. */
export interface ErrorData {
  code?: string;
  message: string;
}

export type WriterReply =
  | { id: number; ok: true; open: boolean; migrated?: MigrationReport; pruneError?: ErrorData }
  | { id: number; ok: false; open: boolean; error: ErrorData };

/** Sent while a request runs, answering none: an upgrade of recorded history starts its transaction, and how far its backfill is (0 to 1). */
export type WriterNotice = { notice: 'upgrading'; upgrade: UpgradeStart } | { notice: 'progress'; done: number };

export type WriterMessage = WriterReply | WriterNotice;

export function errorData(error: unknown): ErrorData {
  const code = (error as { code?: unknown } | null)?.code;
  return { ...(typeof code === 'string' ? { code } : {}), message: errorMessage(error) };
}

const JUNCTION_CODES: ReadonlySet<string> = new Set(ERROR_CODES);

/** The error again, with its code: a Junction error as one (the console answers it by its code), any other for `describeDbError`. */
export function toError(data: ErrorData): Error {
  if (data.code !== undefined && JUNCTION_CODES.has(data.code)) return new JunctionError(data.code as ErrorCode, data.message);
  return Object.assign(new Error(data.message), data.code !== undefined ? { code: data.code } : {});
}
