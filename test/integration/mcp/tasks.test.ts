/**
 * The tasks extension (SEP-2663) through the bridge: a real Junction, a real TypeScript SDK plugin whose
 * long tools call ctx.processing() (McpPlugin's `Processing` reply on the wire), and 2026-07-28 agents
 * over raw HTTP (no SDK speaks the revision yet), beside a real 2025-11-25 SDK session.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { createPlugin, type McpPlugin } from '../../../plugins/sdk/index.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';
import { modernRpc, type ModernAnswer } from '../../support/modern-rpc.js';

const TASKS = 'io.modelcontextprotocol/tasks';

describe('tasks for long plugin calls (2026-07-28)', () => {
  let junction: TestJunction;
  let plugin: McpPlugin;
  const cancelled: string[] = [];
  let release: (() => void) | undefined;

  const rpc = (method: string, params: Record<string, unknown>, agent: { name?: string; tasks?: boolean } = {}): Promise<ModernAnswer> =>
    modernRpc(`${junction.baseUrl}/mcp`, method, params, { name: agent.name ?? 'task-agent', capabilities: { elicitation: {}, ...(agent.tasks === false ? {} : { extensions: { [TASKS]: {} } }) } });
  const untilStatus = async (taskId: string, statuses: string[]) =>
    eventually(async () => {
      const got = (await rpc('tasks/get', { taskId })).result;
      return got && statuses.includes(got['status'] as string) ? got : undefined;
    }, 10_000, `task ${taskId} in ${statuses.join('/')}`);
  const textOf = (result: unknown) => ((result as { content?: Array<{ text?: string }> }).content ?? []).map((c) => c.text ?? '').join('');

  before(async () => {
    junction = await startTestJunction();
    plugin = createPlugin({ name: 'long-tools', version: '1.0.0', role: 'editor', endpoint: `${junction.baseUrl}/hub/mcp-server` });
    plugin
      .tool({
        name: 'bake-lighting',
        description: 'Bakes the scene lighting; long.',
        input: z.object({ scene: z.string() }),
        taskSupport: 'optional',
        handler: async ({ scene }, ctx) => {
          ctx.processing(`Baking ${scene}`);
          await new Promise<void>((resolve, reject) => {
            release = resolve;
            ctx.signal.addEventListener('abort', () => {
              cancelled.push(scene);
              reject(new Error('cancelled'));
            }, { once: true });
          });
          return { lightmaps: 12, scene };
        },
      })
      .tool({
        name: 'domain-reload',
        description: 'Reloads the script domain; only as a task.',
        input: z.object({}),
        taskSupport: 'required',
        handler: async (_args, ctx) => {
          ctx.processing('Reloading');
          const answer = await ctx.elicit('Discard unsaved changes?', { type: 'object', properties: { discard: { type: 'boolean' } }, required: ['discard'] });
          return answer.content?.['discard'] === true ? 'Reloaded, changes discarded' : 'Reloaded, changes kept';
        },
      })
      .tool({
        name: 'import-assets',
        description: 'Imports assets; long, and reports a failure of its own.',
        input: z.object({}),
        taskSupport: 'optional',
        handler: async (_args, ctx) => {
          ctx.processing('Importing');
          return { content: [{ type: 'text', text: 'Import failed: 3 textures are missing.' }], isError: true };
        },
      })
      .tool({
        name: 'render-preview',
        description: 'Renders a preview; long, and its renderer answers data that is no image.',
        input: z.object({}),
        taskSupport: 'optional',
        handler: async (_args, ctx) => {
          ctx.processing('Rendering');
          return { content: [{ type: 'image', data: 'renderer crashed: not base64', mimeType: 'image/png' }] };
        },
      })
      .tool({ name: 'quick', description: 'Answers at once.', input: z.object({}), handler: () => 'quick answer' });
    await plugin.connect();
    await eventually(async () => ((await rpc('tools/list', {})).result?.['tools'] as Array<{ name: string }> | undefined)?.some((t) => t.name === 'domain-reload'), 10_000, 'the plugin tools');
  });
  after(async () => {
    release?.();
    await plugin.disconnect();
    await junction.stop();
  });

  test('discover advertises the extension; 2026 tools/list carries taskSupport, a 2025 session does not', async () => {
    const discover = await rpc('server/discover', {});
    assert.deepEqual((discover.result?.['capabilities'] as Record<string, unknown>)['extensions'], { [TASKS]: {} });
    const tools = (await rpc('tools/list', {})).result?.['tools'] as Array<{ name: string; execution?: unknown }>;
    assert.deepEqual(tools.find((t) => t.name === 'domain-reload')?.execution, { taskSupport: 'required' });
    assert.equal(tools.find((t) => t.name === 'quick')?.execution, undefined);
    const session = await junction.connectAgent();
    const listed = await session.listTools();
    assert.equal(listed.tools.find((t) => t.name === 'domain-reload')?.execution, undefined, '2025-11-25 sessions are served without tasks');
  });

  test('a call that goes long becomes a task: working with its message, then completed with the result the call would have answered', async () => {
    const created = await rpc('tools/call', { name: 'bake-lighting', arguments: { scene: 'Harbor' } });
    assert.equal(created.result?.['resultType'], 'task');
    const taskId = created.result?.['taskId'] as string;
    assert.match(taskId, /^[0-9a-f-]{36}$/);
    for (const absent of ['result', 'error', 'inputRequests', 'requestState', 'task']) assert.equal(absent in created.result!, false, absent);
    assert.equal(created.result?.['status'], 'working');
    assert.equal(typeof created.result?.['ttlMs'], 'number');
    assert.equal(Number.isInteger(created.result?.['pollIntervalMs']), true);

    const working = await rpc('tasks/get', { taskId });
    assert.equal(working.result?.['resultType'], 'complete');
    assert.equal(working.result?.['status'], 'working');
    assert.equal(working.result?.['statusMessage'], 'Baking Harbor');
    release!();
    const done = await untilStatus(taskId, ['completed', 'failed', 'cancelled']);
    assert.equal(done['status'], 'completed');
    assert.deepEqual((done['result'] as { structuredContent: unknown }).structuredContent, { lightmaps: 12, scene: 'Harbor' });
    const row = await eventually(() => junction.control.snapshotFrame().snapshot.calls.find((c) => c.taskId === taskId), 5000, 'the call row');
    assert.equal(row.status, 'ok');
    assert.equal(row.tool, 'bake-lighting');
  });

  test('without the extension the same call is answered whole, as before', async () => {
    // The call shows as running before the plugin's handler has begun to wait: release only that wait.
    release = undefined;
    const pending = rpc('tools/call', { name: 'bake-lighting', arguments: { scene: 'Plain' } }, { tasks: false });
    await eventually(() => junction.control.snapshotFrame().snapshot.calls.some((c) => c.status === 'running' && c.tool === 'bake-lighting'), 5000, 'the call running');
    (await eventually(() => release, 5000, "the plugin's handler waiting"))();
    const answer = await pending;
    assert.equal(answer.result?.['resultType'], 'complete');
    assert.deepEqual(answer.result?.['structuredContent'], { lightmaps: 12, scene: 'Plain' });
  });

  test("a 2025-11-25 session that asked for progress hears the plugin's Processing message while the call runs", async () => {
    release = undefined;
    const session = await junction.connectAgent();
    const heard: Array<{ progress: number; total?: number; message?: string }> = [];
    const pending = session.callTool({ name: 'bake-lighting', arguments: { scene: 'Dock' } }, undefined, { onprogress: (update) => heard.push(update) });
    await eventually(() => heard.length > 0, 5000, 'a progress notification');
    assert.equal(heard[0]!.message, 'Baking Dock');
    assert.equal(heard[0]!.total, undefined, 'how long the bake takes is unknown, and the 5-minute budget is not a share done');
    assert.equal(Number.isInteger(heard[0]!.progress), true, 'elapsed seconds');
    (await eventually(() => release, 5000, "the plugin's handler waiting"))();
    const answer = await pending;
    assert.deepEqual(answer.structuredContent, { lightmaps: 12, scene: 'Dock' });
  });

  test('a required-task tool refuses an agent without the extension with -32021 naming it; tasks/* do too', async () => {
    const refused = await rpc('tools/call', { name: 'domain-reload', arguments: {} }, { tasks: false });
    assert.equal(refused.error?.code, -32021);
    assert.deepEqual(refused.error?.data?.['requiredCapabilities'], { extensions: { [TASKS]: {} } });
    for (const method of ['tasks/get', 'tasks/update', 'tasks/cancel']) {
      const gated = await rpc(method, { taskId: 'whatever', inputResponses: {} }, { tasks: false });
      assert.equal(gated.error?.code, -32021, method);
    }
  });

  test("questions asked after the call went long wait in the task's inputRequests; tasks/update answers them", async () => {
    const created = await rpc('tools/call', { name: 'domain-reload', arguments: {} });
    const taskId = created.result?.['taskId'] as string;
    const waiting = await untilStatus(taskId, ['input_required']);
    const requests = waiting['inputRequests'] as Record<string, { method: string; params: { message: string } }>;
    const [key] = Object.keys(requests);
    assert.equal(requests[key!]?.method, 'elicitation/create');
    assert.equal(requests[key!]?.params.message, 'Discard unsaved changes?');
    const malformed = await rpc('tasks/update', { taskId, inputResponses: { [key!]: { action: 'maybe' } } });
    assert.equal(malformed.error?.code, -32602, 'an answer that is no elicitation result is refused');
    const ack = await rpc('tasks/update', { taskId, inputResponses: { [key!]: { action: 'accept', content: { discard: true } }, unknown: { action: 'accept' } } });
    assert.deepEqual(Object.keys(ack.result ?? {}).sort(), ['_meta', 'resultType']);
    const done = await untilStatus(taskId, ['completed', 'failed', 'cancelled']);
    assert.equal(textOf(done['result']), 'Reloaded, changes discarded');
  });

  test('a tool that reports its own error completes its task with an isError result', async () => {
    const created = await rpc('tools/call', { name: 'import-assets', arguments: {} });
    const done = await untilStatus(created.result?.['taskId'] as string, ['completed', 'failed', 'cancelled']);
    assert.equal(done['status'], 'completed');
    assert.equal((done['result'] as { isError?: boolean }).isError, true);
    assert.match(textOf(done['result']), /Import failed: 3 textures are missing\./);
    assert.equal('error' in done, false);
  });

  test('a plugin whose answer cannot be read fails the task with a JSON-RPC error; a plain call still gets an isError result', async () => {
    const created = await rpc('tools/call', { name: 'render-preview', arguments: {} });
    const failed = await untilStatus(created.result?.['taskId'] as string, ['completed', 'failed', 'cancelled']);
    assert.equal(failed['status'], 'failed');
    assert.equal('result' in failed, false, 'a failed task carries no result');
    const error = failed['error'] as { code: number; message: string; data: { code: string } };
    assert.equal(error.code, -32603);
    assert.equal(error.data.code, 'InternalError');
    assert.match(error.message, /render-preview.*malformed.*not base64/);
    const plain = await rpc('tools/call', { name: 'render-preview', arguments: {} }, { tasks: false });
    assert.equal(plain.result?.['isError'], true, 'without the extension the call is answered as McpPlugin.Server answers it');
  });

  test('an editor that disconnects while its task runs fails the task as PluginUnavailable', async () => {
    const editor = createPlugin({ name: 'crashing-runtime', version: '1.0.0', role: 'runtime', endpoint: `${junction.baseUrl}/hub/mcp-server` });
    let started: (() => void) | undefined;
    const running = new Promise<void>((resolve) => (started = resolve));
    editor.tool({
      name: 'rebuild-navmesh',
      description: 'Rebuilds the navmesh; long.',
      input: z.object({}),
      taskSupport: 'optional',
      handler: async (_args, ctx) => {
        ctx.processing('Rebuilding');
        started!();
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        return 'never read';
      },
    });
    await editor.connect();
    await eventually(async () => ((await rpc('tools/list', {})).result?.['tools'] as Array<{ name: string }>).some((t) => t.name === 'rebuild-navmesh'), 10_000, 'the runtime tool');
    const created = await rpc('tools/call', { name: 'rebuild-navmesh', arguments: {} });
    const taskId = created.result?.['taskId'] as string;
    await running;
    await editor.disconnect();
    const failed = await untilStatus(taskId, ['completed', 'failed', 'cancelled']);
    assert.equal(failed['status'], 'failed');
    const error = failed['error'] as { code: number; data: { code: string } };
    assert.equal(error.code, -32603);
    assert.equal(error.data.code, 'PluginUnavailable');
  });

  test("tasks/cancel cancels the plugin's call; another agent and an unknown id read as not found", async () => {
    const created = await rpc('tools/call', { name: 'bake-lighting', arguments: { scene: 'Cancelled' } });
    const taskId = created.result?.['taskId'] as string;
    const stranger = await rpc('tasks/get', { taskId }, { name: 'other-agent' });
    assert.equal(stranger.error?.code, -32602);
    assert.equal(stranger.error?.data?.['code'], 'TaskNotFound');
    assert.equal((await rpc('tasks/cancel', { taskId }, { name: 'other-agent' })).error?.code, -32602, 'nor may it cancel');
    assert.equal((await rpc('tasks/get', { taskId: 'no-such-task' })).error?.code, -32602);
    const ack = await rpc('tasks/cancel', { taskId });
    assert.equal(ack.result?.['resultType'], 'complete');
    assert.equal('status' in ack.result!, false);
    const ended = await untilStatus(taskId, ['completed', 'failed', 'cancelled']);
    assert.equal(ended['status'], 'cancelled');
    await eventually(() => cancelled.includes('Cancelled'), 5000, "the plugin's call aborted");
    assert.equal((await rpc('tasks/cancel', { taskId })).result?.['resultType'], 'complete', 'cancelling a finished task is acknowledged again');
  });
});
