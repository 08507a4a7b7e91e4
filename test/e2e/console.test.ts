/**
 * The console in a real Chromium against a real hub and console server on loopback: every view renders
 * without console errors under the strict CSP, approvals reach the operator and the approve command,
 * a second tab sees the same live state, and a wrong token is refused.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdir, rm } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { startConsole, type ConsoleHarness } from '../integration/control/support/console-harness.js';
import { buildRenderer } from './support/build-renderer.js';
import { chromiumAvailable, launchChromium, openLiveConsole, watchErrors } from './support/chromium.js';
import { seedWorld } from './support/seed.js';
import { VIEWS as REGISTRY, type ViewId } from '../../src-renderer/src/views/registry.js';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/', import.meta.url));

/** What each view shows of the seeded world; a view added to the registry without a probe here does not compile. */
const PROBES = {
  plugins: 'Unity Editor',
  agents: 'No agent is connected',
  calls: 'prepare-fix-all',
  run: 'No tool matches.',
  transactions: 'fix type error',
  approvals: 'Nothing is waiting',
  recovery: 'RecoveryVersionUnsupported',
  bridge: 'Claude Desktop',
  policy: 'reports no approval policy',
  visibility: 'No approval-policy file is configured',
  settings: 'This test world has no settings.',
} satisfies Record<ViewId, string>;
const VIEWS = REGISTRY.map((v) => ({ tab: v.label, heading: v.heading, probe: PROBES[v.id] }));

async function openConsole(context: BrowserContext, h: ConsoleHarness): Promise<{ page: Page; errors: string[] }> {
  return openLiveConsole(context, `${h.origin}/?token=${h.token}`);
}

describe('console in Chromium', { skip: chromiumAvailable() ? false : 'chromium not installed at /usr/bin/chromium' }, () => {
  let browser: Browser;
  let context: BrowserContext;
  let h: ConsoleHarness;
  let staticDir: string;

  before(async () => {
    staticDir = await buildRenderer();
    h = await startConsole({ staticDir });
    seedWorld(h.world);
    await mkdir(SCREENSHOTS, { recursive: true });
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  });

  after(async () => {
    await context?.close();
    await browser?.close();
    await h?.close();
    if (staticDir) await rm(staticDir, { recursive: true, force: true });
  });

  test('every view renders its state with no console errors', async () => {
    const { page, errors } = await openConsole(context, h);
    for (const view of VIEWS) {
      await page.getByRole('tab', { name: new RegExp(`^${view.tab}`) }).click();
      await page.getByRole('heading', { level: 2, name: view.heading }).waitFor();
      await page.getByText(view.probe).first().waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}${view.tab.toLowerCase().replace(/\s+/g, '-')}.png`, fullPage: true });
    }
    await page.getByRole('button', { name: /Switch theme/ }).click();
    await page.getByRole('button', { name: /Switch theme/ }).click();
    assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');
    await page.screenshot({ path: `${SCREENSHOTS}bridge-dark.png`, fullPage: true });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('the system theme follows the browser: a dark-scheme browser gets the dark palette', async () => {
    const dark = await browser.newContext({ colorScheme: 'dark' });
    try {
      const { page, errors } = await openConsole(dark, h);
      assert.equal(await page.locator('html').getAttribute('data-theme'), 'dark');
      const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
      assert.equal(background, 'rgb(21, 23, 27)');
      assert.deepEqual(errors, []);
    } finally {
      await dark.close();
    }
  });

  test('keyboard: arrow keys move through the views and every control has an accessible name', async () => {
    const { page, errors } = await openConsole(context, h);
    await page.getByRole('tab', { name: REGISTRY[0].label }).click();
    for (const next of REGISTRY.slice(1, 4)) {
      await page.keyboard.press('ArrowDown');
      await page.getByRole('heading', { level: 2, name: next.heading }).waitFor();
    }
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), REGISTRY[3].label);
    for (const view of VIEWS) {
      await page.getByRole('tab', { name: new RegExp(`^${view.tab}`) }).click();
      await page.getByRole('heading', { level: 2, name: view.heading }).waitFor();
      const unnamed = await page.evaluate(() =>
        [...document.querySelectorAll('button, input, select, [role="tab"]')]
          .filter((el) => !(el.getAttribute('aria-label') || el.textContent?.trim() || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el.closest('label')))
          .map((el) => el.outerHTML),
      );
      assert.deepEqual(unnamed, [], view.tab);
    }
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('an approval request cannot be missed, and Approve calls the approve command', async () => {
    const { page, errors } = await openConsole(context, h);
    await page.getByRole('tab', { name: 'Plugins' }).click();
    h.world.requestApproval({ approvalId: 'approval-e2e' });
    await page.getByTestId('approval-banner').waitFor();
    assert.equal(await page.getByTestId('approval-badge').textContent(), '1');
    assert.match(await page.title(), /^\(1\) approval waiting/);
    await page.screenshot({ path: `${SCREENSHOTS}approval-banner.png` });
    await page.getByRole('button', { name: 'Review now' }).click();
    const pending = page.getByTestId('approval-pending');
    await pending.getByText('src/app.ts').first().waitFor();
    await pending.getByText('run(2);').first().waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}approval-pending.png`, fullPage: true });
    await pending.getByRole('button', { name: 'Approve' }).click();
    await page.getByTestId('approval-decided').filter({ hasText: 'approved' }).waitFor();
    assert.deepEqual(h.world.commands.filter((c) => c.command === 'approve').map((c) => c.args), [['approval-e2e']]);
    assert.equal(await page.getByTestId('approval-badge').count(), 0);

    h.world.requestApproval({ approvalId: 'approval-deny' });
    await page.getByTestId('approval-pending').waitFor();
    await page.getByRole('textbox', { name: 'Reason for denial' }).fill('touches generated code');
    await page.getByTestId('approval-pending').getByRole('button', { name: 'Deny' }).click();
    await page.getByTestId('approval-decided').filter({ hasText: 'touches generated code' }).waitFor();
    assert.deepEqual(h.world.commands.filter((c) => c.command === 'deny').map((c) => c.args), [['approval-deny', 'touches generated code']]);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('rolling back to a revision calls rollback and the revision list follows', async () => {
    const { page, errors } = await openConsole(context, h);
    await page.getByRole('tab', { name: 'Transactions' }).click();
    await page.getByRole('button', { name: 'Side by side' }).click();
    await page.locator('table.diff td.dl-add', { hasText: 'run(2);' }).waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}transactions-side-by-side.png`, fullPage: true });
    await page.getByRole('button', { name: 'Roll back to revision 1' }).click();
    await page.getByText('Rolled back to revision 1').waitFor();
    await page.getByRole('button', { name: /r2: fix type error/ }).waitFor({ state: 'detached' });
    assert.deepEqual(h.world.commands.filter((c) => c.command === 'rollback').map((c) => c.args), [['ws-1', 1]]);
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a second tab sees the same live state', async () => {
    const first = await openConsole(context, h);
    const second = await openConsole(context, h);
    for (const { page } of [first, second]) await page.getByRole('tab', { name: 'Live calls' }).click();
    h.world.startCall({ callId: 'shared-call', tool: 'find-references', agent: 'second-tab-agent' });
    for (const { page } of [first, second]) await page.locator('[data-call-id="shared-call"]').waitFor();
    h.world.finishCall('shared-call', { status: 'error', errorCode: 'ToolTimeout' });
    for (const { page } of [first, second]) await page.locator('[data-call-id="shared-call"]').getByText('ToolTimeout').waitFor();
    const counts = await Promise.all([first, second].map(({ page }) => page.getByTestId('call-count').textContent()));
    assert.equal(counts[0], counts[1]);
    assert.deepEqual([...first.errors, ...second.errors], []);
    await Promise.all([first.page.close(), second.page.close()]);
  });

  test('10,000 calls stay windowed and the detail drawer shows arguments and result', async () => {
    const { page, errors } = await openConsole(context, h);
    await page.getByRole('tab', { name: 'Live calls' }).click();
    for (let i = 0; i < 10_000; i++) h.world.startCall({ callId: `bulk-${i}`, tool: i % 2 ? 'diagnostics' : 'document-read' });
    await page.getByTestId('call-count').filter({ hasText: '10,000 shown · 10,000 in the live log' }).waitFor();
    const rendered = await page.locator('.calls-window [role="row"]').count();
    assert.ok(rendered > 0 && rendered < 100, `rendered ${rendered} rows`);
    // The oldest calls (the seeded ones) were evicted: the console keeps the last 10,000.
    h.world.finishCall('bulk-9999', {}, { path: 'src/app.ts' }, { content: [{ type: 'text', text: 'export {};' }] });
    await page.getByRole('searchbox', { name: 'Search' }).fill('bulk-9999');
    await page.locator('[data-call-id="bulk-9999"]').click();
    const drawer = page.getByRole('complementary', { name: 'Call bulk-9999' });
    await drawer.getByText('"src/app.ts"').waitFor();
    await drawer.getByText('export {};').waitFor();
    await page.screenshot({ path: `${SCREENSHOTS}call-detail.png` });
    assert.deepEqual(errors, []);
    await page.close();
  });

  test('a wrong token is refused with no bundle', async () => {
    const stranger = await browser.newContext();
    try {
      const page = await stranger.newPage();
      const errors = watchErrors(page);
      const response = await page.goto(`${h.origin}/?token=wrong`);
      assert.equal(response?.status(), 401);
      assert.equal(await page.locator('#root').count(), 0);
      const bare = await page.goto(`${h.origin}/`);
      assert.equal(bare?.status(), 401);
      // The refusal page wears the console's look: its stylesheet passes the page's CSP and applies.
      const card = await page.locator('main').evaluate((el) => {
        const style = getComputedStyle(el);
        return { borderTopWidth: style.borderTopWidth, fontFamily: getComputedStyle(document.body).fontFamily };
      });
      assert.equal(card.borderTopWidth, '4px');
      assert.match(card.fontFamily, /system-ui/);
      await page.getByRole('heading', { name: 'Open the console with its link' }).waitFor();
      await page.screenshot({ path: `${SCREENSHOTS}unauthorized.png` });
      assert.deepEqual(errors.filter((e) => /Content Security Policy|Refused to apply/i.test(e)), []);
    } finally {
      await stranger.close();
    }
  });
});
