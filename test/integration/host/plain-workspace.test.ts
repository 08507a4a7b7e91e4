import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createHost } from '../../../src-main/host/index.js';
import { unusedJournal } from '../../unit/host/catalogue.js';
import { connectInMemory } from '../../support/mcp-in-memory.js';
import { call } from './fixtures.js';

test('a directory without tsconfig.json opens with default options and JS documents', async () => {
  const host = createHost({ mode: 'inspection-only', toolOutputSchema: 'publish', journal: unusedJournal, watch: false });
  const mcp = await connectInMemory([host.toolSource]);
  // A temp copy, so type resolution does not wander into the repository's own node_modules/@types.
  const dir = await mkdtemp(join(tmpdir(), 'junction-plain-'));
  const root = join(dir, 'plain-js');
  await cp(join(import.meta.dirname, '../../fixtures/workspaces/plain-js'), root, { recursive: true });
  try {
    const opened = await call(mcp, 'workspace-open', { root });
    assert.equal(opened.isError, false, JSON.stringify(opened.value));
    const ws = opened.value.workspace as { compilerOptionsFrom: string; documentCount: number; trusted: boolean };
    assert.equal(ws.compilerOptionsFrom, 'defaults');
    assert.equal(ws.documentCount, 2);
    assert.equal(ws.trusted, false);
    const symbols = await call(mcp, 'find-symbols', { query: 'greet' });
    assert.deepEqual((symbols.value.items as Array<{ path: string }>).map((s) => s.path), ['lib/greet.js']);
    const again = await call(mcp, 'workspace-open', { root: `${root}/` });
    assert.equal(again.value.opened, false);
  } finally {
    await mcp.close();
    host.close();
    await rm(dir, { recursive: true, force: true });
  }
});

test('workspace-open trusts a directory under a configured trusted root, and only there', async () => {
  const fixtures = join(import.meta.dirname, '../../fixtures/workspaces');
  const host = createHost({ mode: 'transactional', toolOutputSchema: 'omit', journal: unusedJournal, watch: false, trustedRoots: [fixtures] });
  const other = createHost({ mode: 'transactional', toolOutputSchema: 'omit', journal: unusedJournal, watch: false, trustedRoots: [join(fixtures, 'elsewhere')] });
  try {
    assert.equal((await host.openWorkspace(join(fixtures, 'plain-js'), { trusted: false })).trusted, true);
    assert.equal((await other.openWorkspace(join(fixtures, 'plain-js'), { trusted: false })).trusted, false);
  } finally {
    host.close();
    other.close();
  }
});
