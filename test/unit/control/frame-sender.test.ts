import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { FrameSender, type FrameSink } from '../../../src-main/control/frame-sender.js';
import type { ControlFrame } from '../../../src-main/control/index.js';
import type { SnapshotFrame } from '../../../src-main/control/hub.js';

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

const event = (seq: number): ControlFrame => ({ type: 'event', seq, event: { type: 'plugin.disconnected', connectionId: `c${seq}` } });

describe('frame sender', () => {
  test('sends in order while the client keeps up', () => {
    const sink = stalledSink();
    const sender = new FrameSender(sink, () => assert.fail('no resync expected'), { maxInFlight: 2, maxQueuedFrames: 10 });
    for (let i = 1; i <= 6; i++) {
      sender.push(event(i));
      sink.complete();
    }
    assert.deepEqual(sink.written.map((t) => (JSON.parse(t) as { seq: number }).seq), [1, 2, 3, 4, 5, 6]);
    assert.equal(sender.stats.resyncs, 0);
  });

  test('a client that stops reading gets one fresh snapshot instead of an unbounded queue', () => {
    const sink = stalledSink();
    let seq = 0;
    const snapshot = (): SnapshotFrame => ({ type: 'snapshot', seq, snapshot: { version: 'x', plugins: [], calls: [], workspaces: [], approvals: [], recovery: { stateDir: '', healthy: true, entries: [] }, bridge: { running: false, host: '', port: 0, hubUrl: '', mcpUrl: '', apiUrl: '', transports: [], snippets: [] } } });
    const sender = new FrameSender(sink, snapshot, { maxInFlight: 2, maxQueuedFrames: 5 });
    for (seq = 1; seq <= 100; seq++) sender.push(event(seq));
    seq = 100;
    assert.ok(sender.stats.maxQueued <= 5);
    assert.equal(sink.written.length, 2);
    sink.complete();
    sink.complete();
    const frames = sink.written.map((t) => JSON.parse(t) as ControlFrame);
    const last = frames.at(-1);
    assert.equal(last?.type, 'snapshot');
    assert.equal(last?.seq, 100);
    assert.ok(sender.stats.resyncs >= 1);
    sender.push(event(101));
    assert.equal((JSON.parse(sink.written.at(-1) ?? '{}') as ControlFrame).seq, 101);
  });

  test('nothing is written after close', () => {
    const sink = stalledSink();
    const sender = new FrameSender(sink, () => assert.fail('no resync expected'), { maxInFlight: 1, maxQueuedFrames: 5 });
    sender.push(event(1));
    sender.push(event(2));
    sender.close();
    sink.complete();
    assert.equal(sink.written.length, 1);
  });
});
