/**
 * Live calls reads the audit trail: calls recorded by one Junction are listed, searched and filtered on
 * the server by the console of the next Junction on the same state directory, with secrets redacted.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { loadConfig } from '../../src-main/app/config/index.js';
import { startJunction, type Junction } from '../../src-main/app/junction.js';
import { createLogger } from '../../src-main/shared/log.js';
import { consoleE2eSkip, launchChromium, openLiveConsole, watchErrors } from './support/chromium.js';

// The bundle npm test builds first; rebuilding it here would race other e2e files serving the same folder.
const skip = consoleE2eSkip();
const SECRET = 'pw-SECRET-e2e-4711';

describe('console history survives a restart', { skip }, () => {
  let stateDir: string;
  let junction: Junction | undefined;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];

  const start = async (): Promise<Junction> => {
    const { config } = loadConfig(['port=0', `state-dir=${stateDir}`, `settings=${join(stateDir, 'settings.json')}`], {});
    return startJunction({ config, logger: createLogger('error', () => undefined) });
  };
  const post = (j: Junction, tool: string, body: unknown) => fetch(`${j.baseUrl}/api/tools/${tool}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

  before(async () => {
    stateDir = await mkdtemp(join(tmpdir(), 'junction-e2e-history-'));
    await writeFile(join(stateDir, 'settings.json'), '{}');
    const first = await start();
    for (let i = 0; i < 3; i++) assert.equal((await post(first, 'server-status', {})).status, 200);
    assert.equal((await post(first, 'no-such-tool', { password: SECRET })).status, 404);
    assert.equal((await post(first, 'no-such-tool', { attempt: 2 })).status, 404);
    await first.close();
    junction = await start();
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
    errors = watchErrors(page);
  });

  after(async () => {
    await browser?.close();
    await junction?.close();
    if (stateDir) await rm(stateDir, { recursive: true, force: true });
  });

  test('calls from before the restart are listed, searched and filtered on the server, with secrets redacted', async () => {
    await page.goto(junction!.consoleUrl);
    await page.getByTestId('connection').filter({ hasText: 'live' }).waitFor();
    await page.getByRole('tab', { name: 'Live calls' }).click();
    const rows = page.locator('.calls-window [role="row"]');
    await page.getByTestId('call-count').filter({ hasText: '5 shown · 0 in the live log' }).waitFor();
    assert.equal(await rows.filter({ hasText: 'server-status' }).count(), 3);

    await page.getByRole('searchbox').fill('NO-SUCH');
    await page.getByTestId('call-count').filter({ hasText: '2 shown · 0 in the live log' }).waitFor();
    assert.equal(await rows.filter({ hasText: 'server-status' }).count(), 0);

    await page.getByRole('searchbox').fill('');
    await page.getByRole('combobox', { name: 'Status' }).selectOption('ok');
    await page.getByTestId('call-count').filter({ hasText: '3 shown' }).waitFor();
    await page.getByRole('combobox', { name: 'Status' }).selectOption('error');
    await page.getByTestId('call-count').filter({ hasText: '2 shown' }).waitFor();

    await rows.filter({ hasText: 'no-such-tool' }).last().click();
    const args = page.getByLabel('Call arguments');
    await args.locator('mark.redacted').waitFor();
    assert.ok(!(await page.content()).includes(SECRET), 'the secret never reaches the page');
    assert.match((await page.getByText(/^Redacted: /).textContent()) ?? '', /\/arguments\/password/);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Export' }).click()]);
    const exported = await readFile(await download.path(), 'utf8');
    assert.ok(!exported.includes(SECRET), 'the downloaded export holds no secret');
    // The export follows the filter: the failed calls only.
    const lines = exported.trim().split('\n').map((l) => JSON.parse(l) as { type: string; tool?: string });
    assert.deepEqual(lines.map((l) => [l.type, l.tool]), [['call', 'no-such-tool'], ['call', 'no-such-tool']]);
    assert.deepEqual(errors, []);
  });
});

describe('console history with the audit trail off', { skip }, () => {
  test('Transactions says why no ended transaction is listed, with the full reason in its tooltip', async () => {
    const stateDir = await mkdtemp(join(tmpdir(), 'junction-e2e-audit-off-'));
    await writeFile(join(stateDir, 'settings.json'), '{}');
    const { config } = loadConfig(['port=0', 'audit=false', `state-dir=${stateDir}`, `settings=${join(stateDir, 'settings.json')}`], {});
    const junction = await startJunction({ config, logger: createLogger('error', () => undefined) });
    const browser = await launchChromium();
    try {
      const { page, errors } = await openLiveConsole(await browser.newContext({ viewport: { width: 1280, height: 800 } }), junction.consoleUrl);
      await page.getByRole('tab', { name: 'Transactions' }).click();
      const status = page.getByTestId('transaction-history-status');
      await status.waitFor();
      assert.equal(await status.textContent(), 'History unavailable');
      assert.match((await status.getAttribute('title')) ?? '', /audit trail is off \(audit=false\), so ended transactions are not kept/);
      assert.equal(await page.getByText('No committed or rolled-back transaction recorded yet.').count(), 0, 'not the empty-history words, which would claim nothing ended');
      assert.deepEqual(errors, []);
    } finally {
      await browser.close();
      await junction.close();
      await rm(stateDir, { recursive: true, force: true });
    }
  });
});
