/**
 * The console's acceptance path on the real stack: a real SDK plugin and a real MCP agent drive
 * traffic into startJunction in approval-required mode, and the operator acts in Chromium. The state
 * directory starts with an interrupted commit (a frozen format-1 fixture), so recovery has work to show.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, readFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { startScenePlugin, type RunningScenePlugin } from '../../plugins/examples/scene/plugin.js';
import { DEMO_WORKSPACE_DIR } from '../../src-main/app/paths.js';
import { copyFixture, type Sandbox } from '../integration/recovery/helpers.js';
import { eventually, startTestJunction, type TestJunction } from '../support/junction-harness.js';
import { consoleE2eSkip, launchChromium, openLiveConsole } from './support/chromium.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
type Structured = Record<string, unknown> & { error?: { code: string; next?: { kind: string } } };

const skip = consoleE2eSkip();

describe('console acceptance on the real stack', { skip }, () => {
  let box: Sandbox;
  let workspace: string;
  let junction: TestJunction;
  let plugin: RunningScenePlugin;
  let agent: Client;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];

  const call = async (name: string, args: Record<string, unknown>) => {
    const result = await agent.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
    return { isError: result.isError === true, value: (result.structuredContent ?? {}) as Structured };
  };
  const snapshot = async () => ((await call('workspace-status', {})).value.items as Array<{ snapshot: unknown }>)[0]!.snapshot;
  const stageOne = async (line: string) => {
    const started = await call('transaction-start', { expectedSnapshot: await snapshot() });
    assert.equal(started.isError, false, JSON.stringify(started.value));
    const staged = await call('stage-edits', {
      expectedSnapshot: started.value.snapshot,
      summary: 'append a line',
      changes: [{ kind: 'edit', path: 'src/money.ts', edits: [{ range: { start: { offset: 0 }, end: { offset: 0 } }, newText: line }] }],
    });
    assert.equal(staged.isError, false, JSON.stringify(staged.value));
    return staged.value.snapshot;
  };

  before(async () => {
    box = await copyFixture('v1/interrupted-mid-apply');
    // Junction keeps its journal in <state-dir>/recovery.
    await rename(box.stateDir, join(box.root, 'recovery'));
    workspace = join(box.root, 'demo-workspace');
    await cp(DEMO_WORKSPACE_DIR, workspace, { recursive: true });
    junction = await startTestJunction([`state-dir=${box.root}`, 'mode=approval-required', `workspace=${workspace}`]);
    plugin = await startScenePlugin({ endpoint: `${junction.baseUrl}/hub/mcp-server`, role: 'editor', name: 'scene-e2e' });
    agent = await junction.connectAgent();
    await mkdir(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
    ({ page, errors } = await openLiveConsole(await browser.newContext({ viewport: { width: 1280, height: 860 } }), junction.consoleUrl));
  });

  after(async () => {
    await browser?.close();
    await plugin?.stop();
    await junction?.stop();
    await box?.cleanup();
  });

  test('the plugin appears, and an agent tool call shows up live with its result', async () => {
    await page.getByTestId('plugin-row').filter({ hasText: 'scene-e2e' }).first().waitFor();
    await eventually(async () => (await agent.listTools()).tools.some((t) => t.name === 'add-object'), 10_000, 'plugin tools');
    const added = await call('add-object', { name: 'E2E cube', kind: 'cube' });
    assert.equal(added.isError, false);
    await page.getByRole('tab', { name: 'Live calls' }).click();
    const row = page.locator('.calls-window [role="row"]', { hasText: 'add-object' }).first();
    await row.waitFor();
    await row.click();
    await page.getByText('E2E cube').first().waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}acceptance-call.png`, fullPage: true });
  });

  test('Approve in the console lets the agent commit with its receipt', async () => {
    const staged = await stageOne('// approved in the console\n');
    const reviewing = call('transaction-review', { expectedSnapshot: staged, waitSeconds: 60 });
    await page.getByRole('tab', { name: /Approvals/ }).click();
    const pending = page.getByTestId('approval-pending');
    await pending.getByText('approved in the console').first().waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}acceptance-approval.png`, fullPage: true });
    await pending.getByRole('button', { name: 'Approve' }).click();
    const review = await reviewing;
    assert.equal(review.isError, false, JSON.stringify(review.value));
    const committed = await call('transaction-commit', { expectedSnapshot: staged, receipt: review.value.receipt });
    assert.equal(committed.isError, false, JSON.stringify(committed.value));
    assert.match(await readFile(join(workspace, 'src/money.ts'), 'utf8'), /^\/\/ approved in the console\n/);
  });

  test('Deny in the console makes the review and the commit fail with ReviewRequired', async () => {
    const staged = await stageOne('// denied in the console\n');
    const reviewing = call('transaction-review', { expectedSnapshot: staged, waitSeconds: 60 });
    const pending = page.getByTestId('approval-pending');
    await pending.getByText('denied in the console').first().waitFor();
    await page.getByRole('textbox', { name: 'Reason for denial' }).fill('not in this release');
    await pending.getByRole('button', { name: 'Deny' }).click();
    const review = await reviewing;
    assert.equal(review.isError, true);
    assert.equal(review.value.error?.code, 'ReviewRequired');
    const commit = await call('transaction-commit', { expectedSnapshot: staged, receipt: 'forged.receipt' });
    assert.equal(commit.isError, true);
    assert.ok(['ReviewRequired', 'ReceiptInvalid'].includes(commit.value.error!.code), commit.value.error!.code);
    assert.doesNotMatch(await readFile(join(workspace, 'src/money.ts'), 'utf8'), /denied in the console/);
    await page.getByTestId('approval-decided').filter({ hasText: 'not in this release' }).waitFor();
  });

  test('the recovered crash from the previous run shows in the Recovery view', async () => {
    await page.getByRole('tab', { name: 'Recovery' }).click();
    await page.getByText('fixture-after-file:2').waitFor();
    await page.getByText('reverted').first().waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}acceptance-recovery.png`, fullPage: true });
    assert.deepEqual(errors, []);
  });
});
