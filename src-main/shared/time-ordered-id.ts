/**
 * Time-ordered unique ids in the UUID version 7 layout (RFC 9562): 48 bits of Unix milliseconds, a 12-bit
 * counter within the millisecond, then 62 random bits. Ids made later by one process sort after earlier
 * ones as text, so an index on them (the audit trail's call ids) grows at its end instead of taking every
 * insert at a random page, which costs a random id's index a page written per call.
 */
import { randomFillSync } from 'node:crypto';

const COUNTER_LIMIT = 0x1000;
/** Random bytes drawn at once: one system call per 128 ids rather than one per id. */
const POOL_IDS = 128;
const pool = Buffer.alloc(8 * POOL_IDS);
let poolAt = pool.length;

let lastMs = -1;
let counter = 0;

function randomEight(): Buffer {
  if (poolAt === pool.length) {
    randomFillSync(pool);
    poolAt = 0;
  }
  poolAt += 8;
  return pool.subarray(poolAt - 8, poolAt);
}

/**
 * A new id; `now` is the clock in Unix milliseconds. Monotonic within the process even when the clock steps
 * back or more than 4,096 ids are made in one millisecond: the millisecond field then runs ahead of the clock.
 */
export function timeOrderedId(now: number = Date.now()): string {
  const random = randomEight();
  if (now > lastMs) {
    lastMs = now;
    // A random start below half the counter's range, so ids of one millisecond do not all begin alike and the counter has room.
    counter = random.readUInt16BE(0) & 0x7ff;
  } else if (++counter === COUNTER_LIMIT) {
    lastMs++;
    counter = 0;
  }
  const ms = lastMs.toString(16).padStart(12, '0');
  // The variant bits 10 in the first random byte.
  random[0] = (random[0]! & 0x3f) | 0x80;
  const tail = random.toString('hex');
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${counter.toString(16).padStart(3, '0')}-${tail.slice(0, 4)}-${tail.slice(4)}`;
}
