/**
 * The host's own prompt and resource template, through a real Junction and the real SDK client:
 * completion of workspace paths (from the current snapshot, bounded at 100) and of tool names (as the
 * agent's catalogue has them), reading workspace files, and updates when a staged edit changes one.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';

const TEMPLATE = 'junction://workspace/{workspace}/file/{+path}';
const MANY = 120;

describe('host completions: workspace paths and tool names', () => {
  let root: string;
  let workspace: string;
  let junction: TestJunction;
  let agent: Client;
  const updated: string[] = [];

  const completePath = async (value: string, context?: Record<string, string>) =>
    (await agent.complete({ ref: { type: 'ref/resource', uri: TEMPLATE }, argument: { name: 'path', value }, ...(context ? { context: { arguments: context } } : {}) })).completion;
  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await agent.callTool({ name, arguments: args });
    assert.notEqual(result.isError, true, JSON.stringify(result.structuredContent));
    return result.structuredContent as Record<string, unknown>;
  };

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'junction-host-content-'));
    workspace = join(root, 'shop');
    await mkdir(join(workspace, 'src', 'many'), { recursive: true });
    await writeFile(join(workspace, 'src', 'alpha.ts'), 'export const alpha = 1;\n');
    await writeFile(join(workspace, 'src', 'apple.ts'), 'export const apple = 2;\n');
    await writeFile(join(workspace, 'src', 'beta.ts'), 'export const beta = 3;\n');
    for (let i = 0; i < MANY; i++) await writeFile(join(workspace, 'src', 'many', `m${String(i).padStart(3, '0')}.ts`), `export const m${i} = ${i};\n`);
    junction = await startTestJunction([`workspace=${workspace}`, `state-dir=${join(root, 'state')}`]);
    agent = await junction.connectAgent();
    agent.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => void updated.push(n.params.uri));
  });
  after(async () => {
    await junction.stop();
    await rm(root, { recursive: true, force: true });
  });

  test('the host publishes the workspace-file template and the use-tool prompt', async () => {
    const templates = (await agent.listResourceTemplates()).resourceTemplates;
    assert.ok(templates.some((t) => t.uriTemplate === TEMPLATE));
    const prompt = (await agent.listPrompts()).prompts.find((p) => p.name === 'use-tool');
    assert.deepEqual(prompt?.arguments?.map((a) => a.name), ['tool']);
  });

  test('paths complete by prefix from the current snapshot; the workspace argument completes to open workspaces', async () => {
    assert.deepEqual(await completePath('src/a'), { values: ['src/alpha.ts', 'src/apple.ts'], total: 2, hasMore: false });
    assert.deepEqual(await completePath('src/al', { workspace: 'shop' }), { values: ['src/alpha.ts'], total: 1, hasMore: false });
    assert.deepEqual(await completePath('nothing/'), { values: [], total: 0, hasMore: false });
    assert.deepEqual(await completePath('src/a', { workspace: 'no-such-workspace' }), { values: [], total: 0, hasMore: false }, 'completion is advisory');
    const workspaces = await agent.complete({ ref: { type: 'ref/resource', uri: TEMPLATE }, argument: { name: 'workspace', value: 'sh' } });
    assert.deepEqual(workspaces.completion.values, [basename(workspace)]);
  });

  test('at most 100 values, with total and hasMore telling the rest', async () => {
    const many = await completePath('src/many/');
    assert.equal(many.values.length, 100);
    assert.equal(many.total, MANY);
    assert.equal(many.hasMore, true);
    assert.deepEqual(many.values.slice(0, 2), ['src/many/m000.ts', 'src/many/m001.ts'], 'sorted');
    assert.ok(many.values.every((v) => v.startsWith('src/many/')));
  });

  test("tool names complete from the agent's catalogue; use-tool explains the tool", async () => {
    const names = (await agent.listTools()).tools.map((t) => t.name);
    const completed = await agent.complete({ ref: { type: 'ref/prompt', name: 'use-tool' }, argument: { name: 'tool', value: 'transaction-' } });
    const expected = names.filter((n) => n.startsWith('transaction-')).sort();
    assert.ok(expected.includes('transaction-start') && expected.includes('transaction-commit'), 'the transactional mode publishes the transaction tools');
    assert.deepEqual(completed.completion, { values: expected, total: expected.length, hasMore: false });

    const prompt = await agent.getPrompt({ name: 'use-tool', arguments: { tool: 'document-read' } });
    const content = prompt.messages[0]?.content;
    assert.ok(content?.type === 'text' && content.text.includes("'document-read'") && content.text.includes('"path"'));
    await assert.rejects(
      agent.getPrompt({ name: 'use-tool', arguments: { tool: 'no-such-tool' } }),
      (error: unknown) => error instanceof McpError && (error.data as { code?: string }).code === 'ToolNotFound',
    );
  });

  test('a workspace file reads from the snapshot; a subscriber hears when a staged edit changes it', async () => {
    const uri = `junction://workspace/shop/file/src/alpha.ts`;
    const read = await agent.readResource({ uri });
    assert.deepEqual(read.contents, [{ uri, mimeType: 'text/plain', text: await readFile(join(workspace, 'src', 'alpha.ts'), 'utf8') }]);
    await assert.rejects(
      agent.readResource({ uri: 'junction://workspace/shop/file/src/missing.ts' }),
      (error: unknown) => error instanceof McpError && (error.data as { code?: string }).code === 'DocumentNotFound',
    );

    await agent.subscribeResource({ uri });
    await agent.subscribeResource({ uri: 'junction://workspace/shop/file/src/beta.ts' });
    const status = (await call('workspace-status', {})) as { items: Array<{ snapshot: unknown }> };
    const started = await call('transaction-start', { expectedSnapshot: status.items[0]!.snapshot });
    await call('stage-edits', {
      expectedSnapshot: started.snapshot,
      summary: 'touch alpha',
      changes: [{ kind: 'edit', path: 'src/alpha.ts', edits: [{ range: { start: { offset: 0 }, end: { offset: 0 } }, newText: '// staged\n' }] }],
    });
    await eventually(() => updated.length > 0, 5_000, 'the update for alpha');
    assert.deepEqual(updated, [uri], 'only the changed file is announced');
    assert.match(((await agent.readResource({ uri })).contents[0] as { text: string }).text, /^\/\/ staged\n/);

    await agent.unsubscribeResource({ uri });
    await agent.unsubscribeResource({ uri: 'junction://workspace/shop/file/src/beta.ts' });
    assert.equal(junction.mcpFactory.subscriptionCount(), 0);
  });
});
