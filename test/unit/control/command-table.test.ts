/**
 * The console command table is the only list of commands: the hub validates every one of them from its
 * schema and answers an unknown name with one code, and a set of handlers that lacks a command does not
 * compile (the `@ts-expect-error` below fails `npm run typecheck` the day that check stops holding).
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { CONSOLE_COMMANDS, CONTROL_COMMAND_NAMES } from '../../../src-main/contracts/index.js';
import { createControlHub, unknownCommandError, type ControlCommandHandlers, type ControlProviders } from '../../../src-main/control/index.js';
import { createWorld } from '../../integration/control/support/world.js';

describe('console command table', () => {
  test('every command in the table is validated from its schema before any handler runs', async () => {
    const world = createWorld();
    assert.deepEqual(CONTROL_COMMAND_NAMES, Object.keys(CONSOLE_COMMANDS));
    for (const name of CONTROL_COMMAND_NAMES) {
      const result = await world.hub.execute(name, { notAnArgument: true });
      assert.equal(result.ok, false, name);
      assert.equal(!result.ok && result.error.code, 'InvalidArguments', name);
      assert.match(!result.ok ? result.error.message : '', new RegExp(`^Invalid arguments for ${name}:`), name);
    }
    assert.deepEqual(world.commands, [], 'no handler ran');
  });

  test('the hub offers exactly the table as its typed API', () => {
    const world = createWorld();
    for (const name of CONTROL_COMMAND_NAMES) assert.equal(typeof world.hub[name], 'function', name);
  });

  test('an unknown command name answers one code with the known names, whatever the name is', async () => {
    const world = createWorld();
    for (const name of ['format-disk', '__proto__', 'constructor', 'toString', 42, null, undefined, { command: 'approve' }]) {
      const result = await world.hub.execute(name, {});
      assert.equal(result.ok, false);
      assert.deepEqual(!result.ok && result.error, unknownCommandError(name));
      assert.equal(!result.ok && result.error.code, 'InvalidArguments');
      assert.deepEqual(!result.ok && result.error.details?.known, CONTROL_COMMAND_NAMES);
    }
  });

  test('in-process callers get the schema defaults and the same refusals, thrown', async () => {
    const world = createWorld();
    world.requestApproval({ approvalId: 'a1' });
    await world.hub.deny({ approvalId: 'a1', reason: '  not now  ' });
    assert.deepEqual(world.commands, [{ command: 'deny', args: ['a1', 'not now'] }], 'the handler saw the trimmed reason');
    await assert.rejects(world.hub.approve({ approvalId: '' }), (e: Error & { code?: string }) => e.code === 'InvalidArguments');
    const page = await world.hub.transactionHistory();
    assert.equal(page.available, false);
  });

  test('before the parts are mounted and served, a command or a snapshot is refused with Starting', async () => {
    const hub = createControlHub({ version: 'test' });
    hub.publishMetrics();
    assert.equal(hub.lastSeq, 1, 'parts may publish while they mount');
    const refused = await hub.execute('snapshot', {});
    assert.equal(!refused.ok && refused.error.code, 'Starting');
    assert.throws(() => hub.snapshotFrame(), (e: Error & { code?: string }) => e.code === 'Starting');
    await assert.rejects(hub.tools(), (e: Error & { code?: string }) => e.code === 'Starting');
  });

  test('a set of handlers without one of the table commands does not compile', () => {
    const providers = {} as ControlProviders;
    const complete = {} as ControlCommandHandlers;
    const { approve: _approve, ...withoutApprove } = complete;
    // Built, never run: the type check is the assertion.
    const build = () =>
      createControlHub({ version: 'test' }).serve({
        providers,
        // @ts-expect-error approve has no handler
        commands: withoutApprove,
      });
    assert.equal(typeof build, 'function');
  });
});
