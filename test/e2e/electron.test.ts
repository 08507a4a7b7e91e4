/**
 * The Electron shell with Playwright's `_electron`: runs only where the Electron binary was installed,
 * and reports itself skipped with the reason everywhere else.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rm } from 'node:fs/promises';
import { dirname } from 'node:path';
import { _electron } from 'playwright-core';
import { findElectronBinary } from '../../src-main/app/cli/electron-binary.js';
import { buildElectronEntry } from './support/build-electron.js';
import { buildRenderer } from './support/build-renderer.js';

test('the Electron window shows the console over IPC, isolated from Node', async (t) => {
  const binary = findElectronBinary();
  if (!binary.found) {
    t.skip('electron binary not installed');
    return;
  }
  const rendererDir = await buildRenderer();
  const entry = await buildElectronEntry();
  const app = await _electron.launch({
    executablePath: binary.path,
    args: [entry.main],
    env: { ...process.env, JUNCTION_RENDERER_DIR: rendererDir, JUNCTION_PRELOAD: entry.preload },
  });
  try {
    const page = await app.firstWindow();
    await page.getByTestId('connection').filter({ hasText: 'live' }).waitFor();
    await page.getByText('Unity Editor').waitFor();
    const isolation = await page.evaluate(() => ({
      bridge: typeof window.junction?.invoke,
      require: typeof (globalThis as { require?: unknown }).require,
      process: typeof (globalThis as { process?: unknown }).process,
    }));
    assert.deepEqual(isolation, { bridge: 'function', require: 'undefined', process: 'undefined' });
    const opened = await page.evaluate(() => window.open('https://example.com') === null);
    assert.equal(opened, true);
    assert.equal(app.windows().length, 1);
  } finally {
    await app.close();
    await rm(rendererDir, { recursive: true, force: true });
    await rm(dirname(entry.main), { recursive: true, force: true });
  }
});
