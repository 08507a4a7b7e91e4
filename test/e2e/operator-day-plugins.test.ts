/**
 * Issue 24, item 5: a plugin killed with SIGKILL and an editor replaced leave a trace.
 * The stack: test/e2e/support/day-stack.ts (real Junction with an approval policy, the SDK scene app as
 * editor and runtime, two sessions of one MCP client, Chromium at 1440×900 and 1024×700).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startScenePlugin } from '../../plugins/examples/scene/plugin.js';
import { openLiveConsole } from './support/chromium.js';
import { describeDay, RECONNECT_WAIT_S } from './support/day-stack.js';

describeDay("the operator's day: a lost plugin and a replaced editor (issue 24)", (day) => {
  test('5. a lost plugin leaves a trace: lost since, awaited, a notice naming it, its name expands it, then its slot says who and why; a replaced editor says so', async () => {
    const { page, context, junction, tab, shoot, editor, runtime } = day();
    await tab('Plugins');
    runtime?.kill('SIGKILL');
    const row = page.getByTestId('plugin-row').filter({ hasText: 'scene-runtime' });
    await row.getByText(/awaited, \d+s left/).waitFor();
    await row.getByText(/lost \d+s ago/).waitFor();
    await page.getByTestId('notice').filter({ hasText: 'Plugin connection lost' }).getByText('plugin scene-runtime (runtime)').waitFor();
    await row.getByRole('button', { name: /scene-runtime, show its tools/ }).click();
    const lostDetail = page.locator('tr.detail-row').filter({ hasText: /connection is lost/ });
    await lostDetail.first().waitFor();
    assert.equal(await page.getByText('ResourceNotFound').count(), 0);
    await shoot('plugin-lost');
    await page.getByTestId('slot-runtime').getByTestId('slot-departed').getByText(/scene-runtime, last seen \d{2}:\d{2}:\d{2}\.\d{3}: not back in time/).waitFor({ timeout: (RECONNECT_WAIT_S + 10) * 1000 });
    await page.getByTestId('notice').filter({ hasText: 'Plugin gone' }).waitFor();
    const replacement = await startScenePlugin({ endpoint: `${junction.baseUrl}/hub/mcp-server`, role: 'editor', name: 'scene-editor-2' });
    await editor.stop();
    try {
      await page.getByTestId('slot-editor').getByText(/scene-editor, last seen .*: replaced by scene-editor-2/).waitFor();
      await page.getByTestId('notice').filter({ hasText: 'Plugin replaced' }).waitFor();
      await shoot('plugin-replaced');
      // A console opened after both left still sees who held each slot, when, and why.
      const later = await openLiveConsole(context, junction.consoleUrl);
      try {
        await later.page.getByRole('tab', { name: /^Plugins/ }).click();
        await later.page.getByTestId('slot-runtime').getByTestId('slot-departed').getByText(/scene-runtime, last seen \d{2}:\d{2}:\d{2}\.\d{3}: not back in time/).waitFor();
        await later.page.getByTestId('slot-editor').getByText(/scene-editor, last seen .*: replaced by scene-editor-2/).waitFor();
        assert.deepEqual(later.errors, []);
      } finally {
        await later.page.close();
      }
    } finally {
      await replacement.stop();
    }
  });

});
