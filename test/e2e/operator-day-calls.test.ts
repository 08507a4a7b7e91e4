/**
 * Issue 24, items 1, 2, 9 and 10's calls table: the header with approvals in play, held calls in Live calls, sharing history.
 * The stack: test/e2e/support/day-stack.ts (real Junction with an approval policy, the SDK scene app as
 * editor and runtime, two sessions of one MCP client, Chromium at 1440×900 and 1024×700).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { eventually } from '../support/junction-harness.js';
import { openLiveConsole } from './support/chromium.js';
import { APPROVAL_TIMEOUT_S, NARROW, SCREENSHOTS, describeDay, WIDE } from './support/day-stack.js';
import { horizontalOverflow, seriousViolations } from './support/console-checks.js';

describeDay("the operator's day: header, Live calls and history (issue 24)", (day) => {
  test('1. the header keeps waiting, refused and failed apart, times execution only, and counts held calls like the badge', async () => {
    const { page, call, ops1, ops2, addObject, tab, metric, shoot } = day();
    for (let i = 0; i < 3; i++) await addObject(`Crate ${i}`);
    const id = await addObject('Keeper');
    const held = call(ops1, 'remove-object', { id });
    await page.getByTestId('approval-badge').filter({ hasText: '1' }).waitFor();
    await eventually(async () => (await metric('metric-approvals')) === '1', 5000, 'the waiting tile counts the held call');
    assert.equal(await metric('metric-inflight'), '0', 'a held call is not running');
    await shoot('header-held');
    await tab('Approvals');
    const card = page.getByTestId('call-approval-pending');
    await card.getByRole('textbox', { name: 'Reason for denial' }).fill('keep the keeper');
    await card.getByRole('button', { name: 'Deny' }).click();
    assert.equal((await held).value.error?.code, 'ApprovalDenied');
    // One more waits for nobody: the approval times out.
    const timedOut = await call(ops2, 'remove-object', { id });
    assert.equal(timedOut.value.error?.code, 'ApprovalTimedOut');
    // A call that runs and fails.
    const failed = await call(ops1, 'document-read', { path: 'src/no-such-file.ts' });
    assert.equal(failed.isError, true, JSON.stringify(failed.value));
    await eventually(async () => (await metric('metric-refused')) === '2', 5000, 'two refusals in the header');
    // Ran: 4 adds (ok) and 1 that failed; the two refusals are neither errors nor latency.
    assert.equal(await metric('metric-errors'), '20%');
    assert.match(await metric('metric-p99'), /^\d+(\.\d)? ms$/, `p99 is execution time, not the ${APPROVAL_TIMEOUT_S} s wait`);
    assert.equal(await metric('metric-approvals'), '0');
    await shoot('header-after');
  });

  test('2. Live calls: held is a status and a filter, the detail decides it with its arguments, a decision column names who decided, duration splits waiting from running', async () => {
    const { page, call, ops2, addObject, tab, shoot } = day();
    const id = await addObject('Doomed');
    await tab('Live calls');
    const removing = call(ops2, 'remove-object', { id });
    const row = page.locator('.calls-window [role="row"]', { hasText: 'remove-object' }).filter({ has: page.locator('.pill.state-held') }).first();
    await row.waitFor();
    await page.getByLabel('Status').selectOption('held');
    await eventually(async () => (await page.locator('.calls-window [role="row"]').count()) === 1, 5000, 'only the held call under the held filter');
    await row.click();
    const detail = page.getByTestId('call-detail');
    const heldCard = detail.getByTestId('call-detail-held');
    await heldCard.getByRole('tree', { name: 'Arguments of remove-object' }).getByText(`"${id}"`).waitFor();
    await heldCard.getByTestId('held-countdown').waitFor();
    await shoot('calls-held');
    await page.waitForTimeout(1200);
    await heldCard.getByRole('button', { name: 'Allow once' }).click();
    assert.equal((await removing).isError, false);
    await page.getByLabel('Status').selectOption('all');
    await detail.getByTestId('call-policy').filter({ hasText: 'operator: allowed once' }).waitFor();
    assert.match(await detail.getByTestId('detail-duration').innerText(), /^ran \d+(\.\d)? ms · waited \d+(\.\d)? s for the operator/);
    const decided = page.locator(`.calls-window [data-call-id]`, { hasText: 'remove-object' }).filter({ has: page.getByTestId('call-decision').filter({ hasText: 'operator: allowed once' }) });
    await decided.first().waitFor();
    assert.equal(await page.locator('.calls-window [role="row"]').filter({ has: page.getByTestId('call-decision').filter({ hasText: 'operator: denied' }) }).count(), 1, 'the denial of item 1 says who decided');
    await shoot('calls-decided');
  });

  test('9. history: export follows the filter, a URL opens a call, the total does not move with the search, JSON-RPC per call with edit and replay', async () => {
    const { page, junction, tab, shoot, editor, context } = day();
    await tab('Live calls');
    const count = page.getByTestId('call-count');
    const total = async () => /· ([\d,]+) in the live log/.exec(await count.innerText())?.[1];
    const before = await total();
    await page.getByRole('searchbox', { name: 'Search' }).fill('Crate');
    await eventually(async () => /^3 shown/.test(await count.innerText()), 5000, 'three calls named Crate');
    assert.equal(await total(), before, 'the total stays what it was');
    const href = await page.getByRole('link', { name: 'Export' }).getAttribute('href');
    assert.ok(href?.includes('text=Crate'), href ?? 'no href');
    const exported = (await (await page.request.get(`${junction.baseUrl}${href}`)).text()).trim().split('\n').map((l) => JSON.parse(l) as { tool: string; arguments: { name?: string } });
    assert.equal(exported.length, 3);
    assert.ok(exported.every((l) => l.tool === 'add-object' && l.arguments.name?.startsWith('Crate')), JSON.stringify(exported));
    await page.getByLabel('Status').selectOption('refused');
    const refusedHref = await page.getByRole('link', { name: 'Export' }).getAttribute('href');
    await page.getByRole('searchbox', { name: 'Search' }).fill('');
    const refused = (await (await page.request.get(`${junction.baseUrl}${refusedHref?.replace(/&text=[^&]*/, '')}`)).text()).trim().split('\n').map((l) => JSON.parse(l) as { errorCode: string });
    assert.deepEqual(refused.map((l) => l.errorCode).sort(), ['ApprovalDenied', 'ApprovalTimedOut']);
    await page.getByLabel('Status').selectOption('all');

    const row = page.locator('.calls-window [role="row"]', { hasText: 'add-object' }).first();
    const callId = await row.getAttribute('data-call-id');
    await row.click();
    const detail = page.getByTestId('call-detail');
    await detail.getByRole('button', { name: 'Copy link' }).click();
    const link = await page.evaluate(() => navigator.clipboard.readText());
    assert.ok(link.endsWith(`#calls/${callId}`), link);
    const { page: second, errors: secondErrors } = await openLiveConsole(context, link);
    await second.getByTestId('call-detail').getByText(callId!).waitFor();
    await second.close();
    assert.deepEqual(secondErrors, []);

    await detail.getByRole('button', { name: 'JSON-RPC', exact: true }).click();
    const trace = detail.getByTestId('jsonrpc-trace');
    await trace.getByText('"method": "tools/call"').first().waitFor();
    await trace.getByText('response', { exact: true }).waitFor();
    await shoot('calls-jsonrpc');
    await trace.getByText('Edit and send again').click();
    const request = trace.getByRole('textbox', { name: 'Request to send' });
    const edited = JSON.parse(await request.inputValue()) as { params: { arguments: Record<string, unknown> } };
    edited.params.arguments = { name: 'Edited replay', kind: 'sphere' };
    await request.fill(JSON.stringify(edited));
    await trace.getByRole('button', { name: 'Send as console' }).click();
    await page.getByTestId('call-detail').getByText('Edited replay').first().waitFor();
    assert.ok(editor.scene.list(100).items.some((o: { name: string }) => o.name === 'Edited replay'));
  });

  test('10. at 1024×700: Plugins and Settings fit, a call\'s detail leaves more than four rows, the Agent column tells sessions apart', async () => {
    const { page, call, ops2, tab } = day();
    await page.setViewportSize(NARROW);
    await tab('Plugins');
    await page.getByRole('button', { name: /scene-editor, show its tools/ }).click();
    await page.getByTestId('plugin-tool').first().waitFor();
    assert.equal(await horizontalOverflow(page), 0, 'Plugins needs no sideways scrolling');
    await page.screenshot({ path: `${SCREENSHOTS}day-plugins-1024x700.png`, fullPage: true });
    await tab('Settings');
    await page.getByTestId('settings-table').waitFor();
    assert.equal(await horizontalOverflow(page), 0, 'Settings needs no sideways scrolling');
    await page.screenshot({ path: `${SCREENSHOTS}day-settings-1024x700.png`, fullPage: true });
    await call(ops2, 'list-objects', { limit: 1 });
    await tab('Live calls');
    await page.locator('.calls-window [role="row"]').first().click();
    await page.getByTestId('call-detail').waitFor();
    const visible = await page.evaluate(() => {
      const box = document.querySelector('.calls-scroll')!.getBoundingClientRect();
      return [...document.querySelectorAll('.calls-window [role="row"]')].filter((r) => {
        const b = r.getBoundingClientRect();
        return b.top >= box.top - 1 && b.bottom <= box.bottom + 1;
      }).length;
    });
    assert.ok(visible > 4, `${visible} rows visible with the detail open`);
    const sessions = await page.evaluate(() => {
      const tags = new Set<string>();
      for (const cell of document.querySelectorAll<HTMLElement>('.calls-window .c-agent')) {
        const tag = cell.querySelector<HTMLElement>('.agent-session');
        if (!tag || !cell.textContent?.startsWith('claude-ops')) continue;
        const [c, t] = [cell.getBoundingClientRect(), tag.getBoundingClientRect()];
        if (t.right <= c.right + 0.5 && t.width > 0) tags.add(tag.textContent ?? '');
      }
      return [...tags];
    });
    assert.ok(sessions.length >= 2, `two sessions of claude-ops told apart: ${JSON.stringify(sessions)}`);
    await page.screenshot({ path: `${SCREENSHOTS}day-calls-detail-1024x700.png`, fullPage: true });
    for (const v of await seriousViolations(page)) day().axe.push(`calls 1024: ${v}`);
    await page.setViewportSize(WIDE);
  });

});
