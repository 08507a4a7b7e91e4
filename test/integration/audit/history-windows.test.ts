/**
 * History pages with a time window: calls are paged by seq (the order they finished in) while the window
 * is on their start times, which seq does not order (long calls, a clock stepped back). Every window,
 * alone and with filters, text and cursors, must give exactly the rows, order and pages of the plain
 * query; so must prefix searches, which expand into the words they stand for. Also the time map kept in
 * step by retention and updates, and the upgrade of a real version 2 trail.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import Database from 'better-sqlite3';
import type { AuditCallInput, AuditStore, CallQuery } from '../../../src-main/audit/index.js';
import { SCHEMA_VERSION, indexCallsFrom } from '../../../src-main/audit/schema.js';
import { callJson, readTrail, withAuditStore, withUpgradedTrail } from '../../support/audit-store.js';
import { allPages, expectedSeqs } from '../../support/history-oracle.js';

const T0 = 1_700_000_000_000;
const CALLS = 2500;
const TOOLS = ['document-read', 'stage-edits', 'find-symbols', 'server-status'];
const AGENTS = ['cursor', 'claude-code', 'agent é/ü', 'codex', 'zed', 'agent'];
const WORDS = ['alpha', 'alphabet', 'alpine', 'src/module-4.ts', 'élan', 'references'];

/**
 * Ten calls a second, each recorded when it finishes: its start is earlier by its duration, which for one
 * call in seven is 5 s (500 calls later); and for calls 1500 to 1699 the clock stood 8 s behind. Tool i%4
 * and agent i%6 never meet for an even tool index with an odd agent index; one call in five fails.
 */
function startedAt(i: number): number {
  const duration = i % 7 === 0 ? 5000 : i % 13;
  return T0 + i * 100 - duration - (i >= 1500 && i < 1700 ? 8000 : 0);
}

function call(i: number): AuditCallInput {
  const failed = i % 5 === 0;
  return {
    call: { callId: `call-${i}`, agent: AGENTS[i % AGENTS.length]!, transport: 'mcp-http', tool: TOOLS[i % TOOLS.length]!, target: 'host', status: failed ? 'error' : 'ok', startedAt: startedAt(i), durationMs: 1, requestBytes: 10, responseBytes: 10, ...(failed ? { errorCode: 'ToolFailed' } : {}) },
    json: callJson({ path: WORDS[i % WORDS.length], id: `k${i}` }, { content: [{ type: 'text', text: `done ${WORDS[(i * 5) % WORDS.length]}` }] }),
    policy: null,
    decidedBy: null,
  };
}

const at = (i: number) => T0 + i * 100;

/** Narrow and wide, old and recent, open on either side, across the stepped-back clock, and empty. */
const WINDOWS: Array<Pick<CallQuery, 'since' | 'until'>> = [
  {},
  { since: at(100), until: at(103) },
  { since: at(2400), until: at(2410) },
  { since: at(10), until: at(2490) },
  { since: at(300) },
  { until: at(300) },
  { since: at(1550), until: at(1600) },
  { since: at(1450), until: at(1460) },
  { until: T0 - 60_000 },
];
const FILTERS: Array<Pick<CallQuery, 'status' | 'tool' | 'agent'>> = [
  {},
  { tool: 'stage-edits' },
  { agent: 'agent é/ü' },
  { status: 'error' },
  { tool: 'document-read', agent: 'claude-code' },
  { tool: 'find-symbols', status: 'error' },
  { tool: 'stage-edits', agent: 'codex', status: 'ok' },
];
/** Prefixes of no word, of one, of several, of more than the store expands (k12: 111 words), in capitals, not in ASCII, in a phrase. */
const TEXTS = [undefined, 'alp', 'ALPHA', 'k12', 'éla', 'src/mod', 'zzz', 'done refer'];

async function compareAll(store: AuditStore, db: Database.Database, windows = WINDOWS): Promise<number> {
  let nonEmpty = 0;
  for (const window of windows) {
    for (const filter of FILTERS) {
      for (const text of TEXTS) {
        for (const before of [undefined, 1200]) {
          const query = { ...window, ...filter, ...(text !== undefined ? { text } : {}), ...(before !== undefined ? { before } : {}) };
          const want = expectedSeqs(db, query);
          if (want.length > 0) nonEmpty++;
          assert.deepEqual(await allPages(store, query, 40), want, JSON.stringify(query));
        }
      }
    }
  }
  return nonEmpty;
}

describe('history pages with time windows', () => {
  test('every window, with filters, text and cursors, gives the rows, order and pages of the plain query', async () => {
    await withAuditStore('junction-audit-windows-', async (store, path) => {
      for (let i = 1; i <= CALLS; i++) store.recordCall(call(i));
      // The oracle reads the search index as it is; the store's own searches ask the writer to finish it first.
      await store.indexed();
      await readTrail(path, async (db) => {
        const nonEmpty = await compareAll(store, db);
        assert.ok(nonEmpty > WINDOWS.length * FILTERS.length * 4, `the combinations find rows, not only empty pages (${nonEmpty})`);
        // The shapes the data is built for: a window that only late-recorded calls reach, and filters that never meet.
        const late = expectedSeqs(db, { since: at(1450), until: at(1460) });
        assert.ok(late.some((seq) => seq > 1500), 'calls recorded long after the window started in it');
        assert.deepEqual(expectedSeqs(db, { tool: 'document-read', agent: 'claude-code' }), []);
      });
    });
  });

  test('retention retires the time map below the oldest call, and a changed start time widens its block', async () => {
    await withAuditStore('junction-audit-windows-', async (store, path) => {
      for (let i = 1; i <= CALLS; i++) store.recordCall(call(i));
      // The oracle reads the search index as it is; the store's own searches ask the writer to finish it first.
      await store.indexed();
      const db = new Database(path);
      try {
        db.prepare('DELETE FROM calls WHERE seq IN (SELECT seq FROM calls ORDER BY seq LIMIT 700)').run();
        const below = db.prepare('SELECT COUNT(*) AS n FROM calls_time_blocks WHERE block < (SELECT MIN(seq) FROM calls) >> 8').get() as { n: number };
        assert.equal(below.n, 0, 'no block wholly below the oldest call is left');
        assert.ok((db.prepare('SELECT COUNT(*) AS n FROM calls_time_blocks').get() as { n: number }).n > 0);
        db.prepare('UPDATE calls SET started_at = ? WHERE seq = 2000').run(at(-50));
        assert.deepEqual((await store.queryCalls({ until: at(0), limit: 10 })).items.map((item) => item.seq), [2000], 'found by its new start time');
        assert.equal(await compareAll(store, db, [{}, { until: at(900) }, { since: at(650), until: at(720) }, { since: at(1550), until: at(1600) }]) > 0, true);
      } finally {
        db.close();
      }
    });
  });

  test('a version 2 trail is upgraded once: its calls are mapped by start time and found in windows like new ones', async () => {
    const asVersion2Wrote = (v2: Database.Database) => {
      // Written as a version 2 Junction wrote: plain inserts, then the batch's one indexing statement per index.
      const insert = v2.prepare("INSERT INTO calls (call_id, started_at, agent, transport, tool, target, status, error_code, request_bytes, arguments, result) VALUES (?, ?, 'cursor', 'http-api', 'workspace-open', 'host', ?, ?, 10, ?, NULL)");
      for (let i = 1; i <= 600; i++) insert.run(`old-${i}`, startedAt(i), i % 5 ? 'ok' : 'error', i % 5 ? null : 'ToolFailed', JSON.stringify({ path: `/srv/legacy-${WORDS[i % WORDS.length]}` }));
      v2.exec(indexCallsFrom('all', '0') + indexCallsFrom('error', '0'));
    };
    await withUpgradedTrail('junction-audit-v2-', 2, asVersion2Wrote, async (store, path, infos) => {
      assert.match(infos.join('\n'), new RegExp(`upgraded .* from schema 2 to ${SCHEMA_VERSION}`));
      for (let i = 601; i <= 700; i++) store.recordCall(call(i));
      await store.indexed();
      await readTrail(path, async (db) => {
        const windows = [{ since: at(100), until: at(103) }, { until: at(520) }, { since: at(580), until: at(640) }, { since: at(450), until: at(460) }];
        for (const window of windows) {
          for (const text of [undefined, 'legacy-alp', 'alp']) {
            const query = { ...window, ...(text !== undefined ? { text } : {}) };
            const want = expectedSeqs(db, query);
            assert.ok(want.length > 0 || text === 'alp', JSON.stringify(query));
            assert.deepEqual(await allPages(store, query, 25), want, JSON.stringify(query));
          }
        }
        assert.equal(db.pragma('user_version', { simple: true }), SCHEMA_VERSION);
      });
    });
  });
});
