/**
 * The operator answers a plugin tool's elicitation in the console (elicitation-answerer=console) on the
 * real stack: the conformance fixture plugin asks, an MCP agent without the elicitation capability made
 * the call, and the operator is prompted as for an approval (banner, tab title, a dialog with the form the
 * requested schema describes, defaults filled in); the call trace shows the nested request under its
 * call; Settings and Live calls agree that the answerer switches while Junction runs.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { createConformancePlugin } from '../../plugins/examples/conformance/plugin.js';
import type { McpPlugin } from '../../plugins/sdk/index.js';
import { eventually, startTestJunction, type TestJunction } from '../support/junction-harness.js';
import { consoleE2eSkip, launchChromium, openLiveConsole } from './support/chromium.js';
import { shootSizes } from './support/console-checks.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

const skip = consoleE2eSkip();

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

  test('Settings and Live calls agree that elicitation-answerer switches at run time, whichever way it is switched', async () => {
    await page.getByRole('tab', { name: 'Settings' }).click();
    const row = page.getByTestId('setting-elicitation-answerer');
    const editor = row.getByLabel('New value for elicitation-answerer');
    assert.equal(await editor.inputValue(), 'console', 'editable here, not "restart"');
    await page.getByRole('tab', { name: 'Live calls' }).click();
    const answerer = page.getByLabel('Elicitations answered by');
    await answerer.selectOption('agent');
    await page.getByRole('tab', { name: 'Settings' }).click();
    await row.locator('.pill.origin-console').waitFor();
    assert.equal(await editor.inputValue(), 'agent', 'Settings shows the switch made in Live calls');
    await editor.selectOption('console');
    await row.getByRole('button', { name: 'Apply' }).click();
    await page.getByRole('tab', { name: 'Live calls' }).click();
    await eventually(async () => (await answerer.inputValue()) === 'console', 5000, 'Live calls shows the switch made in Settings');
  });

  test('an elicitation for the console is a real prompt: banner on any view, tab title, how long it waits, a dialog with the schema form; the trace shows it inside the call', async () => {
    await page.getByRole('tab', { name: 'Plugins' }).click();
    const calling = agent.callTool({ name: 'test_elicitation_sep1034_defaults', arguments: {} }, undefined, { timeout: 60_000 });
    const banner = page.getByTestId('elicitation-banner');
    await banner.getByText('test_elicitation_sep1034_defaults asks you a question').waitFor();
    await banner.getByTestId('elicitation-countdown').getByText(/^waiting \d+s$/).waitFor();
    assert.match(await page.title(), /^\(1\) answer waiting · Junction$/);
    assert.deepEqual(await shootSizes(page, `${SCREENSHOTS}elicitation-banner`), []);
    await banner.getByRole('button', { name: 'Answer now' }).click();
    const dialog = page.getByRole('dialog', { name: 'test_elicitation_sep1034_defaults asks' });
    const form = dialog.getByRole('form', { name: 'Elicitation from test_elicitation_sep1034_defaults' });
    await form.waitFor();
    assert.equal(await form.getByLabel('name').inputValue(), 'John Doe', 'defaults from the schema fill the form');
    assert.equal(await form.getByLabel('age').getAttribute('type'), 'number');
    assert.deepEqual(await shootSizes(page, `${SCREENSHOTS}elicitation-dialog`), []);
    await form.getByLabel('name').fill('Ada');
    await form.getByRole('button', { name: 'Accept' }).click();
    const result = await calling;
    const text = (result.content as Array<{ text: string }>)[0]?.text ?? '';
    assert.equal(text, 'Elicitation completed: action=accept, content={"name":"Ada","age":30,"score":95.5,"status":"active","verified":true}');
    await dialog.waitFor({ state: 'hidden' });
    await banner.waitFor({ state: 'detached' });
    assert.equal(await page.title(), 'Junction console');

    await page.getByRole('tab', { name: 'Live calls' }).click();
    const row = page.locator('.calls-window [role="row"]', { hasText: 'test_elicitation_sep1034_defaults' }).first();
    await row.getByTestId('nested-count').filter({ hasText: '1' }).waitFor();
    await row.click();
    const trace = page.getByRole('list', { name: 'Requests to the agent' });
    await trace.getByText('elicitation').waitFor();
    await trace.getByText('accept').waitFor();
    await trace.getByText('Please review and update the form fields with defaults').waitFor();
    assert.deepEqual(errors, []);
  });

  test('a sampling request for the console: the banner, then a dialog with the messages, the parameters and a trust warning; the reply reaches the tool as the model\'s', async () => {
    await page.getByRole('tab', { name: 'Approvals' }).click();
    const calling = agent.callTool({ name: 'test_sampling', arguments: { prompt: 'Name three colours' } }, undefined, { timeout: 60_000 });
    const banner = page.getByTestId('elicitation-banner');
    await banner.getByText('test_sampling asks you for a model reply').waitFor();
    assert.match(await page.title(), /^\(1\) answer waiting · Junction$/);
    await banner.getByRole('button', { name: 'Answer now' }).click();
    const dialog = page.getByRole('dialog', { name: 'test_sampling asks for a model reply' });
    await dialog.getByRole('list', { name: 'Messages the tool sent' }).getByText('Name three colours').waitFor();
    await dialog.getByTestId('sampling-parameters').getByText('100').waitFor();
    await dialog.getByTestId('sampling-warning').getByText(/You answer as the model/).waitFor();
    assert.deepEqual(await shootSizes(page, `${SCREENSHOTS}sampling-dialog`), []);
    await dialog.getByLabel('Reply (as the model)').fill('Red, green and blue.');
    await dialog.getByRole('button', { name: 'Send reply' }).click();
    const result = await calling;
    assert.equal((result.content as Array<{ text: string }>)[0]?.text, 'LLM response: Red, green and blue.');
    await banner.waitFor({ state: 'detached' });
    assert.deepEqual(errors, []);
  });
});
