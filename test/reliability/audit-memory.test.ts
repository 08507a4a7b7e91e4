/**
 * The audit trail's memory levels off: its writer's SQLite page cache (`PAGE_CACHE_KIB`, about 2 MB)
 * fills while the database is smaller than it, and RSS follows, then stays flat. The soak's RSS allowance for the audit trail
 * (scenarios/soak.ts) rests on this plateau, which a soak of minutes never reaches.
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

const CALLS = 40_000;
const SAMPLE_EVERY = 2_500;
/** Past the writer's page cache, with a margin for pages the cache never holds. */
const PLATEAU_DB_MB = (PAGE_CACHE_KIB * 1024) / 1024 / 1024 + 1;
/** Still filling, RSS would rise about 0.45 KB a call: over 3 MB across the calls written after the plateau starts. */
const PLATEAU_RISE_LIMIT_MB = 3;

const mb = (bytes: number) => bytes / 1024 / 1024;

test('audit trail memory reaches a plateau once the database outgrows the page cache', { timeout: 120_000 }, async () => {
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
  const base = samples[plateau]!.rssMb;
  const rise = Math.max(...samples.slice(plateau).map((s) => s.rssMb)) - base;
  assert.ok(rise < PLATEAU_RISE_LIMIT_MB, `RSS rose ${rise.toFixed(1)} MB after the database passed ${PLATEAU_DB_MB} MB (${table})`);
});
