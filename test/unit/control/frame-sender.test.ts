import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as tick } from 'node:timers/promises';
import { FrameSender, type FrameSink } from '../../../src-main/control/frame-sender.js';
import type { CallView, ControlEvent, ControlFrame, ControlWireFrame } from '../../../src-main/contracts/index.js';
import type { SnapshotFrame } from '../../../src-main/control/hub.js';
import { controlSnapshot } from '../../support/control-snapshot.js';
import { SNAPSHOT_FIRST_CALLS } from '../../../src-main/control/snapshot-parts.js';

/** A sink whose writes complete only when the test says so, like a socket whose peer stopped reading. */
function stalledSink(): FrameSink & { written: string[]; complete(): void } {
  const done: Array<() => void> = [];
  const written: string[] = [];
  return {
    written,
    write(text, cb) {
      written.push(text);
      done.push(cb);
    },
    complete() {
      for (let cb = done.shift(); cb; cb = done.shift()) cb();
    },
  };
}

/** A sink that completes every write at once, like a socket that keeps up. */
function openSink(): FrameSink & { written: string[] } {
  const written: string[] = [];
  return {
    written,
    write(text, cb) {
      written.push(text);
      queueMicrotask(cb);
    },
  };
}

const eventOf = (seq: number): ControlEvent => ({ type: 'plugin.disconnected', connectionId: `c${seq}` });
const event = (seq: number): ControlFrame => ({ type: 'event', seq, event: eventOf(seq) });

function snapshotAt(seq: number, calls: CallView[] = []): SnapshotFrame {
  return { type: 'snapshot', seq, snapshot: controlSnapshot({ calls }) };
}

const callsUpTo = (count: number): CallView[] =>
  Array.from({ length: count }, (_, i) => ({ callId: `c${i}`, agent: 'a', transport: 'mcp-http', tool: 't', target: 'host', status: 'ok', startedAt: i, requestBytes: 1 }));

const messages = (written: string[]): ControlWireFrame[] => written.map((t) => JSON.parse(t) as ControlWireFrame);

/** The sequence each message stands for, batches expanded: `s<seq>` for a snapshot, the number for an event. */
function sequence(written: string[]): Array<number | string> {
  return messages(written).flatMap((m): Array<number | string> => {
    if (m.type === 'snapshot') return [`s${m.seq}`];
    if (m.type === 'event') return [m.seq];
    if (m.type === 'snapshotCalls') return [`p${m.seq}`];
    return m.events.map((e, i) => {
      assert.deepEqual(e, eventOf(m.fromSeq + i), 'a batch carries each event at its own sequence');
      return m.fromSeq + i;
    });
  });
}

async function settle(until: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !until(); i++) await new Promise((r) => setTimeout(r, 2));
  assert.ok(until(), 'the sender settled');
}

describe('frame sender', () => {
  test('events queued in one turn leave as one batch message after the snapshot, in order', async () => {
    const sink = openSink();
    const sender = new FrameSender(sink, () => assert.fail('no resync expected'));
    sender.push(snapshotAt(0));
    for (let i = 1; i <= 5; i++) sender.push(event(i));
    assert.equal(sink.written.length, 0, 'nothing is written synchronously, so a burst can join one message');
    await tick();
    const [snap, batch, ...rest] = messages(sink.written);
    assert.equal(snap?.type, 'snapshot');
    assert.deepEqual(batch?.type === 'events' && { fromSeq: batch.fromSeq, count: batch.events.length }, { fromSeq: 1, count: 5 });
    assert.equal(rest.length, 0);
    assert.deepEqual(sequence(sink.written), ['s0', 1, 2, 3, 4, 5]);
    assert.deepEqual(sender.stats, { sent: 2, eventsSent: 5, resyncs: 0, maxQueued: 6 });
  });

  test('a lone event keeps the single-event form', async () => {
    const sink = openSink();
    const sender = new FrameSender(sink, () => assert.fail('no resync expected'));
    sender.push(event(7));
    await tick();
    assert.deepEqual(messages(sink.written), [event(7)]);
  });

  test('the character cap splits a burst into several messages with no gap and no duplicate', async () => {
    const sink = openSink();
    const one = JSON.stringify(eventOf(100)).length;
    const sender = new FrameSender(sink, () => assert.fail('no resync expected'), { maxBatchChars: one * 10, maxInFlight: 3 });
    for (let i = 1; i <= 95; i++) sender.push(event(i));
    await settle(() => sender.stats.eventsSent === 95);
    assert.deepEqual(sequence(sink.written), Array.from({ length: 95 }, (_, i) => i + 1));
    assert.ok(sink.written.length >= 10, `95 events in ${sink.written.length} messages respect the cap`);
    for (const m of messages(sink.written)) if (m.type === 'events') assert.ok(m.events.length <= 10);
  });

  test('events published between flushes join the next message', async () => {
    const sink = openSink();
    const sender = new FrameSender(sink, () => assert.fail('no resync expected'), { flushIntervalMs: 200 });
    sender.push(event(1));
    await settle(() => sink.written.length === 1);
    sender.push(event(2));
    await tick();
    sender.push(event(3));
    await settle(() => sender.stats.eventsSent === 3);
    assert.deepEqual(sequence(sink.written), [1, 2, 3]);
    assert.equal(sink.written.length, 2);
  });

  test('sends in order while the client keeps up', async () => {
    const sink = stalledSink();
    const sender = new FrameSender(sink, () => assert.fail('no resync expected'), { maxInFlight: 2, maxQueuedFrames: 10, flushIntervalMs: 0 });
    for (let i = 1; i <= 6; i++) {
      sender.push(event(i));
      await tick();
      sink.complete();
    }
    assert.deepEqual(sequence(sink.written), [1, 2, 3, 4, 5, 6]);
    assert.equal(sender.stats.resyncs, 0);
  });

  test('a client that stops reading gets one fresh snapshot instead of an unbounded queue, then deltas again', async () => {
    const sink = stalledSink();
    let seq = 0;
    const sender = new FrameSender(sink, () => snapshotAt(seq), { maxInFlight: 1, maxQueuedFrames: 5, flushIntervalMs: 0 });
    sender.push(event(1));
    await tick();
    assert.equal(sink.written.length, 1);
    for (seq = 2; seq <= 100; seq++) sender.push(event(seq));
    seq = 100;
    assert.ok(sender.stats.maxQueued <= 5);
    assert.ok(sender.stats.resyncs >= 1);
    await tick();
    assert.equal(sink.written.length, 1, 'nothing more while the client has not drained');
    sink.complete();
    await settle(() => sink.written.length === 2);
    assert.deepEqual(sequence(sink.written), [1, 's100']);
    sink.complete();
    sender.push(event(101));
    sender.push(event(102));
    await settle(() => sink.written.length === 3);
    assert.deepEqual(sequence(sink.written), [1, 's100', 101, 102]);
  });

  test('a long call log leaves as the snapshot with its newest calls, then older parts newest first, before any event', async () => {
    const sink = openSink();
    const calls = callsUpTo(2500);
    const sender = new FrameSender(sink, () => assert.fail('no resync expected'), { snapshotCallsPerMessage: 1000, snapshotFirstCalls: 1000 });
    sender.push(snapshotAt(4, calls));
    sender.push(event(5));
    await settle(() => sender.stats.eventsSent === 1);
    assert.deepEqual(sequence(sink.written), ['s4', 'p4', 'p4', 5]);
    const [head, ...parts] = messages(sink.written);
    assert.ok(head?.type === 'snapshot');
    assert.deepEqual(head.snapshot.calls.map((c) => c.callId), calls.slice(1500).map((c) => c.callId));
    assert.deepEqual(parts.flatMap((m) => (m.type === 'snapshotCalls' ? [m.calls.length] : [])), [1000, 500]);
    const reassembled = parts.reduceRight<CallView[]>((all, m) => (m.type === 'snapshotCalls' ? all.concat(m.calls) : all), []).concat(head.snapshot.calls);
    assert.deepEqual(reassembled, calls, 'the parts put back together are the log, oldest first');
    assert.equal(sender.stats.sent, 4);
  });

  test('by default the snapshot message carries a few screens of the newest calls, so the page draws them before parsing the rest', async () => {
    const sink = openSink();
    const sender = new FrameSender(sink, () => assert.fail('no resync expected'));
    sender.push(snapshotAt(1, callsUpTo(10_000)));
    await settle(() => sender.stats.sent === 11);
    const [head, ...parts] = messages(sink.written);
    assert.ok(head?.type === 'snapshot');
    assert.equal(head.snapshot.calls.length, SNAPSHOT_FIRST_CALLS);
    assert.deepEqual(parts.map((m) => (m.type === 'snapshotCalls' ? m.calls.length : 0)), [...Array(9).fill(1000), 10_000 - SNAPSHOT_FIRST_CALLS - 9000]);
  });

  test('a resync snapshot is split like the first one', async () => {
    const sink = stalledSink();
    const sender = new FrameSender(sink, () => snapshotAt(50, callsUpTo(3)), { maxInFlight: 1, maxQueuedFrames: 2, snapshotCallsPerMessage: 2, snapshotFirstCalls: 2 });
    sender.push(event(1));
    await tick();
    for (let seq = 2; seq <= 5; seq++) sender.push(event(seq));
    assert.equal(sender.stats.resyncs, 1);
    for (let i = 0; i < 2; i++) {
      sink.complete();
      await settle(() => sink.written.length === i + 2);
    }
    assert.deepEqual(sequence(sink.written), [1, 's50', 'p50']);
  });

  test('nothing is written after close, including a flush already scheduled', async () => {
    const sink = stalledSink();
    const sender = new FrameSender(sink, () => assert.fail('no resync expected'), { maxInFlight: 1, maxQueuedFrames: 5 });
    sender.push(event(1));
    await tick();
    sender.push(event(2));
    sink.complete();
    sender.close();
    sender.push(event(3));
    await new Promise((r) => setTimeout(r, 30));
    assert.deepEqual(sequence(sink.written), [1]);
  });
});
