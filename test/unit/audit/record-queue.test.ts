/** The store's queue keeps records oldest first whatever the chunks they sit in: taken, put back, trimmed. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RecordQueue } from '../../../src-main/audit/record-queue.js';
import type { StoredRecord } from '../../../src-main/audit/rows.js';

const record = (n: number): StoredRecord => ({ type: 'call', row: `["call-${n}"]` });
const names = (records: readonly StoredRecord[]) => records.map((r) => (r.type === 'call' ? r.row : 'event'));

test('records come out oldest first across chunks, batches of any size, and records put back in front', () => {
  const queue = new RecordQueue(3);
  for (let n = 1; n <= 8; n++) queue.push(record(n));
  assert.equal(queue.length, 8);
  assert.deepEqual(names(queue.take(2)), ['["call-1"]', '["call-2"]'], 'part of a chunk');
  assert.deepEqual(names(queue.take(4)), ['["call-3"]', '["call-4"]', '["call-5"]', '["call-6"]'], 'across chunks');
  const batch = queue.take(1);
  queue.putBack(batch);
  queue.push(record(9));
  assert.equal(queue.length, 3);
  assert.deepEqual(names(queue.toArray()), ['["call-7"]', '["call-8"]', '["call-9"]'], 'what was put back is in front again');
  assert.deepEqual(names(queue.take(Number.POSITIVE_INFINITY)), ['["call-7"]', '["call-8"]', '["call-9"]']);
  assert.equal(queue.length, 0);
  assert.deepEqual(queue.take(5), []);
});
