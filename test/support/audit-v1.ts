/** Audit database files as a version 1 Junction wrote them (search index without facets), for upgrade tests and benches. */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { migrate } from '../../src-main/audit/schema.js';

/** Epoch ms of the first recorded call by default; call `i` started `i` ms later. */
export const V1_T0 = Date.UTC(2026, 0, 5, 9);

/**
 * Writes `rows` calls into a new version 1 file at `path`, as that Junction recorded them: plain inserts,
 * indexed by its insert trigger, in WAL mode. Call `i` is `v1-<i>`, every twentieth one failed; all
 * arguments carry the word `legacyproject`. `t0` is when call 0 started: a bench that keeps the default
 * retention wants recent calls, or opening the file deletes the expired ones as well.
 */
export function writeV1Trail(path: string, rows: number, t0 = V1_T0): void {
  mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  try {
    db.pragma('journal_mode = WAL');
    migrate(db, 1);
    const insert = db.prepare(
      `WITH RECURSIVE n(i) AS (SELECT CAST(? AS INTEGER) UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO calls (call_id, started_at, agent, transport, tool, target, status, error_code, duration_ms, request_bytes, response_bytes, arguments, result)
       SELECT 'v1-' || i, ? + i, 'agent-' || (i % 50), 'mcp-http', 'tool-' || (i % 40), 'host',
              CASE WHEN i % 20 = 0 THEN 'error' ELSE 'ok' END, CASE WHEN i % 20 = 0 THEN 'ToolFailed' END, i % 97, 120, 800,
              '{"path":"src/legacyproject/module-' || (i % 1000) || '.ts","query":"find references","limit":50}',
              '{"content":[{"type":"text","text":"{\\"items\\":[],\\"n\\":' || i || '}"}]}'
       FROM n`,
    );
    const step = 50_000;
    for (let from = 0; from < rows; from += step) db.transaction(() => insert.run(from, Math.min(rows, from + step) - 1, t0))();
  } finally {
    db.close();
  }
}
