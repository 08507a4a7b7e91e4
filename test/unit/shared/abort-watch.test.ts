import { test } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { abortable, onAbort } from '../../../src-main/shared/abort-watch.js';

test('many callbacks share one listener on the signal, withdrawn ones never run, later callbacks reuse the listener', () => {
  const controller = new AbortController();
  const ran: number[] = [];
  const withdraw = Array.from({ length: 50 }, (_, i) => onAbort(controller.signal, () => ran.push(i)));
  assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
  withdraw.slice(10).forEach((w) => w());
  withdraw[3]!();
  withdraw[3]!();
  assert.equal(getEventListeners(controller.signal, 'abort').length, 1);
  controller.abort();
  assert.deepEqual(ran, [0, 1, 2, 4, 5, 6, 7, 8, 9]);
  assert.equal(getEventListeners(controller.signal, 'abort').length, 0);

  // A keep-alive connection's signal serves one call after another: each registers and withdraws.
  const other = new AbortController();
  for (let call = 0; call < 100; call++) onAbort(other.signal, () => assert.fail('withdrawn'))();
  assert.equal(getEventListeners(other.signal, 'abort').length, 1, 'the listener is reused, not added and removed per call');
  let late = 0;
  onAbort(other.signal, () => late++);
  assert.equal(getEventListeners(other.signal, 'abort').length, 1);
  other.abort();
  assert.equal(late, 1);
  assert.equal(getEventListeners(other.signal, 'abort').length, 0);
});

test("an abortable call's signal runs its callbacks on abort without an event listener, and after its end is watched like any other", () => {
  const call = abortable();
  const ran: string[] = [];
  const withdrawn = onAbort(call.signal, () => ran.push('withdrawn'));
  onAbort(call.signal, () => ran.push('during'));
  call.signal.addEventListener('abort', () => ran.push('listener'));
  withdrawn();
  assert.equal(getEventListeners(call.signal, 'abort').length, 1, 'only the listener added directly');
  call.end();
  onAbort(call.signal, () => ran.push('after end'));
  assert.equal(getEventListeners(call.signal, 'abort').length, 2, 'once ended, a callback is watched through a listener of its own');
  const reason = new Error('cancelled by the agent');
  call.abort(reason);
  call.abort(new Error('again'));
  assert.equal(call.signal.reason, reason);
  assert.deepEqual(ran, ['listener', 'after end', 'during']);
  onAbort(call.signal, () => assert.fail('the signal had aborted already'));
});

test('an abortable aborted while running runs each callback once and forgets them', () => {
  const call = abortable();
  let runs = 0;
  onAbort(call.signal, () => runs++);
  call.abort();
  call.abort();
  call.end();
  assert.equal(runs, 1);
  assert.equal(call.signal.aborted, true);
  assert.equal(getEventListeners(call.signal, 'abort').length, 0);
});
