/** A real audit store on a database file of its own, removed after `fn` (or its failure). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditStore, compileRedaction } from '../../src-main/audit/index.js';
import { silentLogger, type Logger } from '../../src-main/shared/log.js';
import { jsonText } from '../../src-main/shared/index.js';
import type { CallJson } from '../../src-main/contracts/index.js';

export function withAuditStore<T>(prefix: string, fn: (store: AuditStore, path: string) => T, logger: Logger = silentLogger): T {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = join(dir, 'audit.db');
  const store = new AuditStore({ path, rules: compileRedaction([]), logger, retentionDays: 36_500, maxBytes: 1024 ** 3 });
  store.open();
  try {
    return fn(store, path);
  } finally {
    store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A call's arguments and result as the dispatcher hands them to observers: serialised by JSON.stringify. */
export function callJson(args: unknown, result?: unknown): CallJson {
  return result === undefined ? { arguments: jsonText(args) } : { arguments: jsonText(args), result: jsonText(result) };
}
