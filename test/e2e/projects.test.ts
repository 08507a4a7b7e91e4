/**
 * The console with several projects on the real stack: SDK plugins of one project (editor and runtime)
 * and a raw .NET-like plugin of another, a pinned MCP agent; the Plugins view groups them by project
 * with their slots and agents, the Bridge view gives each project's pinned URL and snippet with copy
 * buttons, and the operator switches routing from the console.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, Page } from 'playwright-core';
import { startScenePlugin, type RunningScenePlugin } from '../../plugins/examples/scene/plugin.js';
import { DotnetLikePlugin } from '../support/dotnet-like-plugin.js';
import { eventually, startTestJunction, type TestJunction } from '../support/junction-harness.js';
import { consoleE2eSkip, launchChromium, openLiveConsole } from './support/chromium.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
const HASH_A = 'aabbccdd11223344556677889900aabbccddeeff00112233445566778899aabb';
const HASH_B = '11223344aabbccdd556677889900aabbccddeeff00112233445566778899aabb';

const skip = consoleE2eSkip();

describe('console: plugins grouped by project, pinned endpoints, routing switch', { skip }, () => {
  let junction: TestJunction;
  let editor: RunningScenePlugin;
  let runtime: RunningScenePlugin;
  let projectB: DotnetLikePlugin;
  let agent: Client;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];

  before(async () => {
    junction = await startTestJunction(['project-routing=multi', 'plugin-reconnect-wait-seconds=0']);
    const hub = `${junction.baseUrl}/hub/mcp-server`;
    const endpointA = `${hub}?project_path_hash=${HASH_A}&engine=unity&machine_name=PC-1`;
    editor = await startScenePlugin({ endpoint: endpointA, role: 'editor', name: 'GameA', reconnectDelaysMs: [0, 200] });
    runtime = await startScenePlugin({ endpoint: endpointA, role: 'runtime', name: 'GameA', scene: editor.scene, reconnectDelaysMs: [0, 200] });
    projectB = await DotnetLikePlugin.connect(hub, { instanceId: 'instance-b', engine: 'unity', projectName: 'GameB', projectPathHash: HASH_B, machineName: 'PC-2' });
    assert.equal((await projectB.versionHandshake()).compatible, true);
    agent = new Client({ name: 'pinned-agent', version: '3.0.0' });
    await agent.connect(new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}/p/aabbccdd/mcp`)));
    await mkdir(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: junction.baseUrl });
    ({ page, errors } = await openLiveConsole(context, junction.consoleUrl));
  });

  after(async () => {
    await browser?.close();
    await agent?.close();
    await Promise.allSettled([editor?.stop(), runtime?.stop(), projectB?.close()]);
    await junction?.stop();
  });

  test('the Plugins view groups plugins by project with engine, machine, instance, slots and agents', async () => {
    await page.getByRole('tab', { name: 'Plugins' }).click();
    const groupA = page.getByTestId('project-group').filter({ hasText: 'unity:GameA on PC-1' });
    const groupB = page.getByTestId('project-group').filter({ hasText: 'unity:GameB on PC-2' });
    await groupA.waitFor();
    await groupB.waitFor();
    assert.equal(await page.getByTestId('project-group').count(), 2);
    assert.equal(await groupA.getByTestId('plugin-row').count(), 2, 'editor and runtime of A');
    await groupA.getByText('Editor slot').waitFor();
    await groupA.getByTestId('project-agents').filter({ hasText: 'pinned-agent 3.0.0' }).waitFor();
    assert.match((await groupB.getByTestId('project-agents').textContent()) ?? '', /none/);
    await groupB.getByText('instance-b').waitFor();
    await groupB.getByText('aabbccdd').count().then((n) => assert.equal(n, 0, 'B shows its own pin only'));
    await groupB.getByText('11223344').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}projects-plugins.png`, fullPage: true });
  });

  test("the Bridge view gives each project's pinned MCP URL and snippet, and the copy buttons copy them", async () => {
    await page.getByRole('tab', { name: 'Bridge' }).click();
    const endpoints = page.getByTestId('project-endpoint');
    await endpoints.filter({ hasText: 'unity:GameB on PC-2' }).waitFor();
    assert.equal(await endpoints.count(), 2);
    const urlA = `${junction.baseUrl}/p/aabbccdd/mcp`;
    await endpoints.filter({ hasText: urlA }).first().waitFor();
    await page.getByRole('button', { name: 'Copy unity:GameA on PC-1 MCP URL' }).click();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), urlA);
    await page.getByRole('button', { name: 'Copy unity:GameB on PC-2 configuration' }).click();
    const snippet = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { mcpServers: Record<string, { url: string; type: string }> };
    assert.deepEqual(snippet.mcpServers['junction-gameb'], { type: 'http', url: `${junction.baseUrl}/p/11223344/mcp` });
    await page.getByRole('button', { name: 'Copy unity:GameB on PC-2 stdio configuration' }).click();
    const stdio = JSON.parse(await page.evaluate(() => navigator.clipboard.readText())) as { mcpServers: Record<string, { command: string; args: string[] }> };
    assert.deepEqual(stdio.mcpServers['junction-gameb']?.args.slice(-4), ['connect', '--port', String(junction.port), 'project-pin=11223344']);
    await page.screenshot({ path: `${SCREENSHOTS}projects-bridge.png`, fullPage: true });
  });

  test('the operator switches to single-project routing and back; plugins reconnect into the new grouping', async () => {
    await page.getByRole('button', { name: 'Use single-project routing' }).click();
    await page.getByTestId('project-routing').filter({ hasText: 'single project' }).waitFor();
    // The SDK plugins come back (the raw client, like a .NET client past its retries, may not).
    await eventually(async () => (await junction.control.snapshot()).plugins.filter((p) => p.project?.projectName === 'GameA').length === 2, 15_000, 'A back');
    assert.equal((await fetch(`${junction.baseUrl}/p/aabbccdd/mcp`, { method: 'POST' })).status, 404, 'no pinned routes with single routing');
    await page.getByRole('tab', { name: 'Plugins' }).click();
    await eventually(async () => (await page.getByTestId('project-group').count()) === 1, 10_000, 'one group');
    await page.getByRole('tab', { name: 'Bridge' }).click();
    await page.getByRole('button', { name: 'Use multi-project routing' }).click();
    await page.getByTestId('project-routing').filter({ hasText: 'multi-project' }).waitFor();
    await page.getByTestId('project-endpoint').filter({ hasText: 'unity:GameA on PC-1' }).waitFor({ timeout: 15_000 });
    assert.deepEqual(errors, []);
  });
});
