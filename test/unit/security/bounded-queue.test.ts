import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { BoundedQueue, type DropPolicy } from '../../../src-main/security/index.js';

describe('BoundedQueue', () => {
  test('drop-oldest keeps the newest items and counts drops', () => {
    const queue = new BoundedQueue<number>(3, 'drop-oldest');
    for (let i = 1; i <= 5; i++) assert.equal(queue.push(i), true);
    assert.equal(queue.size, 3);
    assert.deepEqual([queue.shift(), queue.shift(), queue.shift(), queue.shift()], [3, 4, 5, undefined]);
    assert.deepEqual(queue.counters, { enqueued: 5, dequeued: 3, dropped: 2 });
  });

  test('drop-newest refuses new items when full', () => {
    const queue = new BoundedQueue<number>(2, 'drop-newest');
    assert.equal(queue.push(1), true);
    assert.equal(queue.push(2), true);
    assert.equal(queue.push(3), false);
    assert.deepEqual([queue.shift(), queue.shift()], [1, 2]);
    assert.equal(queue.dropped, 1);
  });

  test('clear discards everything and counts it as dropped', () => {
    const queue = new BoundedQueue<string>(4, 'drop-oldest');
    queue.push('a');
    queue.push('b');
    assert.equal(queue.clear(), 2);
    assert.equal(queue.size, 0);
    assert.equal(queue.shift(), undefined);
    assert.equal(queue.dropped, 2);
  });

  test('behaves like a capped array under any sequence of pushes and shifts', () => {
    const op = fc.oneof(fc.record({ push: fc.integer() }), fc.constant('shift' as const));
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 6 }), fc.constantFrom<DropPolicy>('drop-oldest', 'drop-newest'), fc.array(op, { maxLength: 60 }), (capacity, policy, ops) => {
        const queue = new BoundedQueue<number>(capacity, policy);
        const model: number[] = [];
        let dropped = 0;
        for (const o of ops) {
          if (o === 'shift') {
            assert.equal(queue.shift(), model.shift());
          } else if (model.length < capacity) {
            model.push(o.push);
            queue.push(o.push);
          } else {
            dropped++;
            if (policy === 'drop-oldest') {
              model.shift();
              model.push(o.push);
            }
            queue.push(o.push);
          }
          assert.equal(queue.size, model.length);
        }
        assert.equal(queue.dropped, dropped);
      }),
    );
  });
});
