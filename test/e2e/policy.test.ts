/**
 * The approval policy in the console, on the real stack: a real SDK plugin and real MCP agents call
 * through startJunction with an approval-policy file; the operator decides in Chromium. Covers ask rules
 * held until a click, deny with a reason, allow for the session, always allow (a rule written to the file
 * and shown), argument matchers, editing the policy in the console, and a commit approval that says the
 * change does not compile.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import type { Browser, Page } from 'playwright-core';
import { startScenePlugin, type RunningScenePlugin } from '../../plugins/examples/scene/plugin.js';
import { DEMO_WORKSPACE_DIR } from '../../src-main/app/paths.js';
import type { PolicyDocument } from '../../src-main/contracts/console.js';
import { eventually, startTestJunction, type TestJunction } from '../support/junction-harness.js';
import { consoleE2eSkip, launchChromium, openLiveConsole } from './support/chromium.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));
type Structured = Record<string, unknown> & { error?: { code: string; message: string; details?: Record<string, unknown> }; object?: { id: string } };

const skip = consoleE2eSkip();

const POLICY: PolicyDocument = {
  rules: [
    { tool: 'remove-object', action: 'ask', reason: 'removals need a human' },
    { tool: 'add-object', arguments: [{ pointer: '/name', regex: '^held-' }], action: 'ask' },
  ],
};

describe('approval policy in the console (Chromium)', { skip }, () => {
  let dir: string;
  let policyPath: string;
  let workspace: string;
  let junction: TestJunction;
  let plugin: RunningScenePlugin;
  let agent: Client;
  let browser: Browser;
  let page: Page;
  let errors: string[] = [];

  const call = async (client: Client, name: string, args: Record<string, unknown>) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
    return { isError: result.isError === true, value: (result.structuredContent ?? {}) as Structured };
  };
  const addObject = async (name: string) => (await call(agent, 'add-object', { name, kind: 'cube' })).value.object!.id;
  const heldCard = () => page.getByTestId('call-approval-pending');
  const openTab = (name: RegExp | string) => page.getByRole('tab', { name }).click();

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'junction-policy-e2e-'));
    policyPath = join(dir, 'policy.json');
    await writeFile(policyPath, JSON.stringify(POLICY));
    workspace = join(dir, 'workspace');
    await cp(DEMO_WORKSPACE_DIR, workspace, { recursive: true });
    junction = await startTestJunction([`approval-policy=${policyPath}`, 'approval-timeout=60', 'mode=approval-required', `workspace=${workspace}`]);
    plugin = await startScenePlugin({ endpoint: `${junction.baseUrl}/hub/mcp-server`, role: 'editor', name: 'scene-e2e' });
    agent = await junction.connectAgent();
    await eventually(async () => (await agent.listTools()).tools.some((t) => t.name === 'remove-object'), 10_000, 'plugin tools');
    await mkdir(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
    ({ page, errors } = await openLiveConsole(await browser.newContext({ viewport: { width: 1280, height: 900 } }), junction.consoleUrl));
  });

  after(async () => {
    await browser?.close();
    await plugin?.stop();
    await junction?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  test('an ask rule holds the call until the operator allows it, showing its full arguments and why', async () => {
    const id = await addObject('Crate');
    const removing = call(agent, 'remove-object', { id });
    await page.getByTestId('approval-banner').filter({ hasText: '1 tool call is waiting' }).waitFor();
    await openTab(/Approvals/);
    const card = heldCard();
    await card.getByText(id).waitFor();
    await card.getByText('removals need a human').waitFor();
    await card.getByText(`(${Buffer.byteLength(JSON.stringify({ id }))} bytes, shown in full)`).waitFor();
    await card.getByText('destructiveHint: true').waitFor();
    await card.getByText('bridge:editor scene-e2e').waitFor();
    assert.ok(plugin.scene.list(10).items.some((o) => o.id === id), 'nothing ran before the decision');
    await page.screenshot({ path: `${SCREENSHOTS}policy-held-call.png`, fullPage: true });
    await card.getByRole('button', { name: 'Allow once' }).click();
    const removed = await removing;
    assert.equal(removed.isError, false, JSON.stringify(removed.value));
    assert.equal(plugin.scene.list(10).items.some((o) => o.id === id), false);
    await page.getByTestId('call-approval-decided').filter({ hasText: 'allowed once' }).waitFor();
  });

  test('deny with a reason in the console reaches the agent as ApprovalDenied', async () => {
    const id = await addObject('Keeper');
    const removing = call(agent, 'remove-object', { id });
    const card = heldCard();
    await card.getByText(id).waitFor();
    await card.getByRole('textbox', { name: 'Reason for denial' }).fill('keep the keeper');
    await card.getByRole('button', { name: 'Deny' }).click();
    const denied = await removing;
    assert.equal(denied.value.error?.code, 'ApprovalDenied');
    assert.match(denied.value.error!.message, /keep the keeper/);
    await page.getByTestId('call-approval-decided').filter({ hasText: 'keep the keeper' }).waitFor();
  });

  test('an argument matcher holds one call of a tool and not another; allow for this session covers the next', async () => {
    const plain = await call(agent, 'add-object', { name: 'plain', kind: 'cube' });
    assert.equal(plain.isError, false, 'no rule holds this call');
    const holding = call(agent, 'add-object', { name: 'held-1', kind: 'cube' });
    const card = heldCard();
    await card.getByText('"held-1"').waitFor();
    await card.getByText(/rule 1: tool 'add-object' matches 'add-object', argument \/name matches/).waitFor();
    await card.getByRole('button', { name: 'Allow for this session' }).click();
    assert.equal((await holding).isError, false);
    const next = await call(agent, 'add-object', { name: 'held-2', kind: 'cube' });
    assert.equal(next.isError, false, 'the same session is not asked again');
  });

  test('a long argument is shown in full with its exact size, and a regex rule applies closed to it', async () => {
    const name = `held-${'x'.repeat(20_000)}`;
    const fresh = await junction.connectAgent();
    const adding = call(fresh, 'add-object', { name, kind: 'cube' });
    const card = heldCard();
    await card.getByText(`(${name.length} characters)`).waitFor();
    await card.getByText(`(${Buffer.byteLength(JSON.stringify({ name, kind: 'cube' }))} bytes, shown in full)`).waitFor();
    await card.getByText(/is longer than 8192 characters, so .* is not run and the rule applies closed/).waitFor();
    const shown = await card.getByRole('tree', { name: 'Arguments of add-object' }).innerText();
    assert.ok(shown.includes(name), 'the whole value is on the page');
    await card.getByRole('button', { name: 'Allow once' }).click();
    assert.equal((await adding).isError, false);
  });

  test('always allow writes a rule that the Policy view shows', async () => {
    const id = await addObject('Always');
    const fresh = await junction.connectAgent();
    const removing = call(fresh, 'remove-object', { id });
    await heldCard().getByText(id).waitFor();
    await heldCard().getByRole('button', { name: 'Always allow…' }).click();
    await heldCard().getByTestId('always-allow-preview').getByText('"tool": "remove-object"').waitFor();
    await heldCard().getByRole('button', { name: 'Write rule and allow' }).click();
    assert.equal((await removing).isError, false);
    const saved = JSON.parse(await readFile(policyPath, 'utf8')) as PolicyDocument;
    assert.deepEqual([saved.rules[0]?.tool, saved.rules[0]?.action], ['remove-object', 'allow']);
    await openTab('Policy');
    const first = page.getByTestId('policy-rule').first();
    await first.getByText('tool remove-object').waitFor();
    await first.getByText('allow', { exact: true }).waitFor();
    assert.equal(await page.getByTestId('policy-rule').count(), POLICY.rules.length + 1);
  });

  test('editing the policy in the console: an invalid rule is refused by index and field, a valid one is saved', async () => {
    await openTab('Policy');
    const editor = page.getByRole('textbox', { name: 'Policy JSON' });
    await editor.fill('{"rules":[{"tool":"x","action":"ask","colour":1}]}');
    await page.getByRole('button', { name: 'Save policy' }).click();
    await page.getByTestId('policy-problem').filter({ hasText: 'rule 0, field rules.0.colour: unknown field "colour"' }).waitFor();
    assert.equal((JSON.parse(await readFile(policyPath, 'utf8')) as PolicyDocument).rules.length, POLICY.rules.length + 1, 'nothing was written');
    await editor.fill('{"rules":[{"tool":"remove-*","action":"deny","reason":"frozen scene"}]}');
    await page.getByRole('button', { name: 'Save policy' }).click();
    await eventually(async () => (await page.getByTestId('policy-rule').count()) === 1, 10_000, 'the saved rule');
    assert.deepEqual(JSON.parse(await readFile(policyPath, 'utf8')), { rules: [{ tool: 'remove-*', action: 'deny', reason: 'frozen scene' }] });
    const refused = await call(agent, 'remove-object', { id: await addObject('Frozen') });
    assert.equal(refused.value.error?.code, 'ApprovalDenied');
    assert.match(refused.value.error!.message, /frozen scene/);
  });

  test('a commit approval says, in red, that the change adds compiler errors', async () => {
    const snapshot = async () => ((await call(agent, 'workspace-status', {})).value.items as Array<{ snapshot: unknown }>)[0]!.snapshot;
    const started = await call(agent, 'transaction-start', { expectedSnapshot: await snapshot() });
    const source = await readFile(join(workspace, 'src/money.ts'), 'utf8');
    const at = source.indexOf('export function add(') + 'export function '.length;
    const staged = await call(agent, 'stage-edits', {
      expectedSnapshot: started.value.snapshot,
      summary: 'rename add to plus',
      changes: [{ kind: 'edit', path: 'src/money.ts', edits: [{ range: { start: { offset: at }, end: { offset: at + 3 } }, newText: 'plus' }] }],
    });
    assert.equal(staged.isError, false, JSON.stringify(staged.value));
    const reviewing = call(agent, 'transaction-review', { expectedSnapshot: staged.value.snapshot, waitSeconds: 60 });
    await openTab(/Approvals/);
    const check = page.getByTestId('approval-pending').getByTestId('compile-check');
    await check.getByText(/Adds \d+ compiler error/).waitFor();
    await check.getByText('src/cart.ts', { exact: false }).first().waitFor();
    assert.match((await check.getAttribute('class')) ?? '', /\bbad\b/);
    await page.screenshot({ path: `${SCREENSHOTS}policy-compile-check.png`, fullPage: true });
    await page.getByTestId('approval-pending').getByRole('textbox', { name: 'Reason for denial' }).fill('does not compile');
    await page.getByTestId('approval-pending').getByRole('button', { name: 'Deny' }).click();
    const review = await reviewing;
    assert.equal(review.value.error?.code, 'ReviewRequired');
    assert.ok((review.value.error?.details?.compile as { errorsAdded: number }).errorsAdded > 0, 'the agent is told too');
    assert.deepEqual(errors, []);
  });
});
