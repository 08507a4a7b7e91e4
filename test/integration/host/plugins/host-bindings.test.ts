import { describe, test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { createHost, modePolicy, type Host, type HostJournal } from '../../../../src-main/host/index.js';
import { createPluginToolSource, hostPluginBindings, loadPlugins } from '../../../../src-main/host/plugins/index.js';
import { connectInMemory, type InMemoryMcp as McpHarness } from '../../../support/mcp-in-memory.js';

const directory = fileURLToPath(new URL('../../../fixtures/plugins/valid/', import.meta.url));

const files: Record<string, string> = {
  'tsconfig.json': JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'ESNext', moduleResolution: 'Bundler', strict: true, noEmit: true, types: [] } }),
  'src/shapes.ts': 'export interface Shape {\n  area(): number;\n}\n\nexport class Square implements Shape {\n  area(): number {\n    return 4;\n  }\n}\n',
  'src/more.ts': "import { Square, type Shape } from './shapes';\n\nexport class Cube extends Square {}\nexport interface Solid extends Shape {}\nexport const s: Shape = new Cube();\n// TODO: more shapes\n",
};

const refusingJournal: HostJournal = {
  commit: () => Promise.reject(new Error('these tests never commit')),
  status: () => ({ stateDir: '', healthy: true, entries: [] }),
  blockedWorkspaces: () => [],
};

type Structured = Record<string, unknown> & { error?: { code: string } };

describe('plugin tools bound to a real host', () => {
  let root: string;
  let host: Host;
  let harness: McpHarness;
  const call = async (name: string, args: Record<string, unknown>) => (await harness.client.callTool({ name, arguments: args })) as CallToolResult & { structuredContent?: Structured };
  const identity = () => host.extensions.workspaces.resolve(undefined).identity();

  before(async () => {
    root = await mkdtemp(join(tmpdir(), 'junction-plugin-host-'));
    await mkdir(join(root, 'src'));
    for (const [path, text] of Object.entries(files)) await writeFile(join(root, path), text);
    host = createHost({ mode: 'transactional', toolOutputSchema: 'publish', journal: refusingJournal, watch: false });
    await host.openWorkspace(root, { trusted: true });
    const hostNames = host.toolSource.listTools().map((t) => t.name);
    const catalogue = await loadPlugins({ directory, reservedToolNames: hostNames });
    const plugins = createPluginToolSource({ catalogue, ...hostPluginBindings(host), mutationsEnabled: () => modePolicy('transactional').mutations });
    host.provideStatus('plugins', () => plugins.pluginDiagnostics());
    harness = await connectInMemory([host.toolSource, plugins]);
  });
  after(async () => {
    await harness.close();
    host.close();
    await rm(root, { recursive: true, force: true });
  });

  test('a query plugin reads the real snapshot', async () => {
    const result = await call('todo-comments', {});
    assert.deepEqual(result.structuredContent!.comments, { items: [{ path: 'src/more.ts', line: 5, column: 0, tag: 'TODO', text: 'more shapes' }], hasMore: false });
  });

  test('analysis services find references and derived types with distances', async () => {
    const offset = files['src/shapes.ts']!.indexOf('Shape');
    const result = await call('symbol-insight', { path: 'src/shapes.ts', offset });
    assert.equal(result.isError, undefined, JSON.stringify(result.structuredContent));
    const derived = (result.structuredContent!.derived as { items: Array<{ name: string; distance: number }> }).items;
    assert.deepEqual(derived.map((d) => [d.name, d.distance]), [['Solid', 1], ['Square', 1], ['Cube', 2]]);
    const refs = result.structuredContent!.references as { items: Array<{ path: string; isDefinition: boolean }>; totalCount: number };
    assert.equal(refs.items.filter((r) => r.isDefinition).length, 1);
    assert.ok(refs.items.some((r) => r.path === 'src/more.ts'));
  });

  test('a mutation plugin stages through the host transaction, and only inside one', async () => {
    const args = { path: 'src/shapes.ts', header: 'Shapes.' };
    const without = await call('add-file-header', { ...args, expectedSnapshot: identity() });
    assert.equal(without.structuredContent!.error!.code, 'TransactionRequired');
    const started = await call('transaction-start', { expectedSnapshot: identity() });
    assert.equal(started.isError, undefined, JSON.stringify(started.structuredContent));
    const staged = await call('add-file-header', { ...args, expectedSnapshot: identity() });
    assert.equal(staged.isError, undefined, JSON.stringify(staged.structuredContent));
    assert.equal(identity().transactionRevision, 1);
    assert.ok(host.extensions.workspaces.resolve(undefined).snapshot().get('src/shapes.ts')!.text.startsWith('// Shapes.\nexport interface Shape'));
    const stale = await call('add-file-header', { path: 'src/more.ts', header: 'x', expectedSnapshot: { ...identity(), transactionRevision: 0 } });
    assert.equal(stale.structuredContent!.error!.code, 'SnapshotMismatch');
  });
});
