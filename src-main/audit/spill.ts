/**
 * Records the trail could not write before Junction closed (an upgrade of recorded history still
 * running, a database locked by another process) are kept in a file beside it and written first when
 * the trail next opens. They are kept in stored form only (redacted and cut to their previews, as the
 * database would hold them), so this file never holds what the database may not. It is replaced
 * atomically and read back through a schema: a damaged line is skipped and counted, never written.
 */
import { closeSync, fsyncSync, openSync, readFileSync, renameSync, rmSync, unlinkSync, writeSync } from 'node:fs';
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
});

const eventRow = z.strictObject({ at: count, kind: text, workspaceId: optionalText, transactionId: optionalText, data: text });

const spilledLine = z.union([z.strictObject({ type: z.literal('call'), params: callRow }), z.strictObject({ type: z.literal('event'), params: eventRow })]);

export function spillPath(databasePath: string): string {
  return `${databasePath}-pending.jsonl`;
}

/** Replaces the spill file with `records` (one JSON line each), durably: the old file or the new one, never half of either. */
export function saveSpill(path: string, records: readonly PreparedRecord[]): void {
  const temp = `${path}.tmp`;
  try {
    const fd = openSync(temp, 'w');
    try {
      writeSync(fd, records.map((record) => JSON.stringify(record)).join('\n') + '\n');
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

/** The records of the spill file in order, and how many of its lines were damaged; none when it does not exist. */
export function loadSpill(path: string): { records: PreparedRecord[]; damaged: number } {
  let content: string;
  try {
    content = readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { records: [], damaged: 0 };
    throw error;
  }
  const records: PreparedRecord[] = [];
  let damaged = 0;
  for (const line of content.split('\n')) {
    if (line.trim() === '') continue;
    let parsed: unknown;
    try {
      parsed = JSON.parse(line);
    } catch {
      damaged++;
      continue;
    }
    const checked = spilledLine.safeParse(parsed);
    if (checked.success) records.push(checked.data);
    else damaged++;
  }
  return { records, damaged };
}

export function removeSpill(path: string): void {
  try {
    unlinkSync(path);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
}
