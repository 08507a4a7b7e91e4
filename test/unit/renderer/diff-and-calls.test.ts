import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { hunkLabel, sideBySide, unifiedRows } from '../../../src-renderer/src/lib/diff.js';
import { filterCalls, rowWindow } from '../../../src-renderer/src/lib/calls.js';
import type { CallView } from '../../../src-main/contracts/console.js';

describe('side-by-side diff', () => {
  test('pairs removals with additions, numbers both sides from the hunk header and drops file headers', () => {
    const rows = sideBySide(['Index: x', '===================================================================', '--- a/x', '+++ b/x', '@@ -10,3 +20,4 @@', ' keep', '-old', '+new', '+extra', ' tail'].join('\n'));
    assert.deepEqual(
      rows.map((r) => [r.kind, r.left?.line, r.left?.text, r.right?.line, r.right?.text]),
      [
        ['hunk', undefined, undefined, undefined, undefined],
        ['context', 10, 'keep', 20, 'keep'],
        ['change', 11, 'old', 21, 'new'],
        ['change', undefined, undefined, 22, 'extra'],
        ['context', 12, 'tail', 23, 'tail'],
      ],
    );
  });

  test('unified rows carry old and new line numbers and keep lines that merely start with --- or +++ inside a hunk', () => {
    const rows = unifiedRows(['--- a/x', '+++ b/x', '@@ -1,3 +1,3 @@ main', ' a', '--- b', '+++ c', ' d', '\\ No newline at end of file'].join('\n'));
    assert.deepEqual(rows, [
      { kind: 'hunk', text: 'lines 1–3 → 1–3 · main' },
      { kind: 'context', oldLine: 1, newLine: 1, text: 'a' },
      { kind: 'remove', oldLine: 2, text: '-- b' },
      { kind: 'add', newLine: 2, text: '++ c' },
      { kind: 'context', oldLine: 3, newLine: 3, text: 'd' },
      { kind: 'note', text: 'No newline at end of file' },
    ]);
  });

  test('hunk labels read as line ranges', () => {
    assert.equal(hunkLabel('@@ -10,3 +20,4 @@'), 'lines 10–12 → 20–23');
    assert.equal(hunkLabel('@@ -5 +5,0 @@'), 'lines 5 → after 5');
  });
});

describe('live calls filtering and windowing', () => {
  const mk = (id: string, tool: string, status: CallView['status']): CallView => ({ callId: id, agent: 'claude', transport: 'mcp-http', tool, target: 'host', status, startedAt: 0, requestBytes: 0 });
  const calls = new Map([mk('1', 'document-read', 'ok'), mk('2', 'stage-edits', 'error'), mk('3', 'document-read', 'running')].map((c) => [c.callId, c]));
  const ids = ['1', '2', '3'];

  test('newest first, by status and by case-insensitive text', () => {
    assert.deepEqual(filterCalls(calls, ids, { status: 'all', text: '' }).map((c) => c.callId), ['3', '2', '1']);
    assert.deepEqual(filterCalls(calls, ids, { status: 'all', text: 'DOCUMENT' }).map((c) => c.callId), ['3', '1']);
    assert.deepEqual(filterCalls(calls, ids, { status: 'error', text: '' }).map((c) => c.callId), ['2']);
    assert.deepEqual(filterCalls(calls, ids, { status: 'ok', text: 'stage' }), []);
  });

  test('renders only the rows in view plus overscan, whatever the count', () => {
    assert.deepEqual(rowWindow(0, 280, 28, 10_000, 5), { first: 0, last: 15, offset: 0, totalHeight: 280_000 });
    assert.deepEqual(rowWindow(28 * 5000, 280, 28, 10_000, 5), { first: 4995, last: 5015, offset: 4995 * 28, totalHeight: 280_000 });
    assert.deepEqual(rowWindow(28 * 9999, 280, 28, 10_000, 5), { first: 9994, last: 10_000, offset: 9994 * 28, totalHeight: 280_000 });
    assert.deepEqual(rowWindow(0, 280, 28, 0, 5), { first: 0, last: 0, offset: 0, totalHeight: 0 });
  });
});
