/**
 * Issue 24, items 3, 6, 7 and 8, and the Agents view of issue 26: notices, Transactions against the review, always allow, Run a tool.
 * The stack: test/e2e/support/day-stack.ts (real Junction with an approval policy, the SDK scene app as
 * editor and runtime, two sessions of one MCP client, Chromium at 1440×900 and 1024×700).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile, writeFile } from 'node:fs/promises';
import type { PolicyDocument } from '../../src-main/contracts/console.js';
import { eventually } from '../support/junction-harness.js';
import { DAY_POLICY, NARROW, describeDay, WIDE } from './support/day-stack.js';
import { coveredByNotices, horizontalOverflow } from './support/console-checks.js';

describeDay("the operator's day: notices, transactions, always allow, the runner, agents (issue 24)", (day) => {
  test('3. notices name their subject, link to it, expire, and never cover the content', async () => {
    const { page, junction, tab, shoot } = day();
    junction.control.publish({ type: 'notice.raised', notice: { id: 'n-audit', level: 'warning', title: 'Audit trail slow', message: 'writes waited 2 s', subject: { kind: 'audit', id: 'audit', label: 'the audit trail' }, at: Date.now(), ttlMs: 2500 } });
    junction.control.publish({ type: 'notice.raised', notice: { id: 'n-plugin', level: 'info', title: 'Plugin says hello', message: 'scene ready', subject: { kind: 'plugin', id: (await junction.control.snapshot()).plugins.find((p) => p.name === 'scene-editor')!.connectionId, label: 'plugin scene-editor (editor)' }, at: Date.now(), ttlMs: 60_000 } });
    for (let i = 0; i < 4; i++) junction.control.publish({ type: 'notice.raised', notice: { id: `n-burst-${i}`, level: 'info', title: `Burst ${i}`, message: '', subject: { kind: 'bridge', id: 'bridge', label: 'the bridge' }, at: Date.now(), ttlMs: 60_000 } });
    const strip = page.getByTestId('notices');
    await strip.getByText('Burst 3').waitFor();
    assert.ok((await strip.getByTestId('notice').count()) <= 3, 'at most three at once');
    await strip.getByRole('button', { name: /more/ }).waitFor();
    for (const view of ['Live calls', 'Approvals', 'Transactions']) {
      await tab(view);
      assert.deepEqual(await coveredByNotices(page, '#view-panel'), [], `${view}: no notice over the view`);
    }
    await shoot('notices');
    await strip.getByRole('button', { name: /more/ }).click();
    await strip.getByTestId('notice').filter({ hasText: 'Plugin says hello' }).getByTestId('notice-subject').click();
    await page.getByRole('heading', { level: 2, name: 'Plugins' }).waitFor();
    await page.getByTestId('plugin-detail').first().waitFor();
    await page.mouse.move(0, 0);
    await strip.getByText('Audit trail slow').waitFor({ state: 'detached', timeout: 10_000 });
  });

  test('6. Transactions agrees with the review: the review\'s diagnostics per revision, the error marked on its line, side by side unclipped, long lines wrap', async () => {
    const { page, call, ops1, tab, shoot } = day();
    const snapshot = ((await call(ops1, 'workspace-status', {})).value.items as Array<{ snapshot: unknown }>)[0]!.snapshot;
    const started = await call(ops1, 'transaction-start', { expectedSnapshot: snapshot });
    const long = `// ${'a very long comment that no screen shows on one line '.repeat(8)}\n`;
    const staged = await call(ops1, 'stage-edits', {
      expectedSnapshot: started.value.snapshot,
      summary: 'add a typed constant',
      changes: [{ kind: 'edit', path: 'src/money.ts', edits: [{ range: { start: { offset: 0 }, end: { offset: 0 } }, newText: `${long}export const broken: number = 'not a number';\n` }] }],
    });
    assert.equal(staged.isError, false, JSON.stringify(staged.value));
    const reviewing = call(ops1, 'transaction-review', { expectedSnapshot: staged.value.snapshot, waitSeconds: 60 });
    await page.getByTestId('approval-banner').waitFor();
    await tab('Transactions');
    const review = page.getByTestId('revision-review');
    await review.getByTestId('compile-check').getByText(/Adds 1 compiler error/).waitFor();
    await review.getByText('TS2322').waitFor();
    const mark = page.getByTestId('diff-diagnostic').first();
    await mark.getByText(/TS2322/).waitFor();
    assert.match(await mark.evaluate((el) => el.previousElementSibling?.textContent ?? ''), /broken: number/, 'the mark sits under the line of the error');
    await page.getByRole('button', { name: 'Side by side' }).first().click();
    for (const size of [WIDE, NARROW]) {
      await page.setViewportSize(size);
      await page.waitForTimeout(100);
      const fits = await page.locator('table.diff.split').first().evaluate((t) => ({ table: t.scrollWidth - t.clientWidth, right: t.getBoundingClientRect().right, view: document.documentElement.clientWidth }));
      assert.ok(fits.table <= 1 && fits.right <= fits.view, `side by side fits at ${size.width}: ${JSON.stringify(fits)}`);
      assert.equal(await horizontalOverflow(page), 0, `no sideways scrolling at ${size.width}`);
    }
    const longCell = page.locator('table.diff.split td.dl-add', { hasText: 'a very long comment' }).first();
    assert.ok((await longCell.evaluate((el) => el.getBoundingClientRect().height)) > 30, 'the long line wraps onto several lines');
    await mark.scrollIntoViewIfNeeded();
    await shoot('transactions-review');
    await tab('Approvals');
    await page.getByTestId('approval-pending').getByRole('textbox', { name: 'Reason for denial' }).fill('does not compile');
    await page.getByTestId('approval-pending').getByRole('button', { name: 'Deny' }).click();
    assert.equal((await reviewing).value.error?.code, 'ReviewRequired');
    await call(ops1, 'transaction-rollback', { expectedSnapshot: staged.value.snapshot });
  });

  test('7. always allow shows the server\'s rule and asks again before writing it; the rule can be undone', async () => {
    const { page, call, tab, shoot, policyPath, connect } = day();
    const fresh = await connect();
    try {
      const stepping = call(fresh, 'simulate-step', { steps: 2 });
      await tab('Approvals');
      const card = page.getByTestId('call-approval-pending');
      await card.getByRole('button', { name: 'Always allow…' }).click();
      const preview = card.getByTestId('always-allow-preview');
      await preview.getByText('"tool": "simulate-step"').waitFor();
      // The rule the server writes: for this agent only, so the ask rule still holds every other agent.
      await preview.getByText('"agent": "claude-ops"').waitFor();
      await preview.getByText(/as rule 1, just before the rule that asked/).waitFor();
      await preview.getByText(/by claude-ops with any arguments runs without asking; other agents are still asked/).waitFor();
      await preview.getByTestId('always-allow-findings').getByText(/leaves no rule dead/).waitFor();
      await shoot('always-allow-preview');
      await preview.getByRole('button', { name: 'Cancel' }).click();
      assert.deepEqual(JSON.parse(await readFile(policyPath, 'utf8')), DAY_POLICY, 'nothing written before the second click');
      await card.getByRole('button', { name: 'Always allow…' }).click();
      await card.getByRole('button', { name: 'Write rule and allow' }).click();
      assert.equal((await stepping).isError, false);
      const written = JSON.parse(await readFile(policyPath, 'utf8')) as PolicyDocument;
      assert.deepEqual([written.rules[1]?.tool, written.rules[1]?.agent, written.rules[1]?.action, written.rules[2]?.action], ['simulate-step', 'claude-ops', 'allow', 'ask'], 'the rule the preview showed, where it said');
      const undo = page.getByTestId('always-allow-written').filter({ hasText: 'tool simulate-step, agent claude-ops' });
      await undo.getByText(/Rule 1 written at/).waitFor();
      await shoot('always-allow-written');
      await undo.getByRole('button', { name: 'Undo' }).click();
      await eventually(async () => JSON.stringify(JSON.parse(await readFile(policyPath, 'utf8'))) === JSON.stringify(DAY_POLICY), 5000, 'the policy as it was');
      await undo.waitFor({ state: 'detached' });
    } finally {
      await fresh.close();
    }
  });

  test('7. session grants are listed and revocable; the decision log is in time order with arguments and a link to the call', async () => {
    const { page, call, tab, shoot, connect } = day();
    const fresh = await connect();
    try {
      const first = call(fresh, 'simulate-step', { steps: 3 });
      await tab('Approvals');
      await page.getByTestId('call-approval-pending').getByRole('button', { name: 'Allow for this session' }).click();
      assert.equal((await first).isError, false);
      await tab('Policy');
      const grant = page.getByTestId('session-grant').filter({ hasText: 'simulate-step' });
      await grant.getByText(/^claude-ops\/2\.1\.0 #\d+$/).waitFor();
      assert.equal((await call(fresh, 'simulate-step', { steps: 4 })).isError, false, 'the grant lets the session through unasked');
      const log = page.getByTestId('call-approval-decided');
      await log.filter({ hasText: '{"steps":3}' }).getByText('allowed for the session').waitFor();
      await shoot('policy-grants-log');
      await grant.getByRole('button', { name: /Revoke simulate-step/ }).click();
      await grant.waitFor({ state: 'detached' });
      const asked = call(fresh, 'simulate-step', { steps: 5 });
      await page.getByTestId('approval-banner').waitFor();
      await tab('Approvals');
      await page.getByTestId('call-approval-pending').getByRole('textbox', { name: 'Reason for denial' }).fill('not now');
      await page.getByTestId('call-approval-pending').getByRole('button', { name: 'Deny' }).click();
      assert.equal((await asked).value.error?.code, 'ApprovalDenied', 'revoked: the session is asked again');
      await tab('Policy');
      const denied = log.filter({ hasText: '{"steps":5}' });
      await denied.getByText('not now').waitFor();
      const times = await log.evaluateAll((rows) => rows.map((r) => r.querySelector('td')?.textContent ?? ''));
      assert.deepEqual([...times].sort(), times, 'oldest decision first');
      const rows = await log.allInnerTexts();
      assert.ok(rows.findIndex((t) => t.includes('{"steps":3}')) < rows.findIndex((t) => t.includes('{"steps":5}')), 'decided in that order');
      await denied.getByRole('link', { name: /^open call simulate-step decided at/ }).click();
      await page.getByRole('heading', { level: 2, name: 'Live calls' }).waitFor();
      assert.match(page.url(), /#calls\/[^/]+$/);
      await page.getByTestId('call-detail').getByText('not now').first().waitFor();
    } finally {
      await fresh.close();
    }
  });

  test('7. the Policy view flags a rule that can never decide a call', async () => {
    const { page, tab, shoot, policyPath } = day();
    await tab('Policy');
    const dead = { rules: [...DAY_POLICY.rules, { tool: 'remove-object', action: 'deny' as const, reason: 'never reached' }] };
    await writeFile(policyPath, JSON.stringify(dead));
    try {
      await page.getByTestId('policy-rule').nth(3).getByTestId('rule-finding').getByText('dead: rule 0 decides first').waitFor();
      await page.getByTestId('policy-findings').getByText(/Rule 3 \(deny\) never applies: rule 0 \(ask\)/).waitFor();
      await shoot('policy-findings');
    } finally {
      await writeFile(policyPath, JSON.stringify(DAY_POLICY));
    }
    await page.getByTestId('policy-findings').waitFor({ state: 'detached' });
  });

  test('8. Run a tool: a held run says so and is decided there, form and result survive navigation, fields follow the schema, annotations show', async () => {
    const { page, addObject, tab, shoot, editor } = day();
    const id = await addObject('Console target');
    await page.keyboard.press('Control+k');
    await page.keyboard.type('remove-object');
    await page.getByTestId('palette').getByRole('option', { name: /Tool remove-object/ }).click();
    const runner = page.getByTestId('tool-runner');
    await runner.getByText('destructive', { exact: true }).waitFor();
    await runner.getByText('idempotent', { exact: true }).waitFor();
    await runner.getByLabel(/^id/).fill(id);
    await runner.getByRole('button', { name: 'Run as console' }).click();
    await runner.getByTestId('run-held').waitFor();
    await runner.getByRole('button', { name: 'Held for approval…' }).waitFor();
    await shoot('run-held');
    await tab('Approvals');
    await page.getByTestId('call-approval-pending').waitFor();
    await tab('Run a tool');
    assert.equal(await runner.getByLabel(/^id/).inputValue(), id, 'the form survived leaving the view');
    await runner.getByTestId('run-held-card').getByRole('button', { name: 'Allow once' }).click();
    await runner.getByTestId('run-outcome').getByText(`"${id}"`).first().waitFor();
    await tab('Live calls');
    await tab('Run a tool');
    await runner.getByTestId('run-outcome').getByText(`"${id}"`).first().waitFor();

    await page.getByRole('list', { name: 'Tools' }).getByRole('button', { name: /add-object/ }).click();
    const position = runner.getByRole('group', { name: /position/ });
    await position.getByLabel(/^x/).fill('1.5');
    await position.getByLabel(/^y/).fill('2');
    await position.getByLabel(/^z/).fill('-3');
    assert.equal(await position.getByLabel(/^x/).getAttribute('type'), 'number', 'numbers get number inputs');
    await runner.getByLabel(/^name/).fill('Placed');
    await runner.getByLabel(/^kind/).selectOption('sphere');
    await runner.getByRole('button', { name: 'Run as console' }).click();
    await runner.getByTestId('run-outcome').getByText('"Placed"').first().waitFor();
    const placed = editor.scene.list(100).items.find((o: { name: string }) => o.name === 'Placed') as { position?: unknown } | undefined;
    assert.deepEqual(placed?.position, { x: 1.5, y: 2, z: -3 });
    await shoot('run-form');
  });

  test('4/26. the Agents view lists the sessions with their own calls and since when', async () => {
    const { page, tab, shoot, call, ops2 } = day();
    await tab('Agents');
    const rows = page.getByTestId('agent-row').filter({ hasText: 'claude-ops' });
    await eventually(async () => (await rows.count()) >= 2, 5000, 'two agent sessions');
    const text = await rows.first().innerText();
    assert.match(text, /claude-ops 2\.1\.0\s+MCP over HTTP\s+2025-11-25/, 'the revision the session negotiated');
    assert.match(text, /\d{2}:\d{2}:\d{2}\.\d{3}/, 'since when');
    // Data cells follow the row header, so the Calls column's cell index is its header's less one.
    const headers = await page.getByRole('table', { name: 'Connected agents' }).getByRole('columnheader').allInnerTexts();
    const callsCell = headers.findIndex((h) => h.trim() === 'Calls') - 1;
    assert.ok(callsCell >= 0, headers.join(' | '));
    const counts = () => rows.evaluateAll((trs, cell) => Object.fromEntries(trs.map((tr) => [tr.querySelector('code')?.getAttribute('title') ?? '', Number(tr.querySelectorAll('td')[cell]?.textContent)])), callsCell);
    const before = await counts();
    await call(ops2, 'list-objects', { limit: 1 });
    await call(ops2, 'list-objects', { limit: 2 });
    // Exactly one session gained the two calls: calls are counted per session, not per client name.
    const grown = await eventually(async () => {
      const now = await counts();
      const changed = Object.entries(now).filter(([id, n]) => n !== before[id]);
      return changed.length === 1 && changed[0]![1] === (before[changed[0]![0]] ?? 0) + 2 ? changed : undefined;
    }, 5000, 'two more calls on one session');
    assert.equal(grown.length, 1);
    await shoot('agents');
  });

});
