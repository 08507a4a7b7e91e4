import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isJunctionError, type ToolOutcome } from '../../../../src-main/contracts/index.js';
import { ParkedCall } from '../../../../src-main/mcp/modern/input-required.js';
import { TaskStore, type TaskEnding } from '../../../../src-main/mcp/modern/tasks.js';

const owner = { subject: 'tools/call bake', key: 'pin\nagent' };
const ok = (text: string): ToolOutcome => ({ result: { content: [{ type: 'text', text }] } });
const asResult = (outcome: ToolOutcome): TaskEnding => ({ kind: 'result', result: outcome.result as Record<string, unknown> });

/** A call the way InputRequiredCalls hands one over, with an outcome the test settles. */
function longCall(): { call: ParkedCall<ToolOutcome>; finish: (outcome: ToolOutcome) => void } {
  const call = new ParkedCall<ToolOutcome>(owner, { elicitation: {} }, true, new Map());
  let finish!: (outcome: ToolOutcome) => void;
  call.outcome = new Promise((resolve) => (finish = resolve));
  return { call, finish };
}

const notFound = (fn: () => unknown) =>
  assert.throws(fn, (error: unknown) => isJunctionError(error) && error.code === 'TaskNotFound');

test('a task expires ttlMs after its creation: a finished one is gone, a running one is cancelled with it', async () => {
  const store = new TaskStore({ ttlMs: 30, maxTasks: 8, pollIntervalMs: 10 });
  const finished = longCall();
  const running = longCall();
  const a = store.create(finished.call, undefined, asResult)!['taskId'];
  const b = store.create(running.call, undefined, asResult)!['taskId'];
  finished.finish(ok('done'));
  await new Promise((r) => setImmediate(r));
  assert.equal(store.get(owner, a)['status'], 'completed');
  await new Promise((r) => setTimeout(r, 60));
  notFound(() => store.get(owner, a));
  notFound(() => store.get(owner, b));
  assert.equal(running.call.signal.aborted, true, "the running task's call was aborted, so its plugin stops");
  assert.equal(finished.call.signal.aborted, false);
  store.close();
});

test('at the cap the oldest finished task makes room; with every place running, no task is made', async () => {
  const store = new TaskStore({ ttlMs: 60_000, maxTasks: 2, pollIntervalMs: 10 });
  const first = longCall();
  const second = longCall();
  const firstId = store.create(first.call, undefined, asResult)!['taskId'];
  store.create(second.call, undefined, asResult);
  assert.equal(store.create(longCall().call, undefined, asResult), undefined, 'two running tasks fill the store');
  first.finish(ok('first'));
  await new Promise((r) => setImmediate(r));
  assert.notEqual(store.create(longCall().call, undefined, asResult), undefined);
  notFound(() => store.get(owner, firstId));
  assert.equal(store.size(), 2);
  store.close();
});

test("a task is read only by its owner, and a cancel after the end leaves the end as it was", async () => {
  const store = new TaskStore({ ttlMs: 60_000, maxTasks: 4, pollIntervalMs: 10 });
  const { call, finish } = longCall();
  const taskId = store.create(call, 'Baking', asResult)!['taskId'];
  notFound(() => store.get({ subject: 'tools/call bake', key: 'pin\nsomeone-else' }, taskId));
  notFound(() => store.cancel({ subject: 'tools/call bake', key: 'pin\nsomeone-else' }, taskId));
  assert.equal(store.get(owner, taskId)['statusMessage'], 'Baking');
  finish(ok('baked'));
  await new Promise((r) => setImmediate(r));
  store.cancel(owner, taskId);
  assert.equal(call.signal.aborted, false);
  const view = store.get(owner, taskId);
  assert.equal(view['status'], 'completed');
  assert.deepEqual(view['result'], { content: [{ type: 'text', text: 'baked' }] });
  store.close();
});

test('an ending that is a JSON-RPC error makes the task failed, with the error and no result', async () => {
  const store = new TaskStore({ ttlMs: 60_000, maxTasks: 4, pollIntervalMs: 10 });
  const { call, finish } = longCall();
  const taskId = store.create(call, undefined, () => ({ kind: 'error', error: { code: -32602, message: 'Tool not found' } }))!['taskId'];
  finish(ok('ignored'));
  await new Promise((r) => setImmediate(r));
  const view = store.get(owner, taskId);
  assert.equal(view['status'], 'failed');
  assert.deepEqual(view['error'], { code: -32602, message: 'Tool not found' });
  assert.equal('result' in view, false);
  store.close();
});
