import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_DEPARTURES } from '../../../src-main/control/departures.js';
import { createWorld } from '../../integration/control/support/world.js';

describe('plugin departures in the snapshot', () => {
  test('a connection that ended stays in the snapshot with its last view and when it was last seen; the newest first, bounded', () => {
    const world = createWorld();
    const runtime = world.connectPlugin({ connectionId: 'r1', name: 'scene-runtime', role: 'runtime' });
    const before = Date.now();
    world.hub.publish({ type: 'plugin.updated', plugin: { ...runtime, state: 'awaited', awaitedUntil: before + 5000 } });
    const after = Date.now();
    world.plugins.delete('r1');
    world.hub.publish({ type: 'plugin.disconnected', connectionId: 'r1' });
    world.connectPlugin({ connectionId: 'e1', name: 'scene-editor' });
    world.hub.publish({ type: 'plugin.disconnected', connectionId: 'e1', reason: 'closed by the app' });
    const departed = world.hub.snapshotFrame().snapshot.departedPlugins ?? [];
    assert.deepEqual(departed.map((d) => [d.plugin.connectionId, d.plugin.state, d.reason]), [['e1', 'connected', 'closed by the app'], ['r1', 'awaited', undefined]]);
    const lost = departed[1]!;
    assert.ok(lost.at >= before && lost.at <= after, 'last seen when it went awaited, not when the wait ran out');
    for (let i = 0; i < MAX_DEPARTURES + 3; i++) {
      world.connectPlugin({ connectionId: `x${i}` });
      world.hub.publish({ type: 'plugin.disconnected', connectionId: `x${i}` });
    }
    assert.equal(world.hub.snapshotFrame().snapshot.departedPlugins?.length, MAX_DEPARTURES);
    world.hub.publish({ type: 'plugin.disconnected', connectionId: 'never-connected' });
    assert.equal(world.hub.snapshotFrame().snapshot.departedPlugins?.[0]?.plugin.connectionId, `x${MAX_DEPARTURES + 2}`, 'an unknown connection leaves no record');
  });
});
