/** A real audit store on a database file of its own, removed after `fn` (or its failure). */
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AuditStore, compileRedaction } from '../../src-main/audit/index.js';
import { migrate } from '../../src-main/audit/schema.js';
import { silentLogger, type Logger } from '../../src-main/shared/log.js';
import { jsonText } from '../../src-main/shared/index.js';
import type { CallJson } from '../../src-main/contracts/index.js';

export async function withAuditStore<T>(prefix: string, fn: (store: AuditStore, path: string) => T | Promise<T>, logger: Logger = silentLogger): Promise<T> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = join(dir, 'audit.db');
  const store = new AuditStore({ path, rules: compileRedaction([]), logger, retentionDays: 36_500, maxBytes: 1024 ** 3 });
  store.open();
  try {
    return await fn(store, path);
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Runs `read` on a read-only connection to the file, closed afterwards (once its promise settles, when it returns one). */
export function readTrail<T>(path: string, read: (db: Database.Database) => T): T {
  const db = new Database(path, { readonly: true });
  let result: T;
  try {
    result = read(db);
  } catch (error) {
    db.close();
    throw error;
  }
  if (result instanceof Promise) return result.finally(() => db.close()) as T;
  db.close();
  return result;
}

/** A call's arguments and result as the dispatcher hands them to observers: serialised by JSON.stringify. */
export function callJson(args: unknown, result?: unknown): CallJson {
  return result === undefined ? { arguments: jsonText(args) } : { arguments: jsonText(args), result: jsonText(result) };
}

/**
 * A trail as a Junction at schema `version` left it (`write` fills it), opened by this one, which upgrades
 * it: `fn` gets the store once the upgrade ended, and the info lines logged. The file is then opened once
 * more, which must log nothing: an upgrade runs once.
 */
export async function withUpgradedTrail(
  prefix: string,
  version: number,
  write: (db: Database.Database) => void,
  fn: (store: AuditStore, path: string, infos: string[]) => void | Promise<void>,
): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const path = join(dir, 'audit.db');
  try {
    const old = new Database(path);
    migrate(old, version);
    write(old);
    assert.equal(old.pragma('user_version', { simple: true }), version);
    old.close();
    const infos: string[] = [];
    const options = { path, rules: compileRedaction([]), logger: { ...silentLogger, info: (message: string) => infos.push(message) }, retentionDays: 36_500, maxBytes: 1024 ** 3 };
    const store = new AuditStore(options);
    store.open();
    try {
      await store.upgraded();
      await fn(store, path, infos);
    } finally {
      await store.close();
    }
    infos.length = 0;
    const again = new AuditStore(options);
    again.open();
    assert.deepEqual(infos, [], 'the upgrade runs once');
    await again.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
