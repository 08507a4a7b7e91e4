/**
 * The console against the real composition root: `startJunction` with the demo workspace and the
 * example scene plugins connected over the real hub, an agent call over POST /api/tools, and the
 * built bundle served from its real location.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '../../src-main/app/config/index.js';
import { startDemo, type RunningDemo } from '../../src-main/app/cli/demo.js';
import { startJunction, type Junction } from '../../src-main/app/junction.js';
import { createLogger } from '../../src-main/shared/log.js';
import { consoleE2eSkip, launchChromium, watchErrors } from './support/chromium.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

describe('console on a running Junction', { skip: consoleE2eSkip() }, () => {
  let stateDir: string;
  let junction: Junction;
  let demo: RunningDemo;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];

  before(async () => {
    // startJunction serves the bundle from src-renderer/dist, which npm test builds before any test runs.
    stateDir = await mkdtemp(join(tmpdir(), 'junction-e2e-state-'));
    await writeFile(join(stateDir, 'settings.json'), '{}');
    const { config } = loadConfig(['port=0', `state-dir=${stateDir}`, `settings=${join(stateDir, 'settings.json')}`], {});
    const logger = createLogger('error', () => undefined);
    junction = await startJunction({ config, logger });
    demo = await startDemo(junction, logger);
    await mkdir(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    errors = watchErrors(page);
  });

  after(async () => {
    await browser?.close();
    await demo?.stop();
    await junction?.close();
    if (stateDir) await rm(stateDir, { recursive: true, force: true });
  });

  test('the printed console URL opens a live console showing the real plugins, workspace, calls and bridge', async () => {
    await page.goto(junction.consoleUrl);
    await page.getByTestId('connection').filter({ hasText: 'live' }).waitFor();
    // The demo's editor and runtime are one project, named demo-scene.
    await page.getByTestId('plugin-row').filter({ hasText: 'demo-scene' }).filter({ hasText: 'editor' }).first().waitFor();
    await page.getByTestId('plugin-row').filter({ hasText: 'demo-scene' }).filter({ hasText: 'runtime' }).first().waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}junction-plugins.png`, fullPage: true });

    const response = await fetch(`${junction.baseUrl}/api/tools/server-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    assert.equal(response.status, 200);
    await page.getByRole('tab', { name: 'Live calls' }).click();
    await page.locator('.calls-window [role="row"]', { hasText: 'server-status' }).first().waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}junction-calls.png`, fullPage: true });

    await page.getByRole('tab', { name: 'Transactions' }).click();
    await page.getByRole('combobox', { name: 'Workspace' }).waitFor();
    await page.getByRole('tab', { name: 'Bridge' }).click();
    await page.getByText(`${junction.baseUrl}/hub/mcp-server`).waitFor();
    await page.getByRole('tab', { name: 'Recovery' }).click();
    await page.getByRole('heading', { level: 2, name: 'Recovery' }).waitFor();
    assert.deepEqual(errors, []);
  });
});
