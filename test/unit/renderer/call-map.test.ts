import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CallMap } from '../../../src-renderer/src/store/call-map.js';
import type { CallView } from '../../../src-main/contracts/console.js';

const call = (id: string, status: CallView['status'] = 'running'): CallView => ({ callId: id, agent: 'a', transport: 'mcp-http', tool: 't', target: 'host', status, startedAt: 0, requestBytes: 1 });

test('a new version sees its changes and removals; the old version is untouched', () => {
  const v1 = CallMap.of([call('a'), call('b')]);
  const v2 = v1.with(new Map([['a', call('a', 'ok')], ['b', undefined], ['c', call('c')]]));
  assert.deepEqual([v2.get('a')?.status, v2.has('b'), v2.get('c')?.callId, v2.size], ['ok', false, 'c', 2]);
  assert.deepEqual([v1.get('a')?.status, v1.has('b'), v1.has('c'), v1.size], ['running', true, false, 2]);
  const v3 = v2.with(new Map([['b', call('b', 'error')], ['c', undefined], ['gone', undefined]]));
  assert.deepEqual([v3.get('b')?.status, v3.has('c'), v3.size], ['error', false, 2], 'removing an unknown id changes nothing');
  assert.equal(v2.with(new Map()), v2);
});

test('many small versions fold into the base and keep every entry right', () => {
  let map = CallMap.of(Array.from({ length: 1000 }, (_, i) => call(`c${i}`)));
  const versions: CallMap[] = [];
  for (let i = 0; i < 1000; i++) {
    map = map.with(new Map<string, CallView | undefined>([[`c${i}`, undefined], [`n${i}`, call(`n${i}`, i % 2 ? 'ok' : 'error')]]));
    versions.push(map);
  }
  assert.equal(map.size, 1000);
  assert.equal(map.has('c999'), false);
  assert.equal(map.get('n999')?.status, 'ok');
  assert.equal(map.get('n0')?.status, 'error');
  const early = versions[9];
  assert.ok(early);
  assert.deepEqual([early.has('c9'), early.has('c10'), early.has('n9'), early.has('n10'), early.size], [false, true, true, false, 1000], 'an old version still reads as it was after later folds');
});
