/**
 * Records the trail could not write before Junction closed (an upgrade of recorded history still
 * running, a database locked by another process) are kept in a file beside it and written first when
 * the trail next opens. They are kept in stored form only (redacted and cut to their previews, as the
 * database would hold them), so this file never holds what the database may not. It is replaced
 * atomically and read back through a schema: a damaged line is skipped and counted, never written.
 */
import { closeSync, fsyncSync, openSync, readSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
import { z } from 'zod';
import type { PreparedRecord } from './rows.js';

const text = z.string();
const optionalText = z.string().nullable();
const count = z.number().finite();
const optionalCount = count.nullable();

/** The columns the writer's statements bind, exactly: a line missing one would fail its whole batch. */
const callRow = z.strictObject({
  callId: text,
  startedAt: count,
  agent: text,
  transport: text,
  tool: text,
  target: text,
  status: text,
  errorCode: optionalText,
  durationMs: optionalCount,
  requestBytes: count,
  responseBytes: optionalCount,
  arguments: text,
  result: optionalText,
  redacted: optionalText,
  truncated: count,
  policy: optionalText,
  decidedBy: optionalText,
  replayOf: optionalText,
  // A spill file kept by a Junction before schema version 5 has no such column: its calls carried none.
  traceparent: optionalText.default(null),
});

const eventRow = z.strictObject({ at: count, kind: text, workspaceId: optionalText, transactionId: optionalText, data: text });

const spilledLine = z.union([z.strictObject({ type: z.literal('call'), params: callRow }), z.strictObject({ type: z.literal('event'), params: eventRow })]);

/** A record read back from the spill file: a prepared record whose columns are known to be all there. */
export type SpilledRecord = z.infer<typeof spilledLine>;
export type SpilledCall = z.infer<typeof callRow>;
export type SpilledEvent = z.infer<typeof eventRow>;

export function spillPath(databasePath: string): string {
  return `${databasePath}-pending.jsonl`;
}

/** Lines are written and read in chunks of about this size: the queue may hold tens of thousands of records. */
const CHUNK_BYTES = 1 << 20;

/** Replaces the spill file with `records` (one JSON line each), durably: the old file or the new one, never half of either. */
export function saveSpill(path: string, records: readonly PreparedRecord[]): void {
  const temp = `${path}.tmp`;
  try {
    const fd = openSync(temp, 'w');
    try {
      let chunk = '';
      for (const record of records) {
        chunk += `${JSON.stringify(record)}\n`;
        if (chunk.length >= CHUNK_BYTES) {
          writeSync(fd, chunk);
          chunk = '';
        }
      }
      if (chunk) writeSync(fd, chunk);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** The file's lines, read a chunk at a time (a newline byte never occurs inside a UTF-8 sequence). */
function* linesOf(fd: number): Generator<string> {
  const buffer = Buffer.allocUnsafe(CHUNK_BYTES);
  let partial: Buffer[] = [];
  for (;;) {
    const read = readSync(fd, buffer, 0, buffer.length, null);
    if (read === 0) break;
    let start = 0;
    for (let end = buffer.indexOf(10, start); end !== -1 && end < read; end = buffer.indexOf(10, start)) {
      partial.push(buffer.subarray(start, end));
      yield Buffer.concat(partial).toString('utf8');
      partial = [];
      start = end + 1;
    }
    if (start < read) partial.push(Buffer.from(buffer.subarray(start, read)));
  }
  if (partial.length > 0) yield Buffer.concat(partial).toString('utf8');
}

/** The records of the spill file in order, and how many of its lines were damaged; none when it does not exist. */
export function loadSpill(path: string): { records: SpilledRecord[]; damaged: number } {
  let fd: number;
  try {
    fd = openSync(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], damaged: 0 };
    throw error;
  }
  const records: SpilledRecord[] = [];
  let damaged = 0;
  try {
    for (const line of linesOf(fd)) {
      if (line.trim() === '') continue;
      const checked = spilledLine.safeParse(parseJson(line));
      if (checked.success) records.push(checked.data);
      else damaged++;
    }
  } finally {
    closeSync(fd);
  }
  return { records, damaged };
}

/** A line that is not JSON is as damaged as one of the wrong shape: the schema refuses `undefined`. */
function parseJson(line: string): unknown {
  try {
    return JSON.parse(line);
  } catch {
    return undefined;
  }
}

export function removeSpill(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
