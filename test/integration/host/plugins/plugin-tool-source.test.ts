import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { getEventListeners } from 'node:events';
import { fileURLToPath } from 'node:url';
import { ToolListChangedNotificationSchema, type CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createPluginToolSource, loadPlugins, type PluginCatalogue } from '../../../../src-main/host/plugins/index.js';
import { connectInMemory, type InMemoryMcp as McpHarness } from '../../../support/mcp-in-memory.js';
import { MemoryWorkspace } from './support/memory-workspace.js';

const directory = fileURLToPath(new URL('../../../fixtures/plugins/valid/', import.meta.url));

const files = {
  'src/a.ts': '// TODO: first\nconst a = 1; // FIXME second\n',
  'src/b.ts': 'export const b = 2;\n// HACK: third\n// TODO fourth\n',
  'lib/c.ts': '// TODO: fifth\n',
};

type Structured = Record<string, unknown> & { error?: { code: string; next?: { kind: string } } };
const structured = (r: unknown) => (r as CallToolResult).structuredContent as Structured;

describe('plugin tools through an MCP client', () => {
  let catalogue: PluginCatalogue;
  let workspace: MemoryWorkspace;
  let harness: McpHarness;
  let mutations = true;
  let source: ReturnType<typeof createPluginToolSource>;

  before(async () => {
    catalogue = await loadPlugins({ directory });
    workspace = new MemoryWorkspace(files);
    source = createPluginToolSource({ catalogue, createContext: workspace.createContext, stage: workspace.stage, mutationsEnabled: () => mutations });
    harness = await connectInMemory([source]);
  });
  after(async () => {
    await harness.close();
  });

  test('tools/list publishes request schemas with required, optional, nullable and defaults kept distinct', async () => {
    const { tools } = await harness.client.listTools();
    const todo = tools.find((t) => t.name === 'todo-comments')!;
    const props = todo.inputSchema.properties as Record<string, Record<string, unknown>>;
    assert.equal(props.limit!.default, 50);
    assert.equal(props.tags!.default, null);
    assert.ok((props.tags!.anyOf as Array<{ type: string }>).some((b) => b.type === 'null'));
    assert.ok(props.pathPrefix && props.expectedSnapshot && props.workspace);
    assert.deepEqual(todo.inputSchema.required ?? [], []);
    assert.equal(todo.outputSchema?.type, 'object');
    assert.equal(todo.annotations?.readOnlyHint, true);
    const header = tools.find((t) => t.name === 'add-file-header')!;
    assert.deepEqual([...(header.inputSchema.required ?? [])].sort(), ['expectedSnapshot', 'header', 'path']);
    assert.equal(header.outputSchema, undefined);
  });

  test('a bounded query returns exactly limit items with hasMore, and zero returns none', async () => {
    const two = structured(await harness.client.callTool({ name: 'todo-comments', arguments: { limit: 2 } }));
    assert.deepEqual(two.comments, {
      items: [
        { path: 'lib/c.ts', line: 0, column: 0, tag: 'TODO', text: 'fifth' },
        { path: 'src/a.ts', line: 0, column: 0, tag: 'TODO', text: 'first' },
      ],
      hasMore: true,
    });
    const zero = structured(await harness.client.callTool({ name: 'todo-comments', arguments: { limit: 0 } }));
    assert.deepEqual(zero.comments, { items: [], hasMore: true });
    const all = structured(await harness.client.callTool({ name: 'todo-comments', arguments: { limit: null, pathPrefix: 'src/', tags: ['TODO', 'HACK'] } }));
    assert.deepEqual((all.comments as { items: Array<{ text: string }> }).items.map((i) => i.text), ['first', 'third', 'fourth']);
    assert.equal((all.comments as { hasMore: boolean }).hasMore, false);
  });

  test('invalid arguments fail binding before any context is acquired', async () => {
    const before = workspace.contextsAcquired;
    const result = await harness.client.callTool({ name: 'todo-comments', arguments: { limit: -1, tags: ['NOTE'] } });
    assert.equal(result.isError, true);
    const error = structured(result).error as { code: string; next: { kind: string }; details: { issues: Array<{ path: string }> } };
    assert.equal(error.code, 'InvalidArguments');
    assert.equal(error.next.kind, 'fixArguments');
    assert.deepEqual(error.details.issues.map((i) => i.path).sort(), ['limit', 'tags.0']);
    assert.equal(workspace.contextsAcquired, before);
  });

  test('a mutation hands its candidate to stage and returns the staged result', async () => {
    const expectedSnapshot = { ...workspace.identity };
    const result = await harness.client.callTool({ name: 'add-file-header', arguments: { path: 'lib/c.ts', header: 'Copyright Junction', expectedSnapshot } });
    assert.equal(result.isError, undefined);
    assert.equal(workspace.text('lib/c.ts'), '// Copyright Junction\n// TODO: fifth\n');
    assert.equal(workspace.staged.at(-1)!.pluginId, 'examples.add-file-header');
    assert.deepEqual(structured(result).changedPaths, ['lib/c.ts']);
    assert.equal(workspace.contextsAcquired, workspace.contextsReleased);
  });

  test('a mutation against a stale snapshot fails with SnapshotMismatch and stages nothing', async () => {
    const stale = { ...workspace.identity, snapshotId: '00000000-0000-4000-8000-000000000000' };
    const count = workspace.staged.length;
    const result = await harness.client.callTool({ name: 'add-file-header', arguments: { path: 'src/a.ts', header: 'x', expectedSnapshot: stale } });
    assert.equal(structured(result).error!.code, 'SnapshotMismatch');
    assert.equal(workspace.staged.length, count);
  });

  test('a mutation without expectedSnapshot is a binding failure', async () => {
    const outcome = await source.callTool('add-file-header', { path: 'src/a.ts', header: 'x' }, { callId: 'c', agent: 't', transport: 'http-api', signal: new AbortController().signal });
    assert.equal(outcome.error?.kind, 'binding');
    assert.equal(structured(outcome.result).error!.code, 'InvalidArguments');
  });

  test('a resolver failure keeps its host error code', async () => {
    const result = await harness.client.callTool({ name: 'add-file-header', arguments: { path: 'missing.ts', header: 'x', expectedSnapshot: { ...workspace.identity } } });
    assert.equal(structured(result).error!.code, 'DocumentNotFound');
    assert.equal(workspace.contextsAcquired, workspace.contextsReleased);
  });

  test('handler faults become ToolFailed: a thrown error and a response its schema rejects', async () => {
    const thrown = await source.callTool('always-throws', {}, { callId: 'c', agent: 't', transport: 'http-api', signal: new AbortController().signal });
    assert.equal(thrown.error?.kind, 'thrown');
    assert.equal(structured(thrown.result).error!.code, 'ToolFailed');
    const wrong = await harness.client.callTool({ name: 'wrong-response', arguments: {} });
    assert.equal(structured(wrong).error!.code, 'ToolFailed');
  });

  test('the per-invocation cache coalesces concurrent misses and never caches a failure', async () => {
    const result = structured(await harness.client.callTool({ name: 'cache-probe', arguments: { callers: 8 } }));
    assert.deepEqual(result, { concurrentRuns: 1, distinctValues: 1, retryRuns: 2, retried: 'second attempt' });
  });

  test('with mutations disabled the mutation tools are neither listed nor callable', async () => {
    mutations = false;
    const changed = new Promise<void>((resolve) => harness.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()));
    source.notifyToolsChanged();
    await changed;
    try {
      const { tools } = await harness.client.listTools();
      assert.equal(tools.some((t) => t.name === 'add-file-header'), false);
      assert.ok(tools.some((t) => t.name === 'todo-comments'));
      const refused = await harness.client.callTool({ name: 'add-file-header', arguments: { path: 'src/a.ts', header: 'x', expectedSnapshot: { ...workspace.identity } } }).then(
        () => assert.fail('an unlisted tool must not run'),
        (error: unknown) => error as { code: number; data: { code: string } },
      );
      assert.equal(refused.code, -32602, 'an unknown tool is a JSON-RPC invalid-params error');
      assert.equal(refused.data.code, 'ToolNotFound');
    } finally {
      mutations = true;
    }
  });
});

test('output schemas are omitted in omit mode', async () => {
  const catalogue = await loadPlugins({ directory });
  const workspace = new MemoryWorkspace(files);
  const source = createPluginToolSource({ catalogue, createContext: workspace.createContext, stage: workspace.stage, outputSchema: 'omit' });
  assert.ok(source.listTools().length > 0);
  assert.ok(source.listTools().every((t) => t.outputSchema === undefined));
});

describe("plugin tools and the caller's cancellation signal", () => {
  test("each call hands plugin code a signal of its own that follows the caller's and is detached when the call ends", async () => {
    const catalogue = await loadPlugins({ directory });
    const workspace = new MemoryWorkspace(files);
    const handed: AbortSignal[] = [];
    const source = createPluginToolSource({
      catalogue,
      createContext: (request) => {
        handed.push(request.signal);
        return workspace.createContext(request);
      },
      stage: workspace.stage,
      mutationsEnabled: () => true,
    });
    // One signal for many calls, as a kept-alive HTTP connection's is.
    const connection = new AbortController();
    const context = { callId: 'c', agent: 'a', agentName: 'a', transport: 'http-api' as const, signal: connection.signal };
    for (let i = 0; i < 20; i++) assert.equal((await source.callTool('todo-comments', { limit: 1 }, { ...context, callId: `c${i}` })).error, undefined);
    assert.equal(new Set(handed).size, 20, 'a signal per call');
    assert.ok(!handed.includes(connection.signal));
    assert.ok(getEventListeners(connection.signal, 'abort').length <= 1, 'finished calls leave no listener of their own on the shared signal');
    connection.abort();
    assert.ok(handed.every((signal) => !signal.aborted), 'finished calls are detached');
    await source.callTool('todo-comments', { limit: 1 }, { ...context, callId: 'late' });
    assert.equal(handed.at(-1)?.aborted, true, "a call made after the caller's signal aborted sees it aborted");
  });
});
