import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ControlFrame } from '../../../src-main/contracts/index.js';
import { createWorld } from '../../integration/control/support/world.js';

function collect(frames: ControlFrame[]): (frame: ControlFrame) => void {
  return (frame) => frames.push(frame);
}

describe('control hub sequencing', () => {
  test('every event gets the next sequence number and the snapshot names the last one it includes', () => {
    const world = createWorld();
    assert.equal(world.hub.snapshotFrame().seq, 0);
    world.connectPlugin({ connectionId: 'c1' });
    world.startCall({ callId: 'k1' });
    const frame = world.hub.snapshotFrame();
    assert.equal(frame.seq, 2);
    assert.equal(world.hub.lastSeq, 2);
    assert.deepEqual(frame.snapshot.plugins.map((p) => p.connectionId), ['c1']);
    assert.deepEqual(frame.snapshot.calls.map((c) => c.callId), ['k1']);
  });

  test('a late joiner gets a snapshot, then exactly the events after it, in order', () => {
    const world = createWorld();
    world.connectPlugin({ connectionId: 'c1' });
    const early: ControlFrame[] = [];
    world.hub.attach(collect(early));
    world.startCall({ callId: 'k1' });
    const late: ControlFrame[] = [];
    world.hub.attach(collect(late));
    world.finishCall('k1');
    world.startCall({ callId: 'k2' });

    assert.deepEqual(early.map((f) => [f.type, f.seq]), [['snapshot', 1], ['event', 2], ['event', 3], ['event', 4]]);
    assert.deepEqual(late.map((f) => [f.type, f.seq]), [['snapshot', 2], ['event', 3], ['event', 4]]);
    const snapshot = late[0];
    assert.ok(snapshot?.type === 'snapshot');
    assert.deepEqual(snapshot.snapshot.calls.map((c) => [c.callId, c.status]), [['k1', 'running']]);
  });

  test('a listener that attaches while an event is being delivered neither misses nor repeats events', () => {
    const world = createWorld();
    const joined: ControlFrame[] = [];
    let attached = false;
    world.hub.subscribe(() => {
      if (attached) return;
      attached = true;
      world.hub.attach(collect(joined));
      world.startCall({ callId: 'nested' });
    });
    world.startCall({ callId: 'first' });
    world.startCall({ callId: 'third' });
    assert.deepEqual(joined.map((f) => [f.type, f.seq]), [['snapshot', 1], ['event', 2], ['event', 3]]);
    const order: number[] = [];
    world.hub.subscribeSequenced((e) => order.push(e.seq));
    world.startCall({ callId: 'fourth' });
    assert.deepEqual(order, [4]);
  });

  test('a throwing listener does not stop delivery to the others', () => {
    const world = createWorld();
    const seen: number[] = [];
    world.hub.subscribe(() => {
      throw new Error('broken client');
    });
    world.hub.subscribeSequenced((e) => seen.push(e.seq));
    world.startCall({ callId: 'a' });
    world.startCall({ callId: 'b' });
    assert.deepEqual(seen, [1, 2]);
  });

  test('unsubscribe stops delivery', () => {
    const world = createWorld();
    const frames: ControlFrame[] = [];
    const detach = world.hub.attach(collect(frames));
    world.startCall({ callId: 'a' });
    detach();
    world.startCall({ callId: 'b' });
    assert.equal(frames.length, 2);
  });
});

describe('control hub calls', () => {
  test('keeps the most recent calls only, with progress and final state', () => {
    const world = createWorld();
    const { hub } = world;
    for (let i = 0; i < 10_005; i++) world.startCall({ callId: `c${i}` });
    hub.publish({ type: 'call.progress', callId: 'c10004', progress: { progress: 3, total: 10 } });
    const calls = hub.snapshotFrame().snapshot.calls;
    assert.equal(calls.length, 10_000);
    assert.equal(calls[0]?.callId, 'c5');
    assert.deepEqual(calls.at(-1)?.progress, { progress: 3, total: 10 });
  });

  test('call details are kept, capped with a truncated flag, and unknown calls fail with a structured error', async () => {
    const world = createWorld();
    world.startCall({ callId: 'small' });
    world.finishCall('small', {}, { path: 'a.ts' }, { text: 'ok' });
    world.startCall({ callId: 'big' });
    world.finishCall('big', {}, { blob: 'x'.repeat(200_000) }, { ok: true });

    const small = await world.hub.callDetail({ callId: 'small' });
    assert.deepEqual(small.arguments, { path: 'a.ts' });
    assert.deepEqual(small.result, { text: 'ok' });
    assert.equal(small.truncated, false);

    const big = await world.hub.callDetail({ callId: 'big' });
    assert.equal(big.truncated, true);
    assert.equal(typeof big.arguments, 'string');
    assert.ok(Buffer.byteLength(String(big.arguments)) <= 64 * 1024 + 3);
    assert.deepEqual(big.result, { ok: true });

    const missing = await world.hub.execute('callDetail', { callId: 'nope' });
    assert.equal(missing.ok, false);
    assert.equal(!missing.ok && missing.error.code, 'ResourceNotFound');
  });
});

describe('control hub commands', () => {
  test('valid commands reach the injected handlers and return their value', async () => {
    const world = createWorld();
    world.requestApproval({ approvalId: 'a1' });
    const result = await world.hub.execute('approve', { approvalId: 'a1' });
    assert.ok(result.ok);
    assert.equal((result.value as { state: string }).state, 'approved');
    assert.deepEqual(world.commands, [{ command: 'approve', args: ['a1'] }]);
  });

  test('bad arguments and unknown commands fail with codes and never reach a handler', async () => {
    const world = createWorld();
    const cases: Array<[unknown, unknown]> = [
      ['approve', {}],
      ['approve', { approvalId: 7 }],
      ['deny', { approvalId: 'a1', reason: '   ' }],
      ['rollback', { workspaceId: 'w', toRevision: -1 }],
      ['rollback', { workspaceId: 'w', toRevision: 1.5 }],
      ['approve', { approvalId: 'a1', extra: true }],
      ['format-disk', {}],
      [42, {}],
      ['__proto__', {}],
      ['decideCall', { askId: 'k', digest: 'not-a-digest', decision: 'allow-once' }],
      ['decideCall', { askId: 'k', digest: 'a'.repeat(64), decision: 'deny' }],
      ['decideCall', { askId: 'k', digest: 'a'.repeat(64), decision: 'maybe' }],
      ['savePolicy', { text: '{}', baseVersion: 0 }],
      ['savePolicy', { text: 7, baseVersion: 1 }],
    ];
    for (const [command, args] of cases) {
      const result = await world.hub.execute(command, args);
      assert.equal(result.ok, false, `${String(command)} ${JSON.stringify(args)}`);
      assert.equal(!result.ok && result.error.code, 'InvalidArguments');
    }
    assert.deepEqual(world.commands, []);
  });

  test('a handler failure comes back as its structured error', async () => {
    const world = createWorld();
    const result = await world.hub.execute('openWorkspace', { root: '/nowhere', trusted: false });
    assert.equal(result.ok, false);
    assert.equal(!result.ok && result.error.code, 'WorkspaceNotFound');
    const thrown = await world.hub.execute('approve', { approvalId: 'missing' });
    assert.equal(!thrown.ok && thrown.error.code, 'ReceiptInvalid');
    const noPolicy = await world.hub.execute('decideCall', { askId: 'k', digest: 'a'.repeat(64), decision: 'allow-once' });
    assert.equal(!noPolicy.ok && noPolicy.error.code, 'ApprovalNotFound', 'a server without a policy room answers clearly');
  });
});
