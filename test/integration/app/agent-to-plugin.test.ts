import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { startScenePlugin, type RunningScenePlugin } from '../../../plugins/examples/scene/plugin.js';
import { CLI_SOURCE_FOR_TESTS } from '../../support/cli.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';

type StructuredError = { error: { code: string; message: string } };

describe('an agent reaches a live SDK plugin through Junction', () => {
  let junction: TestJunction;
  let editor: RunningScenePlugin;
  let runtime: RunningScenePlugin;

  before(async () => {
    junction = await startTestJunction();
    const endpoint = `${junction.baseUrl}/hub/mcp-server`;
    editor = await startScenePlugin({ endpoint, role: 'editor', name: 'scene-editor' });
    runtime = await startScenePlugin({ endpoint, role: 'runtime', name: 'scene-runtime' });
  });
  after(async () => {
    await Promise.allSettled([editor.stop(), runtime.stop()]);
    await junction.stop();
  });

  test('over streamable HTTP: host and plugin tools in one catalogue; results and structured errors round-trip', async () => {
    const agent = await junction.connectAgent();
    const names = await eventually(async () => {
      const { tools } = await agent.listTools();
      const set = new Set(tools.map((t) => t.name));
      return set.has('add-object') && set.has('simulate-step') ? set : undefined;
    }, 10_000, 'plugin tools in the catalogue');
    assert.ok(names.has('server-status'), 'host tools are listed alongside plugin tools');

    const added = await agent.callTool({ name: 'add-object', arguments: { name: 'Cube A', kind: 'cube' } });
    assert.equal(added.isError, undefined);
    const object = (added.structuredContent as { object: { id: string; name: string } }).object;
    assert.equal(object.name, 'Cube A');
    assert.equal(editor.scene.list(10).items.length, 1, 'the editor served the call');
    assert.equal(runtime.scene.list(10).items.length, 0, 'the runtime did not');

    const missing = await agent.callTool({ name: 'remove-object', arguments: { id: 'nope' } });
    assert.equal(missing.isError, true);
    const error = (missing.structuredContent as StructuredError).error;
    assert.match(error.message, /No object with id 'nope'/);

    const stepped = await agent.callTool({ name: 'simulate-step', arguments: { steps: 2 } });
    assert.equal(stepped.isError, undefined, 'runtime-only tools are routed to the runtime');
  });

  test('over stdio through `junction connect` relaying to the running instance', async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [...CLI_SOURCE_FOR_TESTS, 'connect', '--port', String(junction.port), 'log-level=error'],
      stderr: 'pipe',
    });
    const agent = new Client({ name: 'stdio-agent', version: '1.0.0' });
    await agent.connect(transport);
    try {
      const { tools } = await agent.listTools();
      assert.ok(tools.some((t) => t.name === 'list-objects'));
      const listed = await agent.callTool({ name: 'list-objects', arguments: { limit: 5 } });
      assert.equal(listed.isError, undefined);
      assert.ok(Array.isArray((listed.structuredContent as { items: unknown[] }).items));
      const refused = await agent.callTool({ name: 'add-object', arguments: { name: 'x', kind: 'teapot' } });
      assert.equal(refused.isError, true, 'argument validation failures survive the stdio relay');
      assert.equal((refused.structuredContent as StructuredError).error.code, 'InvalidArguments');
    } finally {
      await agent.close();
    }
  });

  test('the direct HTTP API reaches the same plugin with the documented statuses', async () => {
    const post = async (name: string, body: unknown) => {
      const response = await fetch(`${junction.baseUrl}/api/tools/${name}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      return { status: response.status, body: (await response.json()) as Record<string, unknown> };
    };
    const ok = await post('add-object', { name: 'Lamp', kind: 'light' });
    assert.equal(ok.status, 200);
    const thrown = await post('remove-object', { id: 'missing' });
    assert.equal(thrown.status, 422);
    assert.match((thrown.body as StructuredError).error.message, /^Tool execution failed for 'remove-object': No object with id 'missing'/);
    const binding = await post('add-object', { kind: 'cube' });
    assert.equal(binding.status, 400);
    assert.equal((binding.body as StructuredError).error.code, 'InvalidArguments');
    const unknown = await post('no-such-tool', {});
    assert.equal(unknown.status, 404);
  });
});
