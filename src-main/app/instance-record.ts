/**
 * Which Junction serves from a state directory. The recovery lock knows only a pid (it is taken before
 * the port is bound); this record adds the URL, so a second start on the same directory can say where
 * the running one is and how to run beside it.
 */
import { readFileSync } from 'node:fs';
import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { z } from 'zod';
import { isJunctionError, JunctionError } from '../contracts/index.js';
import { envNameOf } from './config/index.js';

const RECORD_FILE = 'instance.json';
const recordSchema = z.object({ pid: z.number().int().positive(), baseUrl: z.string().url() });
export type InstanceRecord = z.infer<typeof recordSchema>;

export async function writeInstanceRecord(stateDir: string, record: InstanceRecord): Promise<void> {
  await writeFile(join(stateDir, RECORD_FILE), JSON.stringify(record), { mode: 0o600 });
}

/** Removes the record only while it is still this process's, so a successor's is never deleted. */
export async function removeInstanceRecord(stateDir: string, pid: number): Promise<void> {
  const current = await readFile(join(stateDir, RECORD_FILE), 'utf8').catch(() => undefined);
  if (current !== undefined && parse(current)?.pid === pid) await rm(join(stateDir, RECORD_FILE), { force: true });
}

function parse(text: string): InstanceRecord | undefined {
  try {
    const parsed = recordSchema.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

function readRecord(stateDir: string): InstanceRecord | undefined {
  try {
    return parse(readFileSync(join(stateDir, RECORD_FILE), 'utf8'));
  } catch {
    return undefined;
  }
}

/**
 * A StateDirectoryLocked failure restated for the person starting Junction: the directory, the running
 * instance (pid, and its URL when its record matches the lock's pid) and the setting that moves this
 * one elsewhere. Any other error passes through unchanged.
 */
export function explainStateDirInUse(error: unknown, stateDir: string): unknown {
  if (!isJunctionError(error) || error.code !== 'StateDirectoryLocked') return error;
  const pid = typeof error.details?.['pid'] === 'number' ? error.details['pid'] : undefined;
  const record = readRecord(stateDir);
  const baseUrl = record && record.pid === pid ? record.baseUrl : undefined;
  const running = [pid !== undefined ? `pid ${pid}` : undefined, baseUrl ? `serving ${baseUrl}` : undefined].filter(Boolean).join(', ');
  const useIt = baseUrl ? ` or use it (console ${baseUrl}/, agents: junction connect --port ${new URL(baseUrl).port});` : '';
  return new JunctionError(
    'StateDirectoryLocked',
    `The state directory ${stateDir} is in use by another Junction${running ? ` (${running})` : ''}. To run beside it, give this one its own state directory with --state-dir DIR (setting 'state-dir', ${envNameOf('state-dir')});${useIt} or stop it first.`,
    { ...(error.next ? { next: error.next } : {}), details: { ...error.details, stateDir, setting: 'state-dir', ...(baseUrl ? { baseUrl } : {}) }, cause: error },
  );
}
