/**
 * The search indexes are filled a chunk of calls at a time (schema version 6), yet a search finds every
 * call recorded before it: the store has the writer index what is left first. Shown on the real store and
 * its file: what the file's index holds before and after, calls updated or deleted before their chunk is
 * indexed, seqs taken again after the newest calls went, and a version 5 trail brought to version 6.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import type { AuditCallInput } from '../../../src-main/audit/index.js';
import { SCHEMA_VERSION } from '../../../src-main/audit/schema.js';
import { INDEX_CHUNK } from '../../../src-main/audit/writer.js';
import { callJson, readTrail, withAuditStore, withUpgradedTrail } from '../../support/audit-store.js';
import { eventually } from '../../support/junction-harness.js';

const T0 = 1_700_000_000_000;

function call(i: number, word = `word${i}`, status: 'ok' | 'error' = 'ok'): AuditCallInput {
  return {
    call: { callId: `call-${i}`, agent: 'cursor', transport: 'mcp-http', tool: 'document-read', target: 'host', status, startedAt: T0 + i, durationMs: 1, requestBytes: 10, ...(status === 'error' ? { errorCode: 'ToolFailed' } : {}) },
    json: callJson({ path: `src/${word}.ts` }),
    policy: null,
    decidedBy: null,
  };
}

/** The search index's progress and how many calls each index holds, read from the file. */
function indexState(path: string): { below: number; all: number; failed: number } {
  return readTrail(path, (db) => ({
    below: db.prepare('SELECT below FROM calls_fts_progress').pluck().get() as number,
    all: db.prepare('SELECT COUNT(*) FROM calls_fts').pluck().get() as number,
    failed: db.prepare('SELECT COUNT(*) FROM calls_fts_error').pluck().get() as number,
  }));
}

const ids = async (store: Parameters<Parameters<typeof withAuditStore>[1]>[0], query: { text?: string; status?: 'ok' | 'error'; tool?: string; limit?: number }) =>
  (await store.queryCalls({ limit: 10, ...query })).items.map((item) => item.call.callId);

describe('search indexes filled a chunk at a time', () => {
  test('calls written but not indexed yet are found by the next search, which has them indexed first', async () => {
    await withAuditStore('junction-audit-chunks-', async (store, path) => {
      for (let i = 1; i <= 30; i++) store.recordCall(call(i, `word${i}`, i % 10 === 0 ? 'error' : 'ok'));
      store.flush();
      assert.deepEqual(indexState(path), { below: 1, all: 0, failed: 0 }, 'written, not indexed: fewer calls than a chunk');
      assert.deepEqual(await ids(store, {}), Array.from({ length: 10 }, (_, i) => `call-${30 - i}`), 'a page without text or filters reads the table');
      assert.deepEqual(await ids(store, { text: 'word7' }), ['call-7']);
      assert.deepEqual(indexState(path), { below: 31, all: 30, failed: 3 }, 'the search had every call indexed, failed ones in their own index too');
      store.recordCall(call(31, 'word31', 'error'));
      assert.deepEqual(await ids(store, { status: 'error', tool: 'document-read' }), ['call-31', 'call-30', 'call-20', 'call-10'], 'a filter reads the index too: the call recorded just before is in it');
      assert.equal(indexState(path).below, 32);
    });
  });

  test('once no call has come for a second, the writer indexes what is left by itself', async () => {
    await withAuditStore('junction-audit-chunks-', async (store, path) => {
      for (let i = 1; i <= 12; i++) store.recordCall(call(i));
      store.flush();
      assert.equal(indexState(path).all, 0);
      await eventually(() => indexState(path).all === 12, 10_000, 'the quiet trail indexed');
      assert.equal(indexState(path).below, 13);
    });
  });

  test('the writer indexes a chunk by itself once that many calls wait, each call once', async () => {
    await withAuditStore('junction-audit-chunks-', async (store, path) => {
      for (let i = 1; i <= INDEX_CHUNK + 10; i++) store.recordCall(call(i, 'same'));
      store.flush();
      const state = indexState(path);
      assert.ok(state.below > INDEX_CHUNK && state.below <= INDEX_CHUNK + 11, `the first chunk is indexed without a search (${JSON.stringify(state)})`);
      assert.equal(state.all, state.below - 1, 'every call below the mark, and none past it');
      assert.equal((await store.queryCalls({ text: 'same', limit: INDEX_CHUNK + 100 })).items.length, INDEX_CHUNK + 10, 'a search finds them all, each once');
      assert.deepEqual(indexState(path), { below: INDEX_CHUNK + 11, all: INDEX_CHUNK + 10, failed: 0 });
    });
  });

  test('calls deleted a whole chunk and more at a time, as retention does, are found no more, and the calls left and those recorded after are', async () => {
    await withAuditStore('junction-audit-chunks-', async (store, path) => {
      for (let i = 1; i <= 2 * INDEX_CHUNK; i++) store.recordCall(call(i, 'same'));
      await store.indexed();
      const deleted = INDEX_CHUNK + 100;
      const db = new Database(path);
      try {
        db.prepare('DELETE FROM calls WHERE seq <= ?').run(deleted);
      } finally {
        db.close();
      }
      // A chunk more, so FTS5 does its merge work, which drops the emptied segment.
      for (let i = 2 * INDEX_CHUNK + 1; i <= 3 * INDEX_CHUNK; i++) store.recordCall(call(i, 'same'));
      await store.indexed();
      const found = (await store.queryCalls({ text: 'same', limit: 3 * INDEX_CHUNK })).items.map((item) => item.call.callId);
      assert.equal(found.length, 3 * INDEX_CHUNK - deleted);
      assert.equal(found.at(-1), `call-${deleted + 1}`, 'the oldest call left is the last found');
      assert.equal(indexState(path).all, 3 * INDEX_CHUNK - deleted, 'the index holds the calls left, each once');
    });
  });

  test('a call changed or deleted before its chunk is indexed is indexed as it is then, once, or not at all', async () => {
    await withAuditStore('junction-audit-chunks-', async (store, path) => {
      for (let i = 1; i <= 5; i++) store.recordCall(call(i, `before${i}`));
      await store.indexed();
      for (let i = 6; i <= 10; i++) store.recordCall(call(i, `before${i}`));
      store.flush();
      const db = new Database(path);
      try {
        // Call 3 is indexed, call 8 is not: both change, call 9 goes before it is ever indexed.
        db.prepare("UPDATE calls SET arguments = '{\"path\":\"src/after3.ts\"}' WHERE seq = 3").run();
        db.prepare("UPDATE calls SET arguments = '{\"path\":\"src/after8.ts\"}', status = 'error' WHERE seq = 8").run();
        db.prepare('DELETE FROM calls WHERE seq = 9').run();
      } finally {
        db.close();
      }
      assert.deepEqual(await ids(store, { text: 'after3' }), ['call-3']);
      assert.deepEqual(await ids(store, { text: 'before3' }), [], 'an indexed call changed is indexed anew');
      assert.deepEqual(await ids(store, { text: 'after8' }), ['call-8']);
      assert.deepEqual(await ids(store, { text: 'before8' }), [], 'a call changed before its chunk is indexed as it is now');
      assert.deepEqual(await ids(store, { status: 'error' }), ['call-8'], 'in the failed calls\' index too');
      assert.deepEqual(await ids(store, { text: 'before9' }), []);
      assert.deepEqual(indexState(path), { below: 11, all: 9, failed: 1 }, 'each call that is left indexed once');
    });
  });

  test('a new call that takes the seq of a deleted newest one is still indexed', async () => {
    await withAuditStore('junction-audit-chunks-', async (store, path) => {
      for (let i = 1; i <= 5; i++) store.recordCall(call(i));
      await store.indexed();
      const db = new Database(path);
      db.prepare('DELETE FROM calls WHERE seq >= 4').run();
      db.close();
      store.recordCall(call(6, 'reborn'));
      store.flush();
      assert.equal(indexState(path).below, 4, 'the mark went down to the reused seq');
      assert.deepEqual(await ids(store, { text: 'reborn' }), ['call-6']);
      assert.deepEqual(await ids(store, { text: 'word4' }), [], 'the deleted call is not found');
    });
  });

  test('a version 5 trail is upgraded: its calls count as indexed, FTS5 merges 16 segments at a time and a segment only once wholly deleted (version 7), and new calls are found with old ones', async () => {
    const asVersion5Wrote = (v5: Database.Database) => {
      const insert = v5.prepare("INSERT INTO calls (call_id, started_at, agent, transport, tool, target, status, request_bytes, arguments) VALUES (?, ?, 'cursor', 'http-api', 'document-read', 'host', 'ok', 10, ?)");
      v5.transaction(() => {
        for (let i = 1; i <= 3; i++) insert.run(`old-${i}`, T0 + i, JSON.stringify({ path: `src/legacy${i}.ts` }));
        // As a version 5 writer indexed each batch.
        v5.exec("INSERT INTO calls_fts(rowid, tool, agent, target, call_id, error_code, arguments, result, facets) SELECT seq, tool, agent, target, call_id, error_code, arguments, result, 's' || hex(status) || ' t' || hex(tool) || ' a' || hex(agent) FROM calls");
      })();
    };
    await withUpgradedTrail('junction-audit-v5-', 5, asVersion5Wrote, async (store, path, infos) => {
      assert.match(infos.join('\n'), new RegExp(`upgraded .* from schema 5 to ${SCHEMA_VERSION}`));
      assert.deepEqual(indexState(path), { below: 4, all: 3, failed: 0 });
      readTrail(path, (db) => {
        for (const table of ['calls_fts', 'calls_fts_error']) {
          assert.equal(db.prepare(`SELECT v FROM ${table}_config WHERE k = 'automerge'`).pluck().get(), 16, table);
          assert.equal(db.prepare(`SELECT v FROM ${table}_config WHERE k = 'deletemerge'`).pluck().get(), 100, table);
        }
      });
      store.recordCall({ ...call(4, 'legacy4'), call: { ...call(4).call, callId: 'new-4' } });
      assert.deepEqual(await ids(store, { text: 'src' }), ['new-4', 'old-3', 'old-2', 'old-1']);
      assert.deepEqual(indexState(path), { below: 5, all: 4, failed: 0 });
    });
  });

  test("a version 7 trail is upgraded: its calls keep their ids' words in the index, calls after it are found by id through the ids' own index", async () => {
    const oldId = '0195f3a2-7c41-7a0b-9d2e-5b6c7d8e9f01';
    const newId = '0195f3a2-7c42-7a0c-8e1f-0a1b2c3d4e5f';
    const asVersion7Wrote = (v7: Database.Database) => {
      v7.prepare("INSERT INTO calls (call_id, started_at, agent, transport, tool, target, status, request_bytes, arguments) VALUES (?, ?, 'cursor', 'http-api', 'document-read', 'host', 'ok', 10, '{}')").run(oldId, T0);
      // As a version 7 writer indexed a chunk: the call id among the words.
      v7.exec("INSERT INTO calls_fts(rowid, tool, agent, target, call_id, error_code, arguments, result, facets) SELECT seq, tool, agent, target, call_id, error_code, arguments, result, 's' || hex(status) || ' t' || hex(tool) || ' a' || hex(agent) FROM calls; UPDATE calls_fts_progress SET below = 2");
    };
    await withUpgradedTrail('junction-audit-v7-', 7, asVersion7Wrote, async (store, path, infos) => {
      assert.match(infos.join('\n'), new RegExp(`upgraded .* from schema 7 to ${SCHEMA_VERSION}`));
      store.recordCall({ ...call(2), call: { ...call(2).call, callId: newId } });
      await store.indexed();
      const inIndex = (word: string) => readTrail(path, (db) => db.prepare('SELECT rowid FROM calls_fts WHERE calls_fts MATCH ?').pluck().all(`"${word}"`));
      assert.deepEqual([inIndex('9d2e'), inIndex('8e1f')], [[1], []], "the old call's id words stay; the new call's never went in");
      assert.deepEqual(await ids(store, { text: '0195f3a2' }), [newId, oldId], 'both found by the beginning of their ids');
      assert.deepEqual(await ids(store, { text: newId }), [newId]);
      assert.deepEqual(await ids(store, { text: '9d2e-5b6c7d8e9f01' }), [oldId], "the old call also by its id's later words, as version 7 found it");
    });
  });
});
