/**
 * History pages with text and filters together: the filters travel inside the full-text MATCH (facet
 * tokens, and failed calls in an index of their own), which must give exactly the rows, order and pages
 * that filtering every text match would. Also the upgrade of a real version 1 trail to that index.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import type { AuditCallInput, AuditStore, CallQuery } from '../../../src-main/audit/index.js';
import { searchIndexStatements, timeMapStatement, SCHEMA_VERSION } from '../../../src-main/audit/schema.js';
import { callJson, readTrail, withAuditStore, withUpgradedTrail } from '../../support/audit-store.js';
import { allPages, expectedSeqs as expected } from '../../support/history-oracle.js';

const T0 = 1_700_000_000_000;
const TOOLS = ['document-read', 'stage-edits', 'find-symbols', 'server-status', 'remove-file'];
const AGENTS = ['claude-code/1.2 http 10.0.0.1', 'cursor', 'agent é/ü', 'agent'];
const WORDS = ['alpha', 'beta', 'gamma', 'src/module-4.ts', 'src/module-42.ts', 'find references', 'élan', 'tool-1'];

/** A deterministic mix: every filter value with and without every word, failures one call in five, clocks not in sequence order. */
function call(i: number): AuditCallInput {
  const failed = (i * 7) % 5 === 0;
  return {
    call: {
      callId: `call-${i}`,
      agent: AGENTS[(i * 3) % AGENTS.length]!,
      transport: 'mcp-http',
      tool: TOOLS[i % TOOLS.length]!,
      target: i % 2 ? 'host' : 'bridge:editor',
      status: failed ? 'error' : 'ok',
      startedAt: T0 + i * 10 - (i % 4) * 25,
      durationMs: 1,
      requestBytes: 10,
      responseBytes: 10,
      ...(failed ? { errorCode: i % 2 ? 'ToolFailed' : 'ApprovalDenied' } : {}),
    },
    json: callJson({ path: WORDS[(i * 5) % WORDS.length], note: WORDS[(i * 11) % WORDS.length] }, { content: [{ type: 'text', text: `done ${WORDS[i % WORDS.length]}` }] }),
    policy: null,
    decidedBy: null,
  };
}

const withStore = <T>(fn: (store: AuditStore, path: string) => T | Promise<T>): Promise<T> => withAuditStore('junction-audit-filters-', fn);

describe('history pages with text and filters', () => {
  test('the filters inside the full-text query give exactly the rows, order and pages of filtering every match', async () => {
    await withStore(async (store, path) => {
      for (let i = 1; i <= 400; i++) store.recordCall(call(i));
      store.flush();
      await readTrail(path, async (db) => {
        const texts = [undefined, 'alpha', 'src/module-4', 'src/module-42.ts', 'find references', 'elan', 'tool-1', 'toolfailed', 'cursor', 'claude-code', 'module done', 'no-such-word'];
        const filters: Array<Omit<CallQuery, 'limit' | 'text'>> = [
          {},
          { status: 'error' },
          { status: 'ok' },
          { tool: 'stage-edits' },
          { agent: 'agent é/ü' },
          { agent: 'agent' },
          { status: 'error', tool: 'document-read' },
          { status: 'ok', agent: 'cursor', tool: 'find-symbols' },
          { status: 'error', agent: 'claude-code/1.2 http 10.0.0.1' },
          { since: T0 + 1000, until: T0 + 3000 },
          { status: 'error', before: 250 },
          { tool: 'no-such-tool' },
        ];
        let nonEmpty = 0;
        for (const text of texts) {
          for (const filter of filters) {
            const query = { ...filter, ...(text !== undefined ? { text } : {}) };
            const want = expected(db, query);
            if (want.length > 0) nonEmpty++;
            for (const limit of [7, 100]) assert.deepEqual(await allPages(store, query, limit), want, `${JSON.stringify(query)}, pages of ${limit}`);
          }
        }
        assert.ok(nonEmpty > texts.length * 4, 'the combinations find rows, not only empty pages');
      });
    });
  });

  test('one filter without text, over more calls than a small range, gives exactly the rows and pages of filtering every call', async () => {
    await withStore(async (store, path) => {
      // Past SMALL_RANGE (1,024 seqs): the filter is matched in the search index, not walked row by row.
      for (let i = 1; i <= 3000; i++) store.recordCall(call(i));
      store.flush();
      await readTrail(path, async (db) => {
        const filters: Array<Omit<CallQuery, 'limit' | 'text'>> = [
          { status: 'error' },
          { status: 'ok' },
          { tool: 'remove-file' },
          { agent: 'agent é/ü' },
          { agent: 'agent' },
          { tool: 'no-such-tool' },
          { status: 'error', before: 2500 },
          { tool: 'stage-edits', since: T0 + 2000, until: T0 + 28_000 },
        ];
        for (const query of filters) {
          const want = expected(db, query);
          assert.ok(want.length > 0 || query.tool === 'no-such-tool', JSON.stringify(query));
          for (const limit of [50, 400]) assert.deepEqual(await allPages(store, query, limit), want, `${JSON.stringify(query)}, pages of ${limit}`);
        }
        const indexes = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = 'calls' AND sql IS NOT NULL ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
        assert.deepEqual(indexes, ['calls_call_id', 'calls_started_at'], 'no b-tree index per filter for the writer to keep up');
      });
    });
  });

  test('retention removes failed calls from their own index too', async () => {
    await withStore(async (store, path) => {
      for (let i = 1; i <= 10; i++) store.recordCall(call(i));
      store.flush();
      const failed = (await store.queryCalls({ text: 'done', status: 'error', limit: 50 })).items.map((item) => item.call.callId);
      assert.ok(failed.length >= 2);
      const db = new Database(path);
      db.prepare('DELETE FROM calls WHERE call_id = ?').run(failed[0]);
      const indexed = (db.prepare('SELECT COUNT(*) AS n FROM calls_fts_error').get() as { n: number }).n;
      db.close();
      assert.equal(indexed, failed.length - 1);
      assert.deepEqual(
        (await store.queryCalls({ text: 'done', status: 'error', limit: 50 })).items.map((item) => item.call.callId),
        failed.slice(1),
      );
    });
  });

  test('a version 1 trail is upgraded once: its calls are backfilled into the filtered indexes and found like new ones', async () => {
    const asVersion1Wrote = (v1: Database.Database) => {
      // Written as a version 1 Junction wrote: plain inserts, indexed by the version 1 trigger.
      const insert = v1.prepare("INSERT INTO calls (call_id, started_at, agent, transport, tool, target, status, error_code, request_bytes, arguments, result) VALUES (?, ?, ?, 'http-api', ?, 'host', ?, ?, 10, ?, NULL)");
      insert.run('old-1', T0, 'cursor', 'workspace-open', 'ok', null, JSON.stringify({ path: '/srv/legacy-project' }));
      insert.run('old-2', T0 + 1, 'cursor', 'workspace-open', 'error', 'ToolFailed', JSON.stringify({ path: '/srv/legacy-project/a' }));
      insert.run('old-3', T0 + 2, 'claude', 'document-read', 'error', 'ToolFailed', JSON.stringify({ path: '/srv/legacy-project/b' }));
    };
    await withUpgradedTrail('junction-audit-v1-', 1, asVersion1Wrote, async (store, path, infos) => {
      assert.match(infos.join('\n'), new RegExp(`upgraded .* from schema 1 to ${SCHEMA_VERSION}, indexing 3 recorded calls`));
      const ids = async (query: Omit<CallQuery, 'limit'>) => (await store.queryCalls({ ...query, limit: 50 })).items.map((item) => item.call.callId);
      assert.deepEqual(await ids({ text: 'legacy-project', status: 'error' }), ['old-3', 'old-2'], 'failed calls recorded before the upgrade');
      assert.deepEqual(await ids({ text: 'legacy-project', status: 'error', agent: 'cursor' }), ['old-2']);
      assert.deepEqual(await ids({ text: 'legacy-project', status: 'ok', tool: 'workspace-open' }), ['old-1']);
      store.recordCall({ ...call(1), call: { ...call(1).call, callId: 'new-1', agent: 'cursor', status: 'error', errorCode: 'ToolFailed' }, json: callJson({ path: '/srv/legacy-project/c' }, call(1).json.result) });
      assert.deepEqual(await ids({ text: 'legacy-project', status: 'error', agent: 'cursor' }), ['new-1', 'old-2'], 'a call recorded after the upgrade, newest first');

      await readTrail(path, async (db) => {
        assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
        const triggers = (db.prepare("SELECT name FROM sqlite_master WHERE type = 'trigger' ORDER BY name").all() as Array<{ name: string }>).map((r) => r.name);
        assert.ok(!triggers.includes('calls_fts_insert'), 'the writer indexes its batches itself: no insert trigger indexes a row twice');
        assert.equal((db.prepare("SELECT COUNT(*) AS n FROM calls_fts WHERE calls_fts MATCH 'legacy'").get() as { n: number }).n, 4, 'each call indexed once');
      });
    });
  });

  test('a version 3 trail is upgraded once: its filters\' b-tree indexes go, and its calls are found by one filter like new ones', async () => {
    const asVersion3Wrote = (v3: Database.Database) => {
      // Written as a version 3 Junction wrote: plain inserts, then the batch's indexing statements.
      const insert = v3.prepare("INSERT INTO calls (call_id, started_at, agent, transport, tool, target, status, error_code, request_bytes, arguments, result) VALUES (?, ?, ?, 'http-api', ?, 'host', ?, ?, 10, ?, NULL)");
      v3.transaction(() => {
        for (let i = 1; i <= 1500; i++) {
          const { call: c, json } = call(i);
          insert.run(`old-${i}`, c.startedAt, c.agent, c.tool, c.status, c.errorCode ?? null, json.arguments);
        }
        for (const sql of [...searchIndexStatements('1'), timeMapStatement('1')]) v3.exec(sql);
      })();
      assert.ok(v3.prepare("SELECT 1 FROM sqlite_master WHERE name = 'calls_tool'").get(), 'version 3 had the filters\' b-tree indexes');
    };
    await withUpgradedTrail('junction-audit-v3-', 3, asVersion3Wrote, async (store, path, infos) => {
      assert.match(infos.join('\n'), new RegExp(`upgraded .* from schema 3 to ${SCHEMA_VERSION}`));
      for (let i = 1501; i <= 1600; i++) store.recordCall(call(i));
      store.flush();
      await readTrail(path, async (db) => {
        assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
        const gone = db.prepare("SELECT name FROM sqlite_master WHERE name IN ('calls_tool', 'calls_agent', 'calls_status')").all();
        assert.deepEqual(gone, [], 'the filters\' b-tree indexes are dropped');
        for (const query of [{ status: 'error' as const }, { tool: 'find-symbols' }, { agent: 'cursor' }, { agent: 'cursor', text: 'src' }]) {
          const want = expected(db, query);
          assert.ok(want.some((seq) => seq <= 1500) && want.some((seq) => seq > 1500), JSON.stringify(query));
          assert.deepEqual(await allPages(store, query, 100), want, JSON.stringify(query));
        }
      });
    });
  });
});
