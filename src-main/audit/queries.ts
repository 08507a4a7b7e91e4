/** Reading the audit database: the console's history pages, one call, and ended transactions' events. */
import type Database from 'better-sqlite3';
import { CALL_COLUMNS, rowToCall, rowToEvent, type CallRow, type EventRow } from './database.js';
import type { CallPage, CallQuery, StoredCall, StoredEvent } from './records.js';
import { FACET_COLUMNS, SEARCH_INDEXES } from './schema.js';
import { facetToken, filteredExpression, searchExpression } from './search.js';

/** Newest first, filtered on the server side, paged by sequence cursor. */
export function queryCalls(db: Database.Database, query: CallQuery): CallPage {
  const text = query.text?.trim();
  const terms = text ? searchExpression(text) : undefined;
  // Text without a single word can match nothing (see search.ts).
  if (text && !terms) return { items: [] };
  const rows = terms ? searched(db, query, terms) : filtered(db, query);
  const items = rows.slice(0, query.limit).map(rowToCall);
  const last = items[items.length - 1];
  return rows.length > query.limit && last ? { items, nextBefore: last.seq } : { items };
}

const COLUMNS = CALL_COLUMNS.split(', ').map((c) => `c.${c}`).join(', ');

interface Clauses {
  where: string[];
  params: Record<string, string | number>;
}

function timeClauses(query: CallQuery, into: Clauses): void {
  if (query.since !== undefined) {
    into.where.push('c.started_at >= @since');
    into.params.since = query.since;
  }
  if (query.until !== undefined) {
    into.where.push('c.started_at < @until');
    into.params.until = query.until;
  }
}

/** Without text: the filters' own indexes on `calls`. */
function filtered(db: Database.Database, query: CallQuery): CallRow[] {
  const clauses: Clauses = { where: [], params: { limit: query.limit + 1 } };
  const { where, params } = clauses;
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
  timeClauses(query, clauses);
  if (query.before !== undefined) {
    where.push('c.seq < @before');
    params.before = query.before;
  }
  const sql = `SELECT ${COLUMNS} FROM calls c ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY c.seq DESC LIMIT @limit`;
  return db.prepare(sql).all(params) as CallRow[];
}

/**
 * With text: one MATCH carries the terms and the filters (as facet tokens), so the index intersects their
 * posting lists newest first and stops at a full page; failed calls are searched in their own, smaller
 * index. The filters are checked on the rows once more, which costs nothing at a page's size.
 */
function searched(db: Database.Database, query: CallQuery, terms: string): CallRow[] {
  const index = query.status === 'error' ? SEARCH_INDEXES.error : SEARCH_INDEXES.all;
  const facets: string[] = [];
  const clauses: Clauses = { where: [], params: { limit: query.limit + 1 } };
  const { where, params } = clauses;
  for (const column of ['status', 'tool', 'agent'] as const) {
    const value = query[column];
    if (value === undefined || value === '') continue;
    if (!(column === 'status' && index === SEARCH_INDEXES.error)) facets.push(facetToken(FACET_COLUMNS[column], value));
    where.push(`+c.${column} = @${column}`);
    params[column] = value;
  }
  where.push(`${index.table} MATCH @match`);
  params.match = filteredExpression(terms, facets);
  timeClauses(query, clauses);
  if (query.before !== undefined) {
    // On the index's rowid, so the full-text walk itself starts below the cursor.
    where.push(`${index.table}.rowid < @before`);
    params.before = query.before;
  }
  const sql = `SELECT ${COLUMNS} FROM ${index.table} JOIN calls c ON c.seq = ${index.table}.rowid WHERE ${where.join(' AND ')} ORDER BY ${index.table}.rowid DESC LIMIT @limit`;
  return db.prepare(sql).all(params) as CallRow[];
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
