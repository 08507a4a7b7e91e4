/**
 * What agents see, driven from the console in Chromium: the operator switches a tool off in the
 * Visibility view, a connected real SDK agent hears tools/list_changed and no longer lists or reaches
 * the tool, the per-agent view shows exactly that agent's catalogue, and switching it on brings it back.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ToolListChangedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import type { Browser, Page } from 'playwright-core';
import { startScenePlugin, type RunningScenePlugin } from '../../plugins/examples/scene/plugin.js';
import type { PolicyDocument } from '../../src-main/contracts/console.js';
import { eventually, startTestJunction, type TestJunction } from '../support/junction-harness.js';
import { consoleE2eSkip, launchChromium, openLiveConsole } from './support/chromium.js';

const skip = consoleE2eSkip();

const POLICY: PolicyDocument = { rules: [{ agent: 'reader', annotations: { readOnlyHint: false }, action: 'hide', reason: 'read-only agent' }] };

describe('what agents see, switched in the console (Chromium)', { skip }, () => {
  let dir: string;
  let policyPath: string;
  let junction: TestJunction;
  let plugin: RunningScenePlugin;
  let writer: Client;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];
  const changes: number[] = [];

  const names = async () => (await writer.listTools()).tools.map((t) => t.name);
  const toggle = (tool: string) => page.getByRole('checkbox', { name: `Agents see ${tool}` });

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'junction-visibility-e2e-'));
    policyPath = join(dir, 'policy.json');
    await writeFile(policyPath, JSON.stringify(POLICY));
    junction = await startTestJunction([`approval-policy=${policyPath}`]);
    plugin = await startScenePlugin({ endpoint: `${junction.baseUrl}/hub/mcp-server`, role: 'editor', name: 'scene-visibility' });
    writer = new Client({ name: 'writer', version: '1.0.0' });
    await writer.connect(new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}/mcp`)));
    writer.setNotificationHandler(ToolListChangedNotificationSchema, () => {
      changes.push(Date.now());
    });
    await eventually(async () => (await names()).includes('add-object'), 10_000, 'plugin tools');
    browser = await launchChromium();
    ({ page, errors } = await openLiveConsole(await browser.newContext({ viewport: { width: 1280, height: 900 } }), junction.consoleUrl));
  });
  after(async () => {
    await writer?.close();
    await browser?.close();
    await plugin?.stop();
    await junction?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('switching a tool off reaches the connected agent as list_changed; the tool is gone from its list and its calls', async () => {
    await page.getByRole('tab', { name: /Visibility/ }).click();
    await toggle('add-object').waitFor();
    assert.equal(await toggle('add-object').isChecked(), true);
    const before = changes.length;
    const clickedAt = Date.now();
    await toggle('add-object').click();
    await eventually(() => changes.length > before, 10_000, 'tools/list_changed at the agent');
    console.log(`list_changed reached the agent ${changes[before]! - clickedAt} ms after the click`);
    assert.ok(!(await names()).includes('add-object'));
    await assert.rejects(writer.callTool({ name: 'add-object', arguments: { name: 'x', kind: 'cube' } }), /Tool 'add-object' is not in the catalogue/);
    assert.equal(plugin.scene.list(100).items.some((o) => o.name === 'x'), false, 'the hidden tool never ran');
    await eventually(async () => !(await toggle('add-object').isChecked()), 5000, 'the switch to show it off');
    const onDisk = JSON.parse(await readFile(policyPath, 'utf8')) as PolicyDocument;
    assert.deepEqual(onDisk.rules[0], { tool: 'add-object', action: 'hide', reason: 'hidden from agents by the operator' });
  });

  test("one agent's view lists exactly the catalogue it sees", async () => {
    await eventually(async () => (await page.getByTestId('agent-catalogue-tool').count()) > 0, 5000, 'the agent catalogue');
    const shown = (await page.getByTestId('agent-catalogue-tool').locator('code').allInnerTexts()).sort();
    assert.deepEqual(shown, (await names()).sort());
    assert.ok(!shown.includes('add-object'));
  });

  test('switching it on again brings it back to the agent', async () => {
    const before = changes.length;
    await toggle('add-object').click();
    await eventually(() => changes.length > before, 10_000, 'the second list_changed');
    assert.ok((await names()).includes('add-object'));
    await page.getByTestId('agent-catalogue-tool').filter({ hasText: 'add-object' }).waitFor();
    assert.deepEqual(JSON.parse(await readFile(policyPath, 'utf8')), POLICY);
    assert.deepEqual(errors, []);
  });
});
