/**
 * TypeScript and its language service (about 55 MB resident) load when the first workspace opens:
 * a Junction that only bridges plugins answers calls without them.
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

test('TypeScript stays unloaded while no workspace is open and loads when one opens', async () => {
  const dir = await mkdtemp(join(tmpdir(), 'junction-lazy-ts-'));
  await writeFile(join(dir, 'a.ts'), 'export const a: number = "one";\n');
  const junction = await startTestJunction(['demo=false']);
  try {
    const status = await fetch(`${junction.baseUrl}/api/tools/server-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(status.status, 200);
    await status.arrayBuffer();
    assert.equal(typescriptLoaded(), false, 'started and answered a call without TypeScript');

    await junction.control.openWorkspace(dir, { trusted: true });
    assert.equal(typescriptLoaded(), true);
    const diagnostics = await fetch(`${junction.baseUrl}/api/tools/diagnostics`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    const body = JSON.stringify(await diagnostics.json());
    assert.equal(diagnostics.status, 200, body);
    assert.match(body, /TS2322/, 'the language service runs once loaded');
  } finally {
    await junction.stop();
    await rm(dir, { recursive: true, force: true });
  }
});
