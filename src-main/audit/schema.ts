/**
 * The audit database's schema and its versioned migrations. `PRAGMA user_version` holds the schema
 * version; each migration runs once, in one transaction with the version bump, so a database is either
 * wholly at the old version or wholly at the new one. A database from a newer Junction is refused
 * rather than written in a shape it does not expect.
 */
import type Database from 'better-sqlite3';

const BASE = `
CREATE TABLE IF NOT EXISTS calls (
  seq INTEGER PRIMARY KEY,
  call_id TEXT NOT NULL,
  started_at INTEGER NOT NULL,
  agent TEXT NOT NULL,
  transport TEXT NOT NULL,
  tool TEXT NOT NULL,
  target TEXT NOT NULL,
  status TEXT NOT NULL,
  error_code TEXT,
  duration_ms INTEGER,
  request_bytes INTEGER NOT NULL,
  response_bytes INTEGER,
  arguments TEXT NOT NULL,
  result TEXT,
  redacted TEXT,
  truncated INTEGER NOT NULL DEFAULT 0,
  policy TEXT,
  decided_by TEXT,
  replay_of TEXT
);
CREATE INDEX IF NOT EXISTS calls_call_id ON calls(call_id);
CREATE INDEX IF NOT EXISTS calls_started_at ON calls(started_at);
CREATE INDEX IF NOT EXISTS calls_tool ON calls(tool, seq);
CREATE INDEX IF NOT EXISTS calls_agent ON calls(agent, seq);
CREATE INDEX IF NOT EXISTS calls_status ON calls(status, seq);
CREATE TABLE IF NOT EXISTS events (
  seq INTEGER PRIMARY KEY,
  at INTEGER NOT NULL,
  kind TEXT NOT NULL,
  workspace_id TEXT,
  transaction_id TEXT,
  data TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_at ON events(at);
CREATE INDEX IF NOT EXISTS events_transaction ON events(transaction_id, seq);
`;

/** The calls' columns the full-text index covers as searchable text, in its column order. */
export const SEARCHED_COLUMNS = ['tool', 'agent', 'target', 'call_id', 'error_code', 'arguments', 'result'] as const;

const searched = SEARCHED_COLUMNS.join(', ');
const fromRow = (row: 'new' | 'old') => SEARCHED_COLUMNS.map((c) => `${row}.${c}`).join(', ');

/**
 * Version 1: a full-text index over the searchable text of every call. Contentless (the text already lives
 * in `calls`), with deletes by rowid so retention needs no re-tokenising; triggers keep it in step inside
 * the writing transaction, whoever writes. The backfill indexes the calls an older Junction recorded.
 */
const SEARCH_INDEX = `
CREATE VIRTUAL TABLE calls_fts USING fts5(${searched}, content='', contentless_delete=1);
CREATE TRIGGER calls_fts_insert AFTER INSERT ON calls BEGIN
  INSERT INTO calls_fts(rowid, ${searched}) VALUES (new.seq, ${fromRow('new')});
END;
CREATE TRIGGER calls_fts_delete AFTER DELETE ON calls BEGIN
  DELETE FROM calls_fts WHERE rowid = old.seq;
END;
CREATE TRIGGER calls_fts_update AFTER UPDATE ON calls BEGIN
  DELETE FROM calls_fts WHERE rowid = old.seq;
  INSERT INTO calls_fts(rowid, ${searched}) VALUES (new.seq, ${fromRow('new')});
END;
`;
const SEARCH_INDEX_BACKFILL = `INSERT INTO calls_fts(rowid, ${searched}) SELECT seq, ${searched} FROM calls;`;

/**
 * The history filters held in the index as one exact token each (see search.ts): a prefix letter and the
 * value's UTF-8 bytes in hex, which the tokenizer keeps as one word whatever the value's punctuation.
 */
export const FACET_COLUMNS = { status: 's', tool: 't', agent: 'a' } as const;

const facetsOf = (row: string) =>
  Object.entries(FACET_COLUMNS)
    .map(([column, prefix]) => `'${prefix}' || hex(${row}${column})`)
    .join(` || ' ' || `);

/** The index's columns: the searchable text, then `facets`. */
const INDEX_COLUMNS = `${searched}, facets`;

/** A row's values for the index, rowid first, for a row named `row` (`new` in a trigger, `c` in a batch statement). */
type IndexValues = (row: string) => string;

/** The index's values with the column `left` (if any) left empty. */
const indexValuesLeaving =
  (left?: (typeof SEARCHED_COLUMNS)[number]): IndexValues =>
  (row) =>
    `${row}.seq, ${SEARCHED_COLUMNS.map((column) => (column === left ? 'NULL' : `${row}.${column}`)).join(', ')}, ${facetsOf(`${row}.`)}`;

/** The index's values as versions 2 to 7 wrote them: the call id's words too. */
const indexValues = indexValuesLeaving();

/** Since version 8: the call id's column left empty (see version 8). */
const indexValuesWithoutId = indexValuesLeaving('call_id');

/**
 * The search indexes: every call in `calls_fts`, and failed calls once more in `calls_fts_error`. A
 * search for failed calls is the common filtered one, and failures are a small share of the calls: in
 * their own index a phrase meets a twentieth of the candidate rows, where in the whole one it walks every
 * call holding its words only to find that none failed. Costs a second index write for failed calls only.
 */
export const SEARCH_INDEXES = {
  all: { table: 'calls_fts', rows: 'TRUE' },
  error: { table: 'calls_fts_error', rows: "c.status = 'error'" },
} as const;

/**
 * Indexes the calls from sequence `from` on, and below `below` when given (a `?` parameter, or a literal),
 * with `values`: the writer's one statement per chunk, and a backfill, range by range.
 */
const indexCallsWith =
  (values: IndexValues) =>
  (index: keyof typeof SEARCH_INDEXES, from: string, below?: string): string =>
    `INSERT INTO ${SEARCH_INDEXES[index].table}(rowid, ${INDEX_COLUMNS}) SELECT ${values('c')} FROM calls c WHERE c.seq >= ${from}${below === undefined ? '' : ` AND c.seq < ${below}`} AND ${SEARCH_INDEXES[index].rows};`;

/** Indexes calls as the current version does (see `indexCallsWith`). */
export const indexCallsFrom = indexCallsWith(indexValuesWithoutId);

const indexTable = ({ table }: { table: string }) => `CREATE VIRTUAL TABLE ${table} USING fts5(${INDEX_COLUMNS}, content='', contentless_delete=1);`;

/**
 * Version 2: the indexes also carry the filters (status, tool, agent), so a search with filters is one
 * MATCH that intersects posting lists, instead of a walk over every text match that the filters then
 * discard; failed calls get an index of their own (see SEARCH_INDEXES). And the writer indexes each batch
 * with one INSERT … SELECT in its transaction instead of a trigger per row, which costs FTS5 about twice
 * as much per call. Deletes and updates stay with triggers, so retention, and any other change to a row,
 * keep the indexes in step whoever makes them.
 */
const FILTERED_INDEX = `
DROP TRIGGER calls_fts_insert;
DROP TRIGGER calls_fts_delete;
DROP TRIGGER calls_fts_update;
DROP TABLE calls_fts;
${indexTable(SEARCH_INDEXES.all)}
${indexTable(SEARCH_INDEXES.error)}
CREATE TRIGGER calls_fts_delete AFTER DELETE ON calls BEGIN
  DELETE FROM calls_fts WHERE rowid = old.seq;
END;
CREATE TRIGGER calls_fts_error_delete AFTER DELETE ON calls WHEN old.status = 'error' BEGIN
  DELETE FROM calls_fts_error WHERE rowid = old.seq;
END;
CREATE TRIGGER calls_fts_update AFTER UPDATE ON calls BEGIN
  DELETE FROM calls_fts WHERE rowid = old.seq;
  INSERT INTO calls_fts(rowid, ${INDEX_COLUMNS}) VALUES (${indexValues('new')});
END;
CREATE TRIGGER calls_fts_error_update_old AFTER UPDATE ON calls WHEN old.status = 'error' BEGIN
  DELETE FROM calls_fts_error WHERE rowid = old.seq;
END;
CREATE TRIGGER calls_fts_error_update_new AFTER UPDATE ON calls WHEN new.status = 'error' BEGIN
  INSERT INTO calls_fts_error(rowid, ${INDEX_COLUMNS}) VALUES (${indexValues('new')});
END;
`;
const indexCallsV2 = indexCallsWith(indexValues);
const FILTERED_INDEX_BACKFILL = ({ from, below }: SeqRange): string => indexCallsV2('all', String(from), String(below)) + indexCallsV2('error', String(from), String(below));

/** Calls with sequence numbers from `from` up to, not including, `below`. */
export interface SeqRange {
  from: number;
  below: number;
}

/** FTS5 merges this many segments of a level into one of the next (its default is 4; see version 6). */
const FTS_AUTOMERGE = 16;
/**
 * The share of a segment's calls, in percent, that must be deleted before FTS5 rewrites the segment
 * without them (its default is 10): version 6's setting, raised by version 7 to FTS_DELETEMERGE_WHOLE.
 */
const FTS_DELETEMERGE = 50;
/** Version 7's `deletemerge`: a segment is rewritten only once all its calls are deleted, which drops it. */
const FTS_DELETEMERGE_WHOLE = 100;

/** Calls per block of the time map: a block's seqs are `block << TIME_BLOCK_BITS` up to the next block's first. */
export const TIME_BLOCK_BITS = 8;

/** Spans only widen: a block already in the map keeps every start time it covered. */
const WIDEN_SPAN = 'ON CONFLICT(block) DO UPDATE SET first_started = MIN(first_started, excluded.first_started), last_started = MAX(last_started, excluded.last_started)';

/** Maps the start times of the calls from sequence `from` on (a `?` parameter, or a literal): the writer's statement per batch, and the backfill. */
const mapCallsFrom = (from: string): string =>
  `INSERT INTO calls_time_blocks(block, first_started, last_started) SELECT seq >> ${TIME_BLOCK_BITS}, MIN(started_at), MAX(started_at) FROM calls WHERE seq >= ${from} GROUP BY seq >> ${TIME_BLOCK_BITS} ${WIDEN_SPAN};`;

/**
 * The statement the writer runs once per batch, after its inserts, with the batch's first sequence: the
 * time map, a few rows' worth of work for the whole batch where a trigger per row costs ten times as
 * much (8 µs a call).
 */
export const timeMapStatement = (from: string): string => mapCallsFrom(from);

/**
 * The statements that index for search every call from sequence `from` on: the writer's, once per chunk of
 * calls (see version 6), where a trigger per row costs FTS5 twice as much as one statement per batch, and
 * a statement per batch of a few hundred calls twice as much again as one per few thousand.
 */
export const searchIndexStatements = (from: string): string[] => [indexCallsFrom('all', from), indexCallsFrom('error', from)];

/**
 * Version 3, for the history's time windows and prefix searches.
 *
 * The time map: for each block of 256 consecutive seqs, the earliest and latest `started_at` among its
 * calls. Pages are ordered by seq (the order calls finish in), windows are on `started_at`, and the two
 * orders disagree (a long call is recorded late; the clock can step back), so no seq bound follows from a
 * time bound. The map holds only what was recorded: a block whose span does not meet the window holds no
 * call in it, whatever the clocks did, and a page walks only the blocks that meet it, newest first. Spans
 * only ever widen (inserts and updates), so a stale span is too wide, never wrong; the blocks wholly below
 * the oldest call are dropped once retention has deleted past them. One small upsert per recorded call.
 *
 * `calls_fts_terms`: the words of the full-text index in order, which a prefix search expands into the
 * words it stands for (see search.ts). Read only; nothing to keep in step.
 *
 * And one update trigger for `calls_fts_error` in place of version 2's two: SQLite fires the later-made
 * trigger first, so an updated failed call was indexed anew and then deleted, and left the index.
 *
 * The backfill is part of the step's SQL, not its `backfill`: the runner runs only the last pending
 * backfill, which here must not replace version 2's re-indexing when an older trail is upgraded.
 */
const TIME_MAP_AND_TERMS = `
CREATE TABLE calls_time_blocks (block INTEGER PRIMARY KEY, first_started INTEGER NOT NULL, last_started INTEGER NOT NULL);
${mapCallsFrom('0')}
CREATE TRIGGER calls_time_blocks_update AFTER UPDATE OF seq, started_at ON calls BEGIN
  INSERT INTO calls_time_blocks(block, first_started, last_started) VALUES (new.seq >> ${TIME_BLOCK_BITS}, new.started_at, new.started_at) ${WIDEN_SPAN};
END;
CREATE TRIGGER calls_time_blocks_retire AFTER DELETE ON calls WHEN old.seq % ${2 ** TIME_BLOCK_BITS} = ${2 ** TIME_BLOCK_BITS - 1} BEGIN
  DELETE FROM calls_time_blocks WHERE block < (SELECT MIN(seq) FROM calls) >> ${TIME_BLOCK_BITS};
END;
CREATE VIRTUAL TABLE calls_fts_terms USING fts5vocab(calls_fts, instance);
DROP TRIGGER calls_fts_error_update_old;
DROP TRIGGER calls_fts_error_update_new;
CREATE TRIGGER calls_fts_error_update AFTER UPDATE ON calls BEGIN
  DELETE FROM calls_fts_error WHERE rowid = old.seq AND old.status = 'error';
  INSERT INTO calls_fts_error(rowid, ${INDEX_COLUMNS}) SELECT ${indexValues('new')} WHERE new.status = 'error';
END;
`;

/**
 * Version 4: the filters' own b-tree indexes on `calls` (tool, agent, status, each then seq) go. Every
 * call updated them at three places in the middle of their trees, where SQLite splits pages evenly
 * rather than appending: a third of the writer's cost per call. The search indexes already hold the same
 * filters as facet tokens (version 2), which a page with filters and no text now matches too; within a
 * small seq range a walk over the range's rows is cheaper still. Nothing to backfill.
 */
const FILTERS_IN_SEARCH_INDEX = `
DROP INDEX IF EXISTS calls_tool;
DROP INDEX IF EXISTS calls_agent;
DROP INDEX IF EXISTS calls_status;
`;

/**
 * Version 5: the W3C trace context (`traceparent`) the agent sent with the call, so one request can be
 * followed from the trail into the agent's and the editor's traces. Null for calls recorded before it and
 * for calls that carried none. Not searched: it is an identifier to look up, not words.
 */
const TRACE_CONTEXT = `
ALTER TABLE calls ADD COLUMN traceparent TEXT;
`;

/** The update triggers of a chunked index (version 6): an updated call is indexed anew only once its chunk was. */
const chunkedUpdateTriggers = (values: IndexValues): string => `DROP TRIGGER calls_fts_update;
CREATE TRIGGER calls_fts_update AFTER UPDATE ON calls BEGIN
  DELETE FROM calls_fts WHERE rowid = old.seq;
  INSERT INTO calls_fts(rowid, ${INDEX_COLUMNS}) SELECT ${values('new')} WHERE new.seq < (SELECT below FROM calls_fts_progress);
END;
DROP TRIGGER calls_fts_error_update;
CREATE TRIGGER calls_fts_error_update AFTER UPDATE ON calls BEGIN
  DELETE FROM calls_fts_error WHERE rowid = old.seq AND old.status = 'error';
  INSERT INTO calls_fts_error(rowid, ${INDEX_COLUMNS}) SELECT ${values('new')} WHERE new.status = 'error' AND new.seq < (SELECT below FROM calls_fts_progress);
END;`;

/**
 * Version 6: the search indexes are filled in chunks of thousands of calls rather than with every batch,
 * and merge their segments less eagerly. FTS5 writes a new segment for every statement that indexes rows,
 * with an entry for each distinct word in it: a batch of a few hundred calls holds nearly every common word
 * of the trail once more, and with `automerge` at its default of 4 every call's entries were rewritten
 * about six times on the way to a million calls. Indexing 8,192 calls at once with `automerge` at 16 cuts
 * FTS5's cost per call by about half (measured in bench:audit's parts). And retention, which deletes the
 * oldest calls: with `deletemerge` at its default of 10, FTS5 rewrote a segment each time another tenth
 * of its calls went, so a segment emptied from its oldest end was rewritten some twenty times (in the
 * steady state of a 300,000-call trail, recording and retiring a call cost 114 µs, 49 at 50): at 50 a
 * segment is rewritten once half its calls are gone, and holds deleted calls' entries until then (the
 * index was at most 1.9 times its compact size there).
 *
 * `calls_fts_progress.below`: every call with a smaller seq is in the search indexes, none from it on. The
 * writer raises it as it indexes; a history search first has the writer index what is still below the
 * newest call (`AuditStore`), so a search finds every call recorded before it. An update to a call not yet
 * indexed leaves the indexes alone: the chunk indexes the row as it is then. A call's seq is the largest one
 * in the table plus one, so after the newest calls are deleted a new call may take a seq below `below`: the
 * writer lowers `below` to the first seq of every batch that does.
 */
const CHUNKED_SEARCH_INDEX = `
CREATE TABLE calls_fts_progress (id INTEGER PRIMARY KEY CHECK (id = 0), below INTEGER NOT NULL);
INSERT INTO calls_fts_progress (id, below) SELECT 0, COALESCE(MAX(seq), 0) + 1 FROM calls;
${chunkedUpdateTriggers(indexValues)}
${Object.values(SEARCH_INDEXES)
  .map(({ table }) => `INSERT INTO ${table}(${table}, rank) VALUES ('automerge', ${FTS_AUTOMERGE}); INSERT INTO ${table}(${table}, rank) VALUES ('deletemerge', ${FTS_DELETEMERGE});`)
  .join('\n')}
`;

/**
 * Version 7: FTS5 no longer rewrites a segment of the search indexes as its calls are deleted, and drops
 * it whole once the last one is. Retention deletes the oldest calls, so a segment empties from its oldest
 * end: at version 6's `deletemerge` of 50 the entries left in it were rewritten once more on the way, about
 * half of what retiring a call cost (13 µs a call in bench:audit's retention part, 7 without). The price is
 * the entries of deleted calls that the one segment holding the oldest call keeps until it goes: with
 * `automerge` at 16 a segment holds 8,192 calls, or 131,072 once merged (two million only in trails
 * longer than that), and in the steady state of a 100,000-call trail the indexes were a quarter larger.
 */
const WHOLE_SEGMENT_DELETES = Object.values(SEARCH_INDEXES)
  .map(({ table }) => `INSERT INTO ${table}(${table}, rank) VALUES ('deletemerge', ${FTS_DELETEMERGE_WHOLE});`)
  .join('\n');

/**
 * Version 8: calls are indexed without their ids. Every id is unique, so each call brought the index words
 * of its own (an id's last two groups are random): a dictionary entry and a posting list apiece, written
 * again at every merge, about as much of FTS5's work per call as all the other words together (8.8 µs a
 * call indexed with them, 4.7 without, over 100,000 calls shaped as bench:audit's). A search finds a call
 * by its id through `calls_call_id` instead (contracts/call-id-search.ts, queries.ts). The calls indexed
 * before keep their ids' words; nothing to backfill. Only the update triggers change: the writer's
 * statements are made as the current version says.
 */
const CALL_IDS_OUT_OF_SEARCH_INDEX = chunkedUpdateTriggers(indexValuesWithoutId);

interface Migration {
  sql: string;
  /**
   * Indexes the calls already recorded; skipped when a later pending step builds the index anew. As a
   * function, the statement for one range of calls: the runner goes range by range inside the migration's
   * transaction, so a long backfill reports progress and a stopped writer thread stops between ranges.
   */
  backfill?: string | ((range: SeqRange) => string);
}

/** Migration n takes a database from version n to n + 1. Append only: a released step never changes. */
const MIGRATIONS: readonly Migration[] = [
  { sql: SEARCH_INDEX, backfill: SEARCH_INDEX_BACKFILL },
  { sql: FILTERED_INDEX, backfill: FILTERED_INDEX_BACKFILL },
  { sql: TIME_MAP_AND_TERMS },
  { sql: FILTERS_IN_SEARCH_INDEX },
  { sql: TRACE_CONTEXT },
  { sql: CHUNKED_SEARCH_INDEX },
  { sql: WHOLE_SEGMENT_DELETES },
  { sql: CALL_IDS_OUT_OF_SEARCH_INDEX },
];

export const SCHEMA_VERSION = MIGRATIONS.length;

export interface MigrationReport {
  from: number;
  to: number;
  /** Calls already recorded when the database was migrated: what the search index's backfill covered. */
  calls: number;
  ms: number;
}

/** The database's schema version; throws, changing nothing, when a newer Junction wrote it. */
export function assertSupported(db: Database.Database): number {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > SCHEMA_VERSION) {
    throw Object.assign(new Error(`its schema version ${version} is newer than this Junction's (${SCHEMA_VERSION}); use a newer Junction or move the file aside`), { code: 'SCHEMA_NEWER' });
  }
  return version;
}

/** What an upgrade is about to do, told before its transaction starts (the backfill may take a while). */
export type UpgradeStart = Omit<MigrationReport, 'ms'>;

/** Hears how an upgrade of a database that already existed goes: before its transaction, and after each backfill range. */
export interface UpgradeListener {
  starting?(upgrade: UpgradeStart): void;
  /** The share of the backfill done, from 0 to 1. */
  progress?(done: number): void;
}

/**
 * Calls one backfill statement covers: about a third of a second of indexing on this machine, so stopping
 * the writer thread (Junction closing mid-upgrade) waits no longer than that for SQLite to return.
 */
const BACKFILL_RANGE = 20_000;

function backfill(db: Database.Database, step: NonNullable<Migration['backfill']>, progress?: (done: number) => void): void {
  if (typeof step === 'string') {
    db.exec(step);
    return;
  }
  const { first, last } = db.prepare('SELECT MIN(seq) AS first, MAX(seq) AS last FROM calls').get() as { first: number | null; last: number | null };
  if (first === null || last === null) return;
  for (let from = first; from <= last; from += BACKFILL_RANGE) {
    const below = Math.min(from + BACKFILL_RANGE, last + 1);
    db.exec(step({ from, below }));
    progress?.((below - first) / (last + 1 - first));
  }
}

/**
 * Brings a database to the current schema (or to the version `to`, which tests use to write the files an
 * older Junction wrote); undefined when it already was. Throws for a newer schema. `listener` hears how
 * an upgrade goes (see UpgradeListener).
 */
export function migrate(db: Database.Database, to = SCHEMA_VERSION, listener: UpgradeListener = {}): MigrationReport | undefined {
  const from = assertSupported(db);
  if (from >= to) return undefined;
  // The tables as version 0 made them, for a new file or one from before versions: a later step may drop
  // what this creates, so a current file does not run it again.
  db.exec(BASE);
  const started = performance.now();
  const { n } = db.prepare('SELECT COUNT(*) AS n FROM calls').get() as { n: number };
  listener.starting?.({ from, to, calls: n });
  db.transaction(() => {
    const steps = MIGRATIONS.slice(from, to);
    const lastBackfill = steps.findLastIndex((step) => step.backfill !== undefined);
    steps.forEach((step, i) => {
      db.exec(step.sql);
      if (i === lastBackfill) backfill(db, step.backfill!, listener.progress);
    });
    db.pragma(`user_version = ${to}`);
  })();
  return { from, to, calls: n, ms: performance.now() - started };
}
