/**
 * TypeScript and its language service (about 45 MB resident) load when a workspace first needs them:
 * a Junction that only bridges plugins, or that opens a workspace and reads it, answers without them,
 * and the first tool that needs the compiler loads it and answers as before.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startTestJunction } from '../../support/junction-harness.js';

/** TypeScript is CommonJS, so once anything imports it, its files sit in the CommonJS module cache. */
const typescriptLoaded = () => Object.keys(createRequire(import.meta.url).cache).some((file) => /[\\/]node_modules[\\/]typescript[\\/]/.test(file));

test('TypeScript stays unloaded until a tool needs the compiler, then loads and serves it', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'junction-lazy-ts-'));
  await writeFile(join(dir, 'a.ts'), 'export const a: number = "one";\n');
  const junction = await startTestJunction(['demo=false']);
  try {
    const status = await fetch(`${junction.baseUrl}/api/tools/server-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(status.status, 200);
    await status.arrayBuffer();
    assert.equal(typescriptLoaded(), false, 'started and answered a call without TypeScript');

    await junction.control.openWorkspace({ root: dir, trusted: true });
    const read = await fetch(`${junction.baseUrl}/api/tools/document-read`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ path: 'a.ts' }) });
    assert.equal(read.status, 200, await read.text());
    assert.equal(typescriptLoaded(), false, 'opened a workspace and read a document without TypeScript');

    const diagnostics = await fetch(`${junction.baseUrl}/api/tools/diagnostics`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const body = JSON.stringify(await diagnostics.json());
    assert.equal(diagnostics.status, 200, body);
    assert.match(body, /TS2322/, 'the language service runs once loaded');
    assert.equal(typescriptLoaded(), true);
  } finally {
    await junction.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
