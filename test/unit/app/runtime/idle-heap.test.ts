import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getHeapStatistics } from 'node:v8';
import { PerformanceObserver, constants, performance, type NodeGCPerformanceDetail } from 'node:perf_hooks';
import { runInNewContext } from 'node:vm';
import { IdleHeap, heldBytes } from '../../../../src-main/app/runtime/idle-heap.js';
import type { CallView } from '../../../../src-main/contracts/index.js';
import { eventually } from '../../../support/eventually.js';

const QUIET_MS = 20;
const LARGE = 1000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const call = { callId: 'c' } as CallView;
/** Every warning the process printed while this file ran: V8's collection must not add one. */
const warnings: string[] = [];
process.on('warning', (warning) => warnings.push(warning.message));

function finishCalls(heap: IdleHeap, count: number): void {
  for (let i = 0; i < count; i++) heap.observer.finished(call, undefined, { arguments: '{}' });
}

test('one collection once calls have stopped, none while they keep coming', async () => {
  let held = 0;
  const heap = new IdleHeap({ quietMs: QUIET_MS, minGrowthBytes: 100, settleMs: 60_000, largeCallBytes: LARGE, heldBytes: () => held, collect: () => (held = 10) });
  try {
    held = 1000;
    for (let i = 0; i < 8; i++) {
      finishCalls(heap, 3);
      await sleep(QUIET_MS / 2);
    }
    assert.equal(heap.collected, 0, 'calls kept arriving');
    await sleep(QUIET_MS * 4);
    assert.equal(heap.collected, 1);
    await sleep(QUIET_MS * 3);
    assert.equal(heap.collected, 1, 'no call since, so nothing more to give back');
  } finally {
    heap.close();
  }
});

test('other work (plugins connecting) starts the watch as a call does: one collection once it stops', async () => {
  let held = 0;
  const heap = new IdleHeap({ quietMs: QUIET_MS, minGrowthBytes: 100, settleMs: 60_000, largeCallBytes: LARGE, heldBytes: () => held, collect: () => (held = 10) });
  try {
    held = 1000;
    await sleep(QUIET_MS * 4);
    assert.equal(heap.collected, 0, 'nothing was done, so nothing is watched');
    heap.worked();
    await eventually(() => heap.collected === 1, 5000, 'the collection after the work');
    await sleep(QUIET_MS * 3);
    assert.equal(heap.collected, 1, 'no work since, so nothing more to give back');
  } finally {
    heap.close();
  }
});

test('no collection when the heap grew less than the threshold (a trickle of calls)', async () => {
  let held = 1000;
  const heap = new IdleHeap({ quietMs: QUIET_MS, minGrowthBytes: 100, settleMs: 60_000, largeCallBytes: LARGE, heldBytes: () => held, collect: () => assert.fail('collected') });
  try {
    held = 1050;
    finishCalls(heap, 1);
    await sleep(QUIET_MS * 4);
    assert.equal(heap.collected, 0);
  } finally {
    heap.close();
  }
});

test('after start: one collection once the first quiet period has passed, whatever the growth; calls during it postpone it', async () => {
  const heap = new IdleHeap({ quietMs: QUIET_MS, minGrowthBytes: 100, settleMs: 60_000, largeCallBytes: LARGE, heldBytes: () => 1000, collect: () => {} });
  try {
    heap.afterStart();
    finishCalls(heap, 1);
    await sleep(QUIET_MS * 1.5);
    assert.equal(heap.collected, 0, 'a call came in the first period');
    await sleep(QUIET_MS * 3);
    assert.equal(heap.collected, 1, 'collected with no heap growth at all');
    finishCalls(heap, 1);
    await sleep(QUIET_MS * 4);
    assert.equal(heap.collected, 1, 'later quiet periods need the growth again');
  } finally {
    heap.close();
  }
});

test("V8's own collection runs and frees garbage when none is supplied", async () => {
  const heap = new IdleHeap({ quietMs: QUIET_MS, minGrowthBytes: 0, settleMs: 60_000, largeCallBytes: LARGE });
  try {
    let garbage: unknown[] | undefined = Array.from({ length: 200_000 }, (_, i) => ({ i, text: `item ${i}` }));
    const withGarbage = process.memoryUsage().heapUsed;
    garbage = undefined;
    finishCalls(heap, 1);
    await sleep(QUIET_MS * 4);
    assert.equal(heap.collected, 1);
    assert.equal(garbage, undefined);
    const after = process.memoryUsage().heapUsed;
    assert.ok(after < withGarbage - 5 * 1024 * 1024, `heap used ${(withGarbage / 1048576).toFixed(1)} MB → ${(after / 1048576).toFixed(1)} MB`);
  } finally {
    heap.close();
  }
});

test('a large call is followed by one collection the next turn, shared by the large calls of that turn; smaller calls wait for the quiet period', async () => {
  let afterLarge = 0;
  const heap = new IdleHeap({ quietMs: 60_000, minGrowthBytes: 0, settleMs: 60_000, largeCallBytes: LARGE, collect: () => assert.fail('no quiet period passed'), collectAfterLarge: () => afterLarge++ });
  try {
    heap.observer.finished({ ...call, requestBytes: LARGE - 11, responseBytes: 10 }, undefined, { arguments: '{}' });
    await new Promise(setImmediate);
    assert.equal(afterLarge, 0, 'one byte short');
    heap.observer.finished({ ...call, requestBytes: LARGE }, undefined, { arguments: '{}' });
    heap.observer.finished({ ...call, requestBytes: 10, responseBytes: LARGE }, undefined, { arguments: '{}' });
    assert.equal(afterLarge, 0, 'not while the calls are being answered');
    await new Promise(setImmediate);
    assert.equal(afterLarge, 1);
    assert.equal(heap.collected, 1);
  } finally {
    heap.close();
  }
});

test("a large call's scavenge leaves the quiet period's growth measured from the last full collection", async () => {
  let held = 1000;
  let full = 0;
  const heap = new IdleHeap({ quietMs: QUIET_MS, minGrowthBytes: 100, settleMs: 60_000, largeCallBytes: LARGE, heldBytes: () => held, collect: () => full++, collectAfterLarge: () => {} });
  try {
    held = 1080;
    heap.observer.finished({ ...call, requestBytes: LARGE }, undefined, { arguments: '{}' });
    await new Promise(setImmediate);
    held = 1120;
    await sleep(QUIET_MS * 4);
    assert.equal(full, 1, 'grown 120 since the last full collection, though only 40 since the scavenge');
  } finally {
    heap.close();
  }
});

type GcEntry = PerformanceEntry & { detail: NodeGCPerformanceDetail };

test("after a large call, V8's scavenge frees the ArrayBuffers the call left", async () => {
  const minorCollections: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if ((entry as GcEntry).detail.kind === constants.NODE_PERFORMANCE_GC_MINOR) minorCollections.push(entry.startTime);
  });
  observer.observe({ entryTypes: ['gc'] });
  const heap = new IdleHeap({ quietMs: 60_000, minGrowthBytes: 0, settleMs: 60_000, largeCallBytes: LARGE, collect: () => assert.fail('no quiet period passed') });
  try {
    // A message's bytes as the bridge holds them: 16 MB outside the heap, held by an object in the young generation.
    let payload: Buffer | undefined = Buffer.alloc(16 * 1024 * 1024, 0x41);
    const withPayload = process.memoryUsage().arrayBuffers;
    assert.equal(payload.length, 16 * 1024 * 1024);
    payload = undefined;
    const before = performance.now();
    heap.observer.finished({ ...call, requestBytes: LARGE }, undefined, { arguments: '{}' });
    await new Promise(setImmediate);
    const after = performance.now();
    assert.equal(heap.collected, 1);
    // V8 frees a dead ArrayBuffer's memory on a background thread after the collection that found it dead.
    await eventually(() => process.memoryUsage().arrayBuffers < withPayload - 8 * 1024 * 1024, 10_000, 'the payload freed');
    // Node reports collections a turn or more after they ran.
    await eventually(() => minorCollections.some((at) => at >= before && at <= after), 10_000, 'a scavenge in the turn after the call reported');
    assert.equal(runInNewContext('typeof gc'), 'undefined', 'no later context sees gc');
  } finally {
    heap.close();
    observer.disconnect();
  }
});

test("a long ASCII string's text, which V8 keeps outside the heap, is growth the quiet period gives back", async () => {
  const source = Buffer.alloc(16 * 1024 * 1024, 0x41);
  const heap = new IdleHeap({ quietMs: QUIET_MS, minGrowthBytes: 0, settleMs: 60_000, largeCallBytes: Number.MAX_SAFE_INTEGER });
  try {
    const external = () => getHeapStatistics().external_memory;
    const bare = heldBytes();
    // Decoded as shared/json-bytes.ts decodes base64: an external string, in the old generation.
    let text: string | undefined = source.toString('ascii');
    assert.ok(heldBytes() - bare >= 12 * 1024 * 1024, 'its 16 MB count as growth');
    const withText = external();
    assert.equal(text.length, source.length);
    text = undefined;
    finishCalls(heap, 1);
    await sleep(QUIET_MS * 4);
    assert.equal(heap.collected, 1);
    // A scavenge would leave it: only the full collection the quiet period runs frees an old-generation string.
    assert.ok(external() < withText - 8 * 1024 * 1024, `external ${(withText / 1048576).toFixed(1)} MB → ${(external() / 1048576).toFixed(1)} MB`);
    assert.equal(source[0], 0x41);
  } finally {
    heap.close();
  }
});

test('after start: V8\'s full collection runs settleMs in and frees what start-up left, without a warning', async () => {
  // What start-up leaves: objects it built and then dropped.
  let leftovers: unknown[] | undefined = Array.from({ length: 200_000 }, (_, i) => ({ i, text: `item ${i}` }));
  const withLeftovers = process.memoryUsage().heapUsed;
  leftovers = undefined;
  const heap = new IdleHeap({ quietMs: 60_000, minGrowthBytes: 0, settleMs: QUIET_MS, largeCallBytes: LARGE });
  try {
    heap.afterStart();
    await eventually(() => heap.collected === 1, 5000, 'the collection after start');
    assert.equal(leftovers, undefined);
    const after = process.memoryUsage().heapUsed;
    assert.ok(after < withLeftovers - 5 * 1024 * 1024, `heap used ${(withLeftovers / 1048576).toFixed(1)} MB → ${(after / 1048576).toFixed(1)} MB`);
    await sleep(10);
    assert.deepEqual(warnings, [], 'this and the earlier collections printed nothing');
  } finally {
    heap.close();
  }
});
