/**
 * The audit trail's memory levels off: its writer's SQLite page cache (`PAGE_CACHE_KIB`, about 2 MB)
 * fills while the database is smaller than it, and RSS follows, then stays flat. The soak's RSS
 * allowance for the audit trail (scenarios/soak.ts) rests on this plateau, which a soak of minutes
 * never reaches. Flat is judged by the rise from the plateau's start to the highest sample after it,
 * per call since: still filling, RSS rose about 0.45 KB a call (0.64 measured with a 64 MB cache),
 * while past it RSS steps once by about 3.3 MB, at about 16 MB of database in every run read (its cause
 * not traced), and creeps by about 0.02 KB a call. Over 40,000 calls that one step was over the 3 MB
 * once allowed, or just past the window, depending on the run.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AuditStore, compileRedaction } from '../../src-main/audit/index.js';
import { PAGE_CACHE_KIB } from '../../src-main/audit/database.js';
import { silentLogger } from '../../src-main/shared/log.js';
import { collectGarbage } from './scenarios/rss.js';

const CALLS = 80_000;
const SAMPLE_EVERY = 2_500;
/** Past the writer's page cache, with a margin for pages the cache never holds. */
const PLATEAU_DB_MB = (PAGE_CACHE_KIB * 1024) / 1024 / 1024 + 1;
/** Still filling, RSS rose 0.45 to 0.64 KB a call; past the plateau it rose 0.07 to 0.09 (five runs), and must stay under 0.25. */
const PLATEAU_RISE_LIMIT_KB_PER_CALL = 0.25;

const mb = (bytes: number) => bytes / 1024 / 1024;

test('audit trail memory reaches a plateau once the database outgrows the page cache', { timeout: 120_000 }, async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'junction-audit-memory-'));
  const path = join(dir, 'audit.db');
  const store = new AuditStore({ path, rules: compileRedaction([]), logger: silentLogger, retentionDays: 30, maxBytes: 1024 * 1024 * 1024 });
  const samples: Array<{ calls: number; dbMb: number; rssMb: number }> = [];
  try {
    store.open();
    for (let n = 1; n <= CALLS; n++) {
      // Shaped like a soak call: a random call id, a small argument and result.
      const id = `call-${n}`;
      store.recordCall({
        call: { callId: randomUUID(), agent: 'reliability-agent/1.0.0 #3', transport: 'mcp-http', tool: 'soak-echo', target: 'plugin:soak', status: 'ok', startedAt: Date.now(), durationMs: 3, requestBytes: 40, responseBytes: 120 },
        json: { arguments: JSON.stringify({ id }), result: JSON.stringify({ content: [{ type: 'text', text: JSON.stringify({ id }) }], structuredContent: { id } }) },
        policy: null,
        decidedBy: null,
      });
      if (n % 500 === 0) store.flush();
      if (n % SAMPLE_EVERY === 0) {
        collectGarbage();
        samples.push({ calls: n, dbMb: mb(statSync(path).size), rssMb: mb(process.memoryUsage().rss) });
      }
    }
  } finally {
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
  const table = samples.map((s) => `${s.calls}: db ${s.dbMb.toFixed(1)} MB, rss ${s.rssMb.toFixed(1)} MB`).join('; ');
  const plateau = samples.findIndex((s) => s.dbMb >= PLATEAU_DB_MB);
  assert.ok(plateau >= 0 && plateau < samples.length - 2, `the database outgrew the page cache with samples to spare (${table})`);
  const start = samples[plateau]!;
  const riseKb = (Math.max(...samples.slice(plateau).map((s) => s.rssMb)) - start.rssMb) * 1024;
  const perCall = riseKb / (CALLS - start.calls);
  t.diagnostic(`past ${PLATEAU_DB_MB} MB of database: ${perCall.toFixed(3)} KB a call (${table})`);
  assert.ok(perCall < PLATEAU_RISE_LIMIT_KB_PER_CALL, `RSS rose ${(riseKb / 1024).toFixed(1)} MB, ${perCall.toFixed(3)} KB a call, after the database passed ${PLATEAU_DB_MB} MB (${table})`);
});
