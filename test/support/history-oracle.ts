/**
 * What a history page must hold, in plain SQL over the whole table (every text match of the whole index,
 * the filters and the window checked row by row), and every page of a query as the store gives them.
 */
import assert from 'node:assert/strict';
import type Database from 'better-sqlite3';
import type { AuditStore, CallQuery } from '../../src-main/audit/index.js';
import { searchTerms } from '../../src-main/audit/search.js';
import { callIdTerm } from '../../src-main/contracts/call-id-search.js';

export function expectedSeqs(db: Database.Database, query: Omit<CallQuery, 'limit'>): number[] {
  const where: string[] = [];
  const params: Record<string, string | number> = {};
  if (query.text) {
    const terms = searchTerms(query.text);
    if (terms.length === 0) return [];
    // Each term: its words in the index, or the call's id (the id itself, or from eight characters on its beginning), checked row by row.
    terms.forEach((term, i) => {
      const { id, prefix } = callIdTerm(term.text);
      const byId = prefix ? `substr(call_id, 1, length(@id${i})) = @id${i}` : `call_id = @id${i}`;
      params[`id${i}`] = id;
      if (term.expression === undefined) return where.push(byId);
      params[`term${i}`] = term.expression;
      return where.push(`(${byId} OR seq IN (SELECT rowid FROM calls_fts WHERE calls_fts MATCH '{tool agent target call_id error_code arguments result} : (' || @term${i} || ')'))`);
    });
  }
  for (const column of ['status', 'tool', 'agent'] as const) {
    if (query[column] === undefined) continue;
    where.push(`${column} = @${column}`);
    params[column] = query[column];
  }
  if (query.since !== undefined) {
    where.push('started_at >= @since');
    params.since = query.since;
  }
  if (query.until !== undefined) {
    where.push('started_at < @until');
    params.until = query.until;
  }
  if (query.before !== undefined) {
    where.push('seq < @before');
    params.before = query.before;
  }
  const sql = `SELECT seq FROM calls ${where.length ? `WHERE ${where.join(' AND ')}` : ''} ORDER BY seq DESC`;
  return (db.prepare(sql).all(params) as Array<{ seq: number }>).map((r) => r.seq);
}

/** Every page of a query, following `nextBefore`; each page checked for its size and cursor. */
export async function allPages(store: AuditStore, query: Omit<CallQuery, 'limit'>, limit: number): Promise<number[]> {
  const seqs: number[] = [];
  let before = query.before;
  for (;;) {
    const page = await store.queryCalls({ ...query, limit, ...(before !== undefined ? { before } : {}) });
    const pageSeqs = page.items.map((item) => item.seq);
    seqs.push(...pageSeqs);
    if (page.nextBefore === undefined) return seqs;
    assert.equal(pageSeqs.length, limit, 'a page with a next one is full');
    assert.equal(page.nextBefore, pageSeqs[pageSeqs.length - 1], 'the cursor is the last row of the page');
    before = page.nextBefore;
  }
}
