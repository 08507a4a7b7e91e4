import { test } from 'node:test';
import assert from 'node:assert/strict';
import { historyStatusLabel } from '../../../src-renderer/src/lib/history-status.js';

test('the Live calls toolbar names an audit trail upgrade and the calls it indexes; other outages stay "History unavailable"', () => {
  const reason = 'The audit trail is being upgraded from schema 1 to 2: indexing 1,000,000 recorded calls for search (running for 3 s).';
  assert.equal(historyStatusLabel({ available: false, reason, upgrade: { startedAt: 1, calls: 1_000_000 } }), 'Upgrading the audit trail: indexing 1,000,000 recorded calls…');
  assert.equal(historyStatusLabel({ available: false, reason, upgrade: { startedAt: 1, calls: 1_000_000, done: 0.426 } }), 'Upgrading the audit trail: indexing 1,000,000 recorded calls (42 %)…');
  assert.equal(historyStatusLabel({ available: false, reason, upgrade: { startedAt: 1 } }), 'Upgrading the audit trail: indexing recorded calls…', 'before the calls are counted');
  assert.equal(historyStatusLabel({ available: false, reason: 'the audit database is locked by another process' }), 'History unavailable');
  assert.equal(historyStatusLabel({ available: false }), undefined, 'nothing to say without a reason');
  assert.equal(historyStatusLabel({ available: true }), undefined);
});
