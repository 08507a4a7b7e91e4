/** The spill file of records unwritten at close, on real files: round trip, chunk boundaries, damage. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { appendFileSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { PreparedRecord } from '../../../src-main/audit/rows.js';
import { loadSpill, removeSpill, saveSpill, spillPath } from '../../../src-main/audit/spill.js';

function callRecord(callId: string, argumentsText: string): PreparedRecord {
  return {
    type: 'call',
    params: {
      callId, startedAt: 1_700_000_000_000, agent: 'agent', transport: 'http-api', tool: 'echo', target: 'host', status: 'ok', errorCode: null, durationMs: 2,
      requestBytes: argumentsText.length, responseBytes: null, arguments: argumentsText, result: null, redacted: null, truncated: 0, policy: null, decidedBy: null, replayOf: null,
      traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    },
  };
}

const event: PreparedRecord = { type: 'event', params: { at: 1_700_000_000_001, kind: 'plugin.connected', workspaceId: null, transactionId: null, data: '{"name":"unity"}' } };

test('records round-trip in order, across lines longer than a read chunk and multi-byte text at its edges', () => {
  const dir = mkdtempSync(join(tmpdir(), 'junction-spill-'));
  try {
    const path = spillPath(join(dir, 'audit.db'));
    // 1.5 MiB of three-byte characters: every chunk boundary falls inside some line, most inside a character.
    const wide = JSON.stringify({ text: '€'.repeat(512 * 1024) });
    const records = [callRecord('a', '{"n":1}'), callRecord('b', wide), event, callRecord('c', wide), callRecord('d', '{}')];
    saveSpill(path, records);
    assert.deepEqual(loadSpill(path), { records, damaged: 0 });
    assert.deepEqual(readdirSync(dir), ['audit.db-pending.jsonl'], 'no temporary file is left');
    removeSpill(path);
    assert.equal(existsSync(path), false);
    assert.doesNotThrow(() => removeSpill(path), 'removing a missing file is not an error');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a missing file holds nothing; damaged lines (not JSON, a missing or extra column, a wrong type) are counted, never returned', () => {
  const dir = mkdtempSync(join(tmpdir(), 'junction-spill-'));
  try {
    const path = spillPath(join(dir, 'audit.db'));
    assert.deepEqual(loadSpill(path), { records: [], damaged: 0 });
    const good = callRecord('kept', '{}');
    const { callId: _dropped, ...missingColumn } = good.params;
    writeFileSync(path, `${JSON.stringify(good)}\n{"type":"call","params":\n`);
    appendFileSync(path, `${JSON.stringify({ type: 'call', params: missingColumn })}\n`);
    appendFileSync(path, `${JSON.stringify({ type: 'call', params: { ...good.params, extra: 1 } })}\n`);
    appendFileSync(path, `${JSON.stringify({ type: 'event', params: { ...event.params, at: 'yesterday' } })}\n\n`);
    appendFileSync(path, JSON.stringify(event));
    assert.deepEqual(loadSpill(path), { records: [good, event], damaged: 4 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a call spilled by a Junction before the trace context column (schema 5) loads with none', () => {
  const dir = mkdtempSync(join(tmpdir(), 'junction-spill-'));
  try {
    const path = spillPath(join(dir, 'audit.db'));
    const current = callRecord('older', '{}');
    const { traceparent: _absent, ...olderParams } = current.params;
    writeFileSync(path, `${JSON.stringify({ type: 'call', params: olderParams })}\n`);
    assert.deepEqual(loadSpill(path), { records: [{ type: 'call', params: { ...olderParams, traceparent: null } }], damaged: 0 });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
