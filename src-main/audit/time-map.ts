/**
 * A history query's time window as the ranges of seqs that can hold its calls, read from the time map
 * (schema.ts, version 3): the blocks of seqs whose span of start times meets the window, adjacent blocks
 * joined, newest first. Exact for any clock: a block outside the window holds no call inside it.
 */
import type Database from 'better-sqlite3';
import type { CallQuery } from './records.js';
import { TIME_BLOCK_BITS } from './schema.js';

/** Inclusive bounds. */
export interface SeqRange {
  from: number;
  to: number;
}

const BLOCK = 2 ** TIME_BLOCK_BITS;
/**
 * Adjacent blocks are joined into a range of at most this many seqs at first, twice as many for each
 * range after: a wide window yields its newest range without reading every block first, and a page that
 * must go deep (a rare filter) takes a few statements, not one per 64 blocks.
 */
const FIRST_RANGE_MAX = 64 * BLOCK;

/**
 * Below the `before` cursor and, with a time window, within the blocks that meet it; newest first. Read
 * lazily: a page filled from the newest ranges reads no further blocks.
 */
export function* seqRanges(db: Database.Database, query: Pick<CallQuery, 'since' | 'until' | 'before'>): Generator<SeqRange> {
  const top = query.before === undefined ? Number.MAX_SAFE_INTEGER : Math.ceil(query.before) - 1;
  if (query.since === undefined && query.until === undefined) {
    yield { from: 0, to: top };
    return;
  }
  const where = ['block <= @topBlock'];
  const params: Record<string, number> = { topBlock: Math.floor(top / BLOCK) };
  if (query.since !== undefined) {
    where.push('last_started >= @since');
    params.since = query.since;
  }
  if (query.until !== undefined) {
    where.push('first_started < @until');
    params.until = query.until;
  }
  const blocks = db.prepare(`SELECT block FROM calls_time_blocks WHERE ${where.join(' AND ')} ORDER BY block DESC`).pluck().iterate(params) as IterableIterator<number>;
  let range: SeqRange | undefined;
  let rangeMax = FIRST_RANGE_MAX;
  for (const block of blocks) {
    const from = block * BLOCK;
    if (range && range.from === from + BLOCK && range.to - from < rangeMax) {
      range.from = from;
      continue;
    }
    if (range) {
      yield range;
      rangeMax *= 2;
    }
    range = { from, to: Math.min(top, from + BLOCK - 1) };
  }
  if (range) yield range;
}
