import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { buildNegotiation, ConnectionTokenStore, selectNegotiateVersion } from '../../../../src-main/bridge/signalr/negotiation.js';

describe('negotiation', () => {
  test('version selection: missing is 0, higher is capped at 1, garbage is refused', () => {
    assert.equal(selectNegotiateVersion(null), 0);
    assert.equal(selectNegotiateVersion(''), 0);
    assert.equal(selectNegotiateVersion('1'), 1);
    assert.equal(selectNegotiateVersion('9'), 1);
    assert.equal(selectNegotiateVersion('-1'), undefined);
    assert.equal(selectNegotiateVersion('1.5'), undefined);
  });

  test('version 0 connects with the connection id, version 1 with a separate token', () => {
    const v0 = buildNegotiation(0);
    assert.equal(v0.token, v0.connectionId);
    assert.equal('connectionToken' in v0.response, false);
    const v1 = buildNegotiation(1);
    assert.notEqual(v1.token, v1.connectionId);
    assert.equal(v1.response.connectionToken, v1.token);
  });

  test('tokens are single use, expire, and are bounded in number', () => {
    let now = 1000;
    const store = new ConnectionTokenStore(100, 2, () => now);
    assert.ok(store.add('t1', 'c1'));
    assert.ok(store.add('t2', 'c2'));
    assert.equal(store.add('t3', 'c3'), false);
    assert.equal(store.consume('t1'), 'c1');
    assert.equal(store.consume('t1'), undefined);
    now += 100;
    assert.equal(store.consume('t2'), undefined, 'expired');
    assert.ok(store.add('t4', 'c4'));
    now += 150;
    assert.ok(store.add('t5', 'c5'));
    assert.equal(store.size, 1, 'expired tokens are pruned');
  });
});
