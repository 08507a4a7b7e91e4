import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PendingInvocations } from '../../../../src-main/bridge/signalr/pending-invocations.js';
import { HubInvocationError } from '../../../../src-main/bridge/signalr/types.js';

const reason = (expected: string) => (error: unknown) => error instanceof HubInvocationError && error.reason === expected;

test('each pending invocation settles once: result, client error, abort, send failure, close', async () => {
  const table = new PendingInvocations();
  const sent: string[] = [];
  const ok = table.start('m', {}, (id) => sent.push(id));
  const bad = table.start('m', {}, (id) => sent.push(id));
  assert.deepEqual(sent, ['1', '2']);
  assert.ok(table.complete('1', { result: 42 }));
  assert.equal(table.complete('1', { result: 43 }), false);
  assert.ok(table.complete('2', { error: 'no' }));
  assert.equal(await ok, 42);
  await assert.rejects(bad, reason('clientError'));

  const controller = new AbortController();
  const aborted = table.start('m', { signal: controller.signal, timeoutMs: 60_000 }, () => undefined);
  controller.abort();
  await assert.rejects(aborted, reason('aborted'));
  await assert.rejects(table.start('m', { signal: controller.signal }, () => undefined), reason('aborted'));

  await assert.rejects(
    table.start('m', {}, () => {
      throw new Error('socket gone');
    }),
    reason('connectionClosed'),
  );
  await assert.rejects(
    table.start('m', {}, () => {
      throw new HubInvocationError('invalidArguments', 'cannot encode');
    }),
    reason('invalidArguments'),
  );
  // The table's timers are unref'd (an invocation must not keep a process alive); hold the loop open
  // so this one can fire even when nothing else is scheduled.
  const keepAlive = setInterval(() => undefined, 1_000);
  await assert.rejects(table.start('m', { timeoutMs: 5 }, () => undefined), reason('timeout'));
  clearInterval(keepAlive);

  const left = table.start('m', {}, () => undefined);
  table.failAll(new HubInvocationError('connectionClosed', 'closed'));
  await assert.rejects(left, reason('connectionClosed'));
  assert.equal(table.size, 0);
});
