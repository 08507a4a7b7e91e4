/** Reading the audit database: the console's history pages, one call, and ended transactions' events. */
import type Database from 'better-sqlite3';
import { CALL_COLUMNS, rowToCall, rowToEvent, type CallRow, type EventRow } from './database.js';
import type { CallPage, CallQuery, StoredCall, StoredEvent } from './records.js';
import { FACET_COLUMNS, SEARCH_INDEXES } from './schema.js';
import { facetToken, filteredExpression, joinedExpression, searchTerms, type SearchTerm } from './search.js';
import { callIdTerm } from '../contracts/index.js';
import { seqRanges, type SeqRange } from './time-map.js';

/** The most words a prefix is expanded into (search.ts): a seek each; past them the prefix stands for many words (numbers, ids), rarely many rows, and FTS5 takes it. */
const MAX_PREFIX_WORDS = 16;

const FILTERS = ['status', 'tool', 'agent'] as const;

/** The query's filters that are set, in FILTERS order. */
const setFilters = (query: CallQuery): Array<[(typeof FILTERS)[number], string]> =>
  FILTERS.flatMap((column) => {
    const value = query[column];
    return value === undefined || value === '' ? [] : [[column, value] as [(typeof FILTERS)[number], string]];
  });

/** Whether answering `query` may read the search indexes (text, or a filter): what they lack must be indexed first (schema.ts, version 6). */
export const readsSearchIndex = (query: Omit<CallQuery, 'limit'>): boolean => Boolean(query.text?.trim()) || setFilters({ ...query, limit: 0 }).length > 0;

/**
 * Newest first, filtered on the server side, paged by sequence cursor. The page is gathered range by range
 * over the seqs that can hold the time window's calls (all of them without a window), newest range first,
 * until it is full; within a range one statement walks an index newest first.
 */
export function queryCalls(db: Database.Database, query: CallQuery): CallPage {
  const text = query.text?.trim();
  const terms = text ? searchTerms(text, (prefix) => indexWords(db, prefix)) : undefined;
  // A term that some call's id answers may match that call whatever the index holds (see withIds).
  const idTerms = (terms ?? []).map(idTermOf).filter((term) => idsExist(db, term));
  const indexed = terms?.filter((term) => !idTerms.some((idTerm) => idTerm.term === term)) ?? [];
  const expression = joinedExpression(indexed);
  // Text without a single word, or with a prefix of no word and no id that matches, can match nothing (see search.ts).
  if (terms && ((indexed.length > 0 && expression === undefined) || terms.length === 0)) return { items: [] };
  // Filters: their facet tokens in the search index, whose posting lists intersect there (schema.ts keeps no
  // b-tree index per filter since version 4); but within a small range a walk over its rows is a few rows,
  // cheaper than the 3 ms a match takes to start.
  const inRange =
    idTerms.length > 0
      ? withIds(db, query, expression, idTerms)
      : expression !== undefined
        ? searched(db, query, expression)
        : setFilters(query).length > 0
          ? bySize(filtered(db, query), searched(db, query, undefined))
          : filtered(db, query);
  const rows: CallRow[] = [];
  for (const range of seqRanges(db, query)) {
    rows.push(...inRange(range, query.limit + 1 - rows.length));
    if (rows.length > query.limit) break;
  }
  const items = rows.slice(0, query.limit).map(rowToCall);
  const last = items[items.length - 1];
  return rows.length > query.limit && last ? { items, nextBefore: last.seq } : { items };
}

/** The rows of one seq range, newest first, at most `limit`. */
type RangePage = (range: SeqRange, limit: number) => CallRow[];

const COLUMNS = CALL_COLUMNS.split(', ').map((c) => `c.${c}`).join(', ');

interface Clauses {
  where: string[];
  params: Record<string, string | number | bigint>;
}

/** The window itself, checked on the rows of the ranges; the unary + keeps the planner on seq order, off the started_at index. */
function timeClauses(query: CallQuery, into: Clauses): void {
  if (query.since !== undefined) {
    into.where.push('+c.started_at >= @since');
    into.params.since = query.since;
  }
  if (query.until !== undefined) {
    into.where.push('+c.started_at < @until');
    into.params.until = query.until;
  }
}

/** The filters as conditions on the rows; `+` keeps the planner off their indexes when another walk leads. */
function filterClauses(query: CallQuery, into: Clauses, unary: '' | '+'): void {
  for (const [column, value] of setFilters(query)) {
    into.where.push(`${unary}c.${column} = @${column}`);
    into.params[column] = value;
  }
}

function inRanges(db: Database.Database, sql: string, params: Clauses['params']): RangePage {
  const statement = db.prepare(sql);
  // Bound as integers: better-sqlite3 binds a number as a double, which FTS5 does not take as a rowid bound,
  // leaving it to walk from the newest row down to the range (150 ms for a range 900,000 rows deep).
  return ({ from, to }, limit) => statement.all({ ...params, from: BigInt(from), to: BigInt(to), limit }) as CallRow[];
}

/**
 * Up to this many seqs a range is small: a narrow window's, or one of the single blocks a long call
 * recorded late adds to a window. FTS5 starts a common word's newest-first walk deep in the trail slowly
 * (2 ms, against 0.1 ms oldest first), and a range costs one start.
 */
const SMALL_RANGE = 1024;

/** `small` for a small range, `large` for any other. */
const bySize =
  (small: RangePage, large: RangePage): RangePage =>
  (range, limit) =>
    (range.to - range.from < SMALL_RANGE ? small : large)(range, limit);

/** Without text: the calls of the range newest first, the filters checked on each; for small ranges only when there are filters. */
function filtered(db: Database.Database, query: CallQuery): RangePage {
  const clauses: Clauses = { where: ['c.seq BETWEEN @from AND @to'], params: {} };
  filterClauses(query, clauses, '+');
  timeClauses(query, clauses);
  return inRanges(db, `SELECT ${COLUMNS} FROM calls c WHERE ${clauses.where.join(' AND ')} ORDER BY c.seq DESC LIMIT @limit`, clauses.params);
}

/**
 * With text, or with several filters: one MATCH carries the terms and the filters (as facet tokens), so
 * the index intersects their posting lists newest first and stops at a full page; failed calls are
 * searched in their own, smaller index. The filters are checked on the rows once more, which costs
 * nothing at a page's size.
 */
function searched(db: Database.Database, query: CallQuery, terms: string | undefined): RangePage {
  const { table, match, checks, params } = searchParts(query, terms);
  // The range on the index's rowid, so the full-text walk itself keeps to it.
  const matches = match(table, 'match');
  const newestFirst = `SELECT ${COLUMNS} FROM ${table} JOIN calls c ON c.seq = ${table}.rowid WHERE ${matches}${checks} ORDER BY ${table}.rowid DESC LIMIT @limit`;
  // A small range's matches oldest first, the page then ordered on calls (see SMALL_RANGE).
  const oldestFirst = `SELECT ${COLUMNS} FROM calls c WHERE c.seq BETWEEN @from AND @to AND c.seq IN (SELECT rowid FROM ${table} WHERE ${matches})${checks} ORDER BY c.seq DESC LIMIT @limit`;
  return bySize(inRanges(db, oldestFirst, params), inRanges(db, newestFirst, params));
}

/** What a search's statement is made of: the index it matches in, the MATCH of its terms and filters, the checks on the rows, and their parameters. */
function searchParts(query: CallQuery, terms: string | undefined) {
  const { table } = query.status === 'error' ? SEARCH_INDEXES.error : SEARCH_INDEXES.all;
  const filters = setFilters(query);
  // The failed-calls index holds failed calls only: its status needs no token, unless the token is all there is to match.
  const needless = ([column]: (typeof filters)[number]) => column === 'status' && table === SEARCH_INDEXES.error.table && (terms !== undefined || filters.length > 1);
  const facets = filters.filter((filter) => !needless(filter)).map(([column, value]) => facetToken(FACET_COLUMNS[column], value));
  const onRows: Clauses = { where: [], params: {} };
  filterClauses(query, onRows, '+');
  timeClauses(query, onRows);
  const checks = onRows.where.map((clause) => ` AND ${clause}`).join('');
  const params: Clauses['params'] = { ...onRows.params, match: filteredExpression(terms, facets) };
  /** A MATCH on `index` bound to parameter `name`, kept to the range on the index's rowid. */
  const match = (index: string, name: string) => `${index} MATCH @${name} AND ${index}.rowid BETWEEN @from AND @to`;
  return { table, match, checks, params };
}

/** A search term with the call ids it stands for: the id itself, or the ids from it to the last that begins with it (ids are ASCII, below U+10FFFF). */
interface IdTerm {
  term: SearchTerm;
  bounds: [id: string] | [from: string, below: string];
}

function idTermOf(term: SearchTerm): IdTerm {
  const { id, prefix } = callIdTerm(term.text);
  return { term, bounds: prefix ? [id, `${id}\u{10FFFF}`] : [id] };
}

/** The condition that `column` holds an id the term stands for, its bounds bound to `names` (as many as the bounds). */
const idCondition = (column: string, { bounds }: IdTerm, names: readonly string[]): string =>
  bounds.length === 1 ? `${column} = ${names[0]}` : `(${column} >= ${names[0]} AND ${column} < ${names[1]})`;

/** Whether the id of some recorded call is one `term` stands for: one seek in `calls_call_id`. */
function idsExist(db: Database.Database, term: IdTerm): boolean {
  return db.prepare(`SELECT 1 FROM calls WHERE ${idCondition('call_id', term, ['?', '?'])} LIMIT 1`).get(...term.bounds) !== undefined;
}

/**
 * A search with terms that call ids answer (contracts/call-id-search.ts): such a term matches a call when
 * the call's id is one it stands for, or when the index matches it in the call's text (an id an argument
 * or result carries), so each is a condition of its own; the other terms and the filters are one MATCH
 * as in `searched`. What an id term names is a few calls (an id's first eight characters are 65 s of its
 * time), so they lead: the range's bound is kept off the rowid (`+`), where SQLite would walk the whole
 * range checking each row (a second at a million calls), and the MATCH of the other terms is checked on
 * each candidate (`EXISTS`, a seek by rowid) rather than listed first (two seconds for a word in every
 * call).
 */
function withIds(db: Database.Database, query: CallQuery, terms: string | undefined, idTerms: readonly IdTerm[]): RangePage {
  const { table, match, checks, params } = searchParts(query, terms);
  const where = ['+c.seq BETWEEN @from AND @to'];
  if (params.match !== '') where.push(`EXISTS (SELECT 1 FROM ${table} WHERE ${table} MATCH @match AND ${table}.rowid = c.seq)`);
  idTerms.forEach((idTerm, i) => {
    const names = idTerm.bounds.map((bound, b) => {
      params[`id${i}_${b}`] = bound;
      return `@id${i}_${b}`;
    });
    const byId = idCondition('c.call_id', idTerm, names);
    const { expression } = idTerm.term;
    if (expression === undefined) {
      where.push(byId);
    } else {
      params[`text${i}`] = filteredExpression(expression, []);
      where.push(`(${byId} OR c.seq IN (SELECT rowid FROM ${table} WHERE ${match(table, `text${i}`)}))`);
    }
  });
  return inRanges(db, `SELECT ${COLUMNS} FROM calls c WHERE ${where.join(' AND ')}${checks} ORDER BY c.seq DESC LIMIT @limit`, params);
}

/** The index's words that begin with `prefix`, one seek each in the index's own word order; undefined past MAX_PREFIX_WORDS. */
function indexWords(db: Database.Database, prefix: string): string[] | undefined {
  const next = db.prepare('SELECT term FROM calls_fts_terms WHERE term >= ? LIMIT 1').pluck();
  const words: string[] = [];
  for (let from = prefix; ; ) {
    const word = next.get(from) as string | undefined;
    if (word === undefined || !word.startsWith(prefix)) return words;
    if (words.length === MAX_PREFIX_WORDS) return undefined;
    words.push(word);
    // The least text after `word`: no word of the index holds U+0001, so none lies between.
    from = `${word}\u0001`;
  }
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
