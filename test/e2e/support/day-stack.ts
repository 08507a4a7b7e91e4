/**
 * The stack issue 24's tests drive: a real Junction (approval-required, an approval-policy file that asks
 * for three tools, a real workspace), the SDK's scene app as editor (in this process) and as runtime (a
 * child process, so a test can kill it with SIGKILL), two sessions of one MCP client (`claude-ops`), and
 * the operator's console in Chromium. Screenshots go to test/e2e/screenshots/day-*.png at 1440×900 and
 * 1024×700; axe-core's serious findings on each are collected for the test to assert on.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import assert from 'node:assert/strict';
import { after, before, describe, test } from 'node:test';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startScenePlugin, type RunningScenePlugin } from '../../../plugins/examples/scene/plugin.js';
import { DEMO_WORKSPACE_DIR } from '../../../src-main/app/paths.js';
import type { PolicyDocument } from '../../../src-main/contracts/console.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';
import { consoleE2eSkip, launchChromium, openLiveConsole } from './chromium.js';
import { CHECKED_SIZES, shootSizes } from './console-checks.js';

export const SCREENSHOTS = fileURLToPath(new URL('../screenshots/', import.meta.url));
const SCENE_MAIN = fileURLToPath(new URL('../../../plugins/examples/scene/main.ts', import.meta.url));
export const [WIDE, NARROW] = CHECKED_SIZES;
export const APPROVAL_TIMEOUT_S = 8;
export const RECONNECT_WAIT_S = 6;

export const DAY_POLICY: PolicyDocument = {
  rules: [
    { tool: 'remove-object', action: 'ask', reason: 'removals need a human' },
    { tool: 'simulate-step', action: 'ask', reason: 'the running game is shared' },
    { tool: 'add-object', arguments: [{ pointer: '/name', regex: '^held-' }], action: 'ask', reason: 'held names' },
  ],
};

export type Structured = Record<string, unknown> & { error?: { code: string; message: string }; object?: { id: string } };

export interface DayStack {
  junction: TestJunction;
  editor: RunningScenePlugin;
  runtime: ChildProcess;
  ops1: Client;
  ops2: Client;
  policyPath: string;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  /** Console errors of the page since it opened. */
  errors: string[];
  /** axe-core's serious findings of every `shoot`. */
  axe: string[];
  /** Another session of `claude-ops`. */
  connect(): Promise<Client>;
  call(client: Client, name: string, args: Record<string, unknown>): Promise<{ isError: boolean; value: Structured }>;
  addObject(name: string): Promise<string>;
  tab(name: string): Promise<void>;
  metric(testId: string): Promise<string>;
  /** Screenshots at both sizes (looked at by a person) and axe-core on each. */
  shoot(name: string): Promise<void>;
  stop(): Promise<void>;
}

export async function startDayStack(): Promise<DayStack> {
  const dir = await mkdtemp(join(tmpdir(), 'junction-day-'));
  const policyPath = join(dir, 'policy.json');
  await writeFile(policyPath, JSON.stringify(DAY_POLICY));
  const workspace = join(dir, 'workspace');
  await cp(DEMO_WORKSPACE_DIR, workspace, { recursive: true });
  const junction = await startTestJunction([
    `approval-policy=${policyPath}`,
    `approval-timeout=${APPROVAL_TIMEOUT_S}`,
    `plugin-reconnect-wait-seconds=${RECONNECT_WAIT_S}`,
    'mode=approval-required',
    `workspace=${workspace}`,
    'rate-limit=400',
  ]);
  const hub = `${junction.baseUrl}/hub/mcp-server`;
  // A replaced editor must not reconnect at once and replace its successor in turn.
  const editor = await startScenePlugin({ endpoint: hub, role: 'editor', name: 'scene-editor', reconnectDelaysMs: [120_000] });
  const runtime = spawn(process.execPath, ['--import', 'tsx', SCENE_MAIN, '--endpoint', hub, '--role', 'runtime', '--name', 'scene-runtime'], { stdio: 'ignore' });
  const clients: Client[] = [];
  const connect = async (): Promise<Client> => {
    const client = new Client({ name: 'claude-ops', version: '2.1.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${junction.baseUrl}/mcp`)));
    clients.push(client);
    return client;
  };
  const ops1 = await connect();
  const ops2 = await connect();
  await eventually(async () => (await ops1.listTools()).tools.some((t) => t.name === 'simulate-step'), 20_000, 'editor and runtime tools');
  await mkdir(SCREENSHOTS, { recursive: true });
  const browser = await launchChromium();
  const context = await browser.newContext({ viewport: WIDE });
  await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: junction.baseUrl });
  const { page, errors } = await openLiveConsole(context, junction.consoleUrl);
  const axe: string[] = [];
  const call: DayStack['call'] = async (client, name, args) => {
    const result = await client.callTool({ name, arguments: args }, undefined, { timeout: 60_000 });
    return { isError: result.isError === true, value: (result.structuredContent ?? {}) as Structured };
  };
  return {
    junction,
    editor,
    runtime,
    ops1,
    ops2,
    policyPath,
    browser,
    context,
    page,
    errors,
    axe,
    connect,
    call,
    addObject: async (name) => (await call(ops1, 'add-object', { name, kind: 'cube' })).value.object!.id,
    async tab(name) {
      await page.getByRole('tab', { name: new RegExp(`^${name}`) }).click();
      await page.locator('#view-panel h2').first().waitFor();
    },
    metric: async (testId) => (await page.getByTestId(testId).locator('.stat-value').innerText()).trim(),
    async shoot(name) {
      for (const finding of await shootSizes(page, `${SCREENSHOTS}day-${name}`)) axe.push(`${name} ${finding}`);
      await page.setViewportSize(WIDE);
    },
    async stop() {
      await browser.close();
      runtime.kill('SIGKILL');
      await editor.stop();
      await Promise.allSettled(clients.map((c) => c.close()));
      await junction.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

const skip = consoleE2eSkip();

/**
 * A suite on its own day stack: started before its tests, stopped after them, and closed by a test that
 * no state it shot had console errors or serious axe findings. `day()` is the stack inside the tests.
 */
export function describeDay(name: string, tests: (day: () => DayStack) => void): void {
  describe(name, { skip }, () => {
    let stack: DayStack | undefined;
    const day = (): DayStack => stack ?? assert.fail('the day stack did not start');
    before(async () => {
      stack = await startDayStack();
    });
    after(async () => {
      await stack?.stop();
    });
    tests(day);
    test('no console errors and no serious axe findings in any state shot', () => {
      assert.deepEqual(day().axe, []);
      assert.deepEqual(day().errors, []);
    });
  });
}
