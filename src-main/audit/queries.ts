/** Reading the audit database: the console's history pages, one call, and ended transactions' events. */
import type Database from 'better-sqlite3';
import { CALL_COLUMNS, rowToCall, rowToEvent, type CallRow, type EventRow } from './database.js';
import type { CallPage, CallQuery, StoredCall, StoredEvent } from './records.js';
import { searchExpression } from './search.js';

/** Newest first, filtered on the server side, paged by sequence cursor. */
export function queryCalls(db: Database.Database, query: CallQuery): CallPage {
  const where: string[] = [];
  const params: Record<string, string | number> = {};
  const text = query.text?.trim();
  const match = text ? searchExpression(text) : undefined;
  // Text without a single word can match nothing (see search.ts).
  if (text && !match) return { items: [] };
  if (query.status) {
    // With a tool or agent, those indexes are far more selective; the unary + keeps the planner off the status index.
    where.push(query.tool || query.agent ? '+c.status = @status' : 'c.status = @status');
    params.status = query.status;
  }
  if (query.tool) {
    where.push('c.tool = @tool');
    params.tool = query.tool;
  }
  if (query.agent) {
    where.push('c.agent = @agent');
    params.agent = query.agent;
  }
  if (query.since !== undefined) {
    where.push('c.started_at >= @since');
    params.since = query.since;
  }
  if (query.until !== undefined) {
    where.push('c.started_at < @until');
    params.until = query.until;
  }
  if (query.before !== undefined) {
    // On the index's rowid when searching, so the full-text scan itself starts below the cursor.
    where.push(match ? 'calls_fts.rowid < @before' : 'c.seq < @before');
    params.before = query.before;
  }
  if (match) {
    where.push('calls_fts MATCH @match');
    params.match = match;
  }
  params.limit = query.limit + 1;
  const columns = CALL_COLUMNS.split(', ').map((c) => `c.${c}`).join(', ');
  // Searching walks the index's matches newest first and stops at a full page.
  const from = match ? 'calls_fts JOIN calls c ON c.seq = calls_fts.rowid' : 'calls c';
  const order = match ? 'calls_fts.rowid' : 'c.seq';
  const sql = `SELECT ${columns} FROM ${from} ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY ${order} DESC LIMIT @limit`;
  const rows = db.prepare(sql).all(params) as CallRow[];
  const items = rows.slice(0, query.limit).map(rowToCall);
  const last = items[items.length - 1];
  return rows.length > query.limit && last ? { items, nextBefore: last.seq } : { items };
}

export function findCall(db: Database.Database, callId: string): StoredCall | undefined {
  const row = db.prepare(`SELECT ${CALL_COLUMNS} FROM calls WHERE call_id = ? ORDER BY seq DESC LIMIT 1`).get(callId) as CallRow | undefined;
  return row ? rowToCall(row) : undefined;
}

/** Events of the most recent transactions that ended (committed or rolled back), newest transaction first. */
export function endedTransactions(db: Database.Database, limit: number): Array<{ transactionId: string; events: StoredEvent[] }> {
  const ids = db
    .prepare("SELECT transaction_id AS id, MAX(seq) AS last FROM events WHERE kind IN ('transaction.committed', 'transaction.rolledBack') AND transaction_id IS NOT NULL GROUP BY transaction_id ORDER BY last DESC LIMIT ?")
    .all(limit) as Array<{ id: string }>;
  const byTx = db.prepare('SELECT * FROM events WHERE transaction_id = ? ORDER BY seq');
  return ids.map(({ id }) => ({ transactionId: id, events: (byTx.all(id) as EventRow[]).map(rowToEvent) }));
}
