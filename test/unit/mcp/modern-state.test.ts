/** The sealed requestState of input-required results, and the cache hints that follow catalogue changes. */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CacheHints, CHURN_TTL_MS, STABLE_TTL_MS } from '../../../src-main/mcp/modern/cache-hints.js';
import { RequestStateSeal } from '../../../src-main/mcp/modern/request-state.js';
import { TypedEmitter } from '../../../src-main/shared/index.js';

const refused = (work: () => unknown) => assert.throws(work, (error: unknown) => (error as { code?: string }).code === 'RequestStateInvalid');

describe('requestState seal', () => {
  const payload = { run: 'call-1', round: 2, owner: 'pin\nagent' };

  test('opens what it sealed, and nothing altered, re-encoded or sealed by another process', () => {
    const seal = new RequestStateSeal();
    const state = seal.seal(payload);
    assert.deepEqual(seal.open(state), payload);
    const [body, mac] = state.split('.') as [string, string];
    const forged = Buffer.from(JSON.stringify({ ...payload, round: 1 })).toString('base64url');
    refused(() => seal.open(`${forged}.${mac}`));
    refused(() => seal.open(`${body}.${mac}x`));
    refused(() => seal.open(`${state}-TAMPERED`));
    refused(() => seal.open(body));
    refused(() => seal.open(`${body}.${mac}.${mac}`));
    refused(() => new RequestStateSeal().open(state));
  });
});

describe('cache hints', () => {
  test('a list is fresh for a minute while nothing changed, for seconds after a change, and reads promise nothing', () => {
    let now = 1_000_000;
    const changes = new TypedEmitter<{ changed: undefined }>();
    const hints = new CacheHints([(listener) => changes.on('changed', listener)], () => now);
    assert.deepEqual(hints.list(), { ttlMs: STABLE_TTL_MS, cacheScope: 'private' });
    changes.emit('changed', undefined);
    assert.equal(hints.list().ttlMs, CHURN_TTL_MS);
    now += STABLE_TTL_MS;
    assert.equal(hints.list().ttlMs, STABLE_TTL_MS);
    assert.deepEqual(hints.read(), { ttlMs: 0, cacheScope: 'private' });
    hints.close();
    changes.emit('changed', undefined);
    assert.equal(hints.list().ttlMs, STABLE_TTL_MS);
  });
});
