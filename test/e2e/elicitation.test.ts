/**
 * The operator answers a plugin tool's elicitation in the console (elicitation-answerer=console) on the
 * real stack: the conformance fixture plugin asks, an MCP agent without the elicitation capability made
 * the call, the form is built from the requested schema (defaults filled in), and the call trace shows
 * the nested request under its call.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { createConformancePlugin } from '../../plugins/examples/conformance/plugin.js';
import type { McpPlugin } from '../../plugins/sdk/index.js';
import { CONSOLE_BUNDLE_DIR } from '../../src-main/app/paths.js';
import { eventually, startTestJunction, type TestJunction } from '../support/junction-harness.js';
import { chromiumAvailable, launchChromium, openLiveConsole } from './support/chromium.js';

const ready = chromiumAvailable() && existsSync(join(CONSOLE_BUNDLE_DIR, 'index.html'));
const skip = ready ? false : 'needs /usr/bin/chromium and the built console (npm run build:renderer)';

describe('elicitations answered in the console', { skip }, () => {
  let junction: TestJunction;
  let plugin: McpPlugin;
  let agent: Client;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];

  before(async () => {
    junction = await startTestJunction(['elicitation-answerer=console', 'plugin-timeout=60000']);
    plugin = createConformancePlugin({ endpoint: `${junction.baseUrl}/hub/mcp-server` });
    await plugin.connect();
    agent = await junction.connectAgent();
    await eventually(async () => (await agent.listTools()).tools.some((t) => t.name === 'test_elicitation_sep1034_defaults'), 10_000, 'fixture tools');
    browser = await launchChromium();
    ({ page, errors } = await openLiveConsole(await browser.newContext({ viewport: { width: 1280, height: 860 } }), junction.consoleUrl));
  });

  after(async () => {
    await browser?.close();
    await plugin?.disconnect();
    await junction?.stop();
  });

  test('the pending elicitation is answered from its form and the trace shows it inside the call', async () => {
    await page.getByRole('tab', { name: 'Live calls' }).click();
    assert.equal(await page.getByLabel('Elicitations answered by').inputValue(), 'console');
    const calling = agent.callTool({ name: 'test_elicitation_sep1034_defaults', arguments: {} }, undefined, { timeout: 60_000 });
    const form = page.getByRole('form', { name: 'Elicitation from test_elicitation_sep1034_defaults' });
    await form.waitFor();
    assert.equal(await form.getByLabel('name').inputValue(), 'John Doe', 'defaults from the schema fill the form');
    await form.getByLabel('name').fill('Ada');
    await form.getByRole('button', { name: 'Accept' }).click();
    const result = await calling;
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    assert.equal(text, 'Elicitation completed: action=accept, content={"name":"Ada","age":30,"score":95.5,"status":"active","verified":true}');
    await form.waitFor({ state: 'detached' });

    const row = page.locator('.calls-window [role="row"]', { hasText: 'test_elicitation_sep1034_defaults' }).first();
    await row.getByTestId('nested-count').filter({ hasText: '1' }).waitFor();
    await row.click();
    const trace = page.getByRole('list', { name: 'Requests to the agent' });
    await trace.getByText('elicitation').waitFor();
    await trace.getByText('accept').waitFor();
    await trace.getByText('Please review and update the form fields with defaults').waitFor();
    assert.deepEqual(errors, []);
  });
});
