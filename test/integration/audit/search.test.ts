/**
 * History search through the SQLite full-text index: what a term matches, operator input that FTS5 would
 * read as syntax, the index kept in step by retention, and the upgrade of a trail an older Junction wrote
 * (schema 0, no index) with a backfill of the calls already in it.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { AuditStore, compileRedaction, type AuditCallInput } from '../../../src-main/audit/index.js';
import { SCHEMA_VERSION } from '../../../src-main/audit/schema.js';
import { searchExpression } from '../../../src-main/audit/search.js';
import type { Logger } from '../../../src-main/shared/log.js';
import { silentLogger } from '../../../src-main/shared/log.js';
import { callJson, withAuditStore } from '../../support/audit-store.js';

const T0 = 1_700_000_000_000;

function call(i: number, tool: string, args: Record<string, unknown>, result: unknown = { content: [{ type: 'text', text: `done ${i}` }] }, errorCode?: string): AuditCallInput {
  return {
    call: { callId: `call-${i}`, agent: 'claude-code/1.2 http 10.0.0.1', transport: 'mcp-http', tool, target: 'host', status: errorCode ? 'error' : 'ok', startedAt: T0 + i, durationMs: 1, requestBytes: 10, responseBytes: 10, ...(errorCode ? { errorCode } : {}) },
    json: callJson(args, result),
    policy: null,
    decidedBy: null,
  };
}

const withStore = <T>(fn: (store: AuditStore, path: string) => T | Promise<T>, logger?: Logger): Promise<T> => withAuditStore('junction-audit-search-', fn, logger);

const ids = async (store: AuditStore, text: string, extra: { status?: 'ok' | 'error'; before?: number; limit?: number } = {}) => (await store.queryCalls({ text, limit: extra.limit ?? 50, ...extra })).items.map((c) => c.call.callId);

/** The schema a Junction before the search index wrote: the same tables, user_version 0. */
const LEGACY_SCHEMA = `
CREATE TABLE calls (seq INTEGER PRIMARY KEY, call_id TEXT NOT NULL, started_at INTEGER NOT NULL, agent TEXT NOT NULL, transport TEXT NOT NULL, tool TEXT NOT NULL,
  target TEXT NOT NULL, status TEXT NOT NULL, error_code TEXT, duration_ms INTEGER, request_bytes INTEGER NOT NULL, response_bytes INTEGER, arguments TEXT NOT NULL,
  result TEXT, redacted TEXT, truncated INTEGER NOT NULL DEFAULT 0, policy TEXT, decided_by TEXT, replay_of TEXT);
CREATE INDEX calls_call_id ON calls(call_id);
CREATE TABLE events (seq INTEGER PRIMARY KEY, at INTEGER NOT NULL, kind TEXT NOT NULL, workspace_id TEXT, transaction_id TEXT, data TEXT NOT NULL);
`;

describe('history search (full-text index)', () => {
  test('terms match words in every searchable field, the last word of a term (3+ characters) as a prefix, all terms required', async () => {
    await withStore(async (store) => {
      store.recordCall(call(1, 'login', { user: 'ada', password: 'hunter2-SECRET' }));
      store.recordCall(call(2, 'document-read', { path: 'src/module-42.ts' }, { content: [{ type: 'text', text: 'export const answer = 42' }] }));
      store.recordCall(call(3, 'no-such-tool', { attempt: 2 }, undefined, 'ToolNotFound'));
      store.recordCall(call(4, 'stage-edits', { path: 'src/module-7.ts', summary: 'Rename ÉLAN to élan' }));
      assert.deepEqual(await ids(store, 'LOGI'), ['call-1'], 'case-insensitive word prefix of the tool');
      assert.deepEqual(await ids(store, 'no-such'), ['call-3'], 'a hyphenated term is a phrase of adjacent words');
      assert.deepEqual(await ids(store, 'such-no'), [], 'the words of a term must be adjacent and in order');
      assert.deepEqual(await ids(store, 'toolnotfound'), ['call-3'], 'the error code');
      assert.deepEqual(await ids(store, 'src/module'), ['call-4', 'call-2'], 'arguments, newest first');
      assert.deepEqual(await ids(store, 'module-42.ts'), ['call-2']);
      assert.deepEqual(await ids(store, 'answer'), ['call-2'], 'the result preview');
      assert.deepEqual(await ids(store, 'src edits'), ['call-4'], 'every term must match, in any field');
      assert.deepEqual(await ids(store, 'elan'), ['call-4'], 'accents are ignored');
      assert.deepEqual(await ids(store, 'call-2'), ['call-2'], 'the call id');
      store.recordCall(call(12, 'document-read', { path: 'src/module-420.ts' }));
      assert.deepEqual(await ids(store, 'module-42'), ['call-2'], 'a last word shorter than three characters is a whole word');
      assert.deepEqual(await ids(store, 'module-420'), ['call-12'], 'from three characters on, a prefix');
      assert.deepEqual(await ids(store, 'modu'), ['call-12', 'call-4', 'call-2']);
      assert.deepEqual(await ids(store, 'claude-code'), ['call-12', 'call-4', 'call-3', 'call-2', 'call-1'], 'the agent');
      assert.deepEqual(await ids(store, 'src', { status: 'ok', limit: 1 }), ['call-12'], 'with filters and a page size');
      const firstPage = await store.queryCalls({ text: 'src', limit: 2 });
      assert.deepEqual(await ids(store, 'src', { before: firstPage.nextBefore! }), ['call-2'], 'the cursor continues below the first page');
      assert.deepEqual(await ids(store, 'hunter2'), [], 'a redacted secret is not in the index either');
    });
  });

  test('FTS5 syntax typed into the search box is searched as words and never fails', async () => {
    await withStore(async (store) => {
      store.recordCall(call(1, 'find-symbols', { query: 'NEAR(a b) OR "quoted" AND NOT x*', column: 'tool:name ^start' }));
      store.recordCall(call(2, 'document-read', { path: 'README.md' }));
      const hostile = ['"', '""', "'", '*', '**', '(', ')', '()', '(a', 'NEAR', 'NEAR(a b)', 'NEAR/2', 'a OR b', 'AND', 'NOT', 'x*', '^start', 'tool:', 'tool:name', '-', '+', '{tool}: x', '\\', '%', '_', 'a"b', '"unbalanced', '\u0000', 'ˆ', '🙂'];
      for (const text of hostile) await assert.doesNotReject(store.queryCalls({ text, limit: 10 }), `search for ${JSON.stringify(text)}`);
      assert.deepEqual(await ids(store, 'NEAR(a b)'), ['call-1'], 'NEAR is a word here, not an operator');
      assert.deepEqual(await ids(store, '"quoted"'), ['call-1'], 'quotes are punctuation');
      assert.deepEqual(await ids(store, 'OR'), ['call-1'], 'OR is a word');
      assert.deepEqual(await ids(store, 'NOT readme'), [], 'NOT is a word that call-2 lacks, not a negation');
      assert.deepEqual(await ids(store, 'tool:name'), ['call-1'], 'no column filter');
      assert.deepEqual(await ids(store, '^start'), ['call-1'], 'no initial-token marker');
      assert.deepEqual(await ids(store, 'x*'), ['call-1']);
      assert.deepEqual(await ids(store, '()'), [], 'text without a word matches nothing');
      assert.deepEqual(await ids(store, 'readme ()'), ['call-2'], 'a term without a word is ignored beside others');
      assert.equal(searchExpression('say "hi" (now)*'), '"say"* """hi""" "(now)*"*');
      assert.equal(searchExpression(' * ( '), undefined);
    });
  });

  test("a call is found by its id or the id's beginning, through the ids' own index; the search index holds no id's words", async () => {
    await withStore(async (store, path) => {
      const withId = (i: number, id: string, args: Record<string, unknown>, errorCode?: string): AuditCallInput => {
        const base = call(i, 'document-read', args, undefined, errorCode);
        return { ...base, call: { ...base.call, callId: id } };
      };
      const first = '0195f3a2-7c41-7a0b-9d2e-5b6c7d8e9f01';
      const second = '0195f3a2-7c41-7a0c-8e1f-0a1b2c3d4e5f';
      const third = '0195f3a3-0000-7000-8000-000000000001';
      store.recordCall(withId(1, first, { path: 'src/a.ts' }));
      store.recordCall(withId(2, second, { path: 'src/b.ts' }, 'ToolFailed'));
      store.recordCall(withId(3, third, { replayOf: first }));
      assert.deepEqual(await ids(store, first), [third, first], 'the whole id: its call, and a call whose arguments carry it');
      assert.deepEqual(await ids(store, second.toUpperCase()), [second], 'case is ignored');
      assert.deepEqual(await ids(store, '0195f3a2-7c41'), [third, second, first], 'the beginning of ids (and of the words of an argument), newest first');
      assert.deepEqual(await ids(store, '0195f3a2-7c41-7a0c'), [second], 'the beginning of one id');
      assert.deepEqual(await ids(store, '0195f3a3'), [third], 'eight characters');
      assert.deepEqual(await ids(store, '0195f3a'), [third], 'seven are too few for the beginning of an id: only the word of the argument matches');
      assert.deepEqual(await ids(store, '0195f3a2 src/b'), [second], 'beside a term the text matches');
      assert.deepEqual(await ids(store, '0195f3a2 nowhere'), [], '…every term must match');
      assert.deepEqual(await ids(store, '0195f3a2', { status: 'error' }), [second], 'with a filter');
      assert.deepEqual(await ids(store, `${first} ${second}`), [], 'two ids: no call has both');
      assert.deepEqual(await ids(store, '0195f3a2', { before: 2 }), [first], 'paged');
      assert.deepEqual(await ids(store, '8e1f-0a1b2c3d4e5f'), [], "an id's later groups are not words of the call");
      await store.indexed();
      const db = new Database(path, { readonly: true });
      const inIndex = (word: string) => db.prepare('SELECT COUNT(*) FROM calls_fts WHERE calls_fts MATCH ?').pluck().get(`"${word}"`);
      const counts = ['7a0c', '8e1f', 'src', '7a0b'].map(inIndex);
      db.close();
      assert.deepEqual(counts, [0, 0, 2, 1], "the index holds the calls' words, and no id's words but those of the id an argument carries");
    });
  });

  test('retention removes calls from the index as well as from the table', async () => {
    await withStore(async (store, path) => {
      for (let i = 1; i <= 3; i++) store.recordCall(call(i, 'document-read', { path: `file-${i}.ts` }));
      await store.indexed();
      const db = new Database(path);
      const inIndex = () => (db.prepare("SELECT rowid FROM calls_fts WHERE calls_fts MATCH '\"file\"*' ORDER BY rowid").all() as Array<{ rowid: number }>).map((r) => r.rowid);
      assert.deepEqual(inIndex(), [1, 2, 3], 'the calls are in the index');
      db.prepare('DELETE FROM calls WHERE call_id = ?').run('call-2');
      const indexed = inIndex();
      db.close();
      assert.deepEqual(indexed, [1, 3], 'the deleted call is gone from the index');
      assert.deepEqual(await ids(store, 'file'), ['call-3', 'call-1']);
    });
  });

  test('a trail recorded before the index exists is upgraded once, its calls backfilled, and searched like new ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'junction-audit-upgrade-'));
    const path = join(dir, 'audit.db');
    try {
      const legacy = new Database(path);
      legacy.exec(LEGACY_SCHEMA);
      const insert = legacy.prepare("INSERT INTO calls (call_id, started_at, agent, transport, tool, target, status, request_bytes, arguments, result) VALUES (?, ?, 'old-agent', 'http-api', ?, 'host', 'ok', 10, ?, NULL)");
      insert.run('old-1', T0, 'workspace-open', JSON.stringify({ path: '/srv/legacy-project' }));
      insert.run('old-2', T0 + 1, 'server-status', '{}');
      legacy.close();

      const infos: string[] = [];
      const logger: Logger = { ...silentLogger, info: (message: string) => infos.push(message) };
      const store = new AuditStore({ path, rules: compileRedaction([]), logger, retentionDays: 36_500, maxBytes: 1024 ** 3 });
      store.open();
      await store.upgraded();
      assert.equal(store.status().state, 'open');
      assert.match(infos.join('\n'), new RegExp(`upgraded .* from schema 0 to ${SCHEMA_VERSION}, indexing 2 recorded calls`));
      assert.deepEqual(await ids(store, 'legacy-project'), ['old-1'], 'a call recorded before the upgrade is found');
      store.recordCall(call(3, 'workspace-open', { path: '/srv/legacy-project/sub' }));
      assert.deepEqual(await ids(store, 'legacy-project'), ['call-3', 'old-1'], 'a call recorded after it, newest first');
      await store.close();

      const db = new Database(path);
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      db.close();
      infos.length = 0;
      const again = new AuditStore({ path, rules: compileRedaction([]), logger, retentionDays: 36_500, maxBytes: 1024 ** 3 });
      again.open();
      assert.deepEqual(infos, [], 'the upgrade runs once');
      assert.deepEqual(await ids(again, 'legacy-project'), ['call-3', 'old-1']);
      await again.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test('a trail from a newer Junction is left untouched and reported, and calls go on unrecorded', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'junction-audit-newer-'));
    const path = join(dir, 'audit.db');
    try {
      const newer = new Database(path);
      newer.pragma(`user_version = ${SCHEMA_VERSION + 7}`);
      newer.exec('CREATE TABLE calls (seq INTEGER PRIMARY KEY, shape_from_the_future TEXT)');
      newer.close();
      const warnings: string[] = [];
      const store = new AuditStore({ path, rules: compileRedaction([]), logger: { ...silentLogger, warn: (m: string) => warnings.push(m) }, retentionDays: 36_500, maxBytes: 1024 ** 3 });
      store.open();
      assert.doesNotThrow(() => store.recordCall(call(1, 'server-status', {})));
      store.flush();
      assert.equal(store.status().state, 'unavailable');
      assert.match(store.status().reason ?? '', new RegExp(`schema version ${SCHEMA_VERSION + 7} is newer than this Junction's \\(${SCHEMA_VERSION}\\)`));
      assert.equal(warnings.length, 1);
      await store.close();
      const db = new Database(path);
      assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION + 7, 'the newer file is not rewritten');
      db.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
