/**
 * The console's history reads do not block the event loop: on a real Junction whose writer thread has
 * thousands of records to write, a history page waits for them by message (timers keep running, so
 * agents' calls would too) and still shows the call recorded just before it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HistoryPage } from '../../../src-main/contracts/index.js';
import { timeOrderedId } from '../../../src-main/shared/time-ordered-id.js';
import { startTestJunction } from '../../support/junction-harness.js';

test('a history page waits for the writer without blocking the event loop, and shows what was recorded before it', async () => {
  const junction = await startTestJunction();
  try {
    const store = junction.audit!.store;
    const now = Date.now();
    let last = '';
    for (let i = 0; i < 5_000; i++) {
      last = timeOrderedId(now + i);
      const args = JSON.stringify({ n: i, text: `record ${i} `.repeat(20) });
      store.recordCall({ call: { callId: last, agent: 'agent', transport: 'http-api', tool: 'echo', target: 'host', status: 'ok', startedAt: now + i, requestBytes: args.length }, json: { arguments: args }, policy: null, decidedBy: null });
    }
    let ticks = 0;
    const timer = setInterval(() => ticks++, 1);
    const reply = await junction.control.execute('history', { limit: 5 });
    clearInterval(timer);
    assert.ok(reply.ok, JSON.stringify(reply));
    const page = reply.value as HistoryPage;
    assert.ok(ticks > 0, 'timers ran while the page waited for the writer');
    assert.equal(page.available, true);
    assert.equal(page.calls[0]?.callId, last, 'the page shows the call recorded last, before it was asked for');
  } finally {
    await junction.stop();
  }
});

test('a long history search runs off the event loop: it turns, again and again, until the answer comes', async () => {
  const junction = await startTestJunction();
  try {
    const store = junction.audit!.store;
    const now = Date.now();
    // Every call holds "alpha" and "beta" hundreds of times, never as "alpha beta": the phrase must be
    // looked for at every position of every call, a search that takes SQLite a while by construction.
    const args = JSON.stringify({ words: 'beta alpha omega '.repeat(500) });
    for (let i = 0; i < 4_000; i++) {
      store.recordCall({ call: { callId: timeOrderedId(now + i), agent: 'agent', transport: 'http-api', tool: 'echo', target: 'host', status: 'ok', startedAt: now + i, requestBytes: args.length }, json: { arguments: args }, policy: null, decidedBy: null });
    }
    store.flush();
    // Nothing waits to be written now, and the reading side has answered once already: what follows is the search alone.
    const warm = await junction.control.execute('history', { limit: 1 });
    assert.ok(warm.ok, JSON.stringify(warm));
    let turns = 0;
    let answered = false;
    const turn = () => {
      if (answered) return;
      turns++;
      setImmediate(turn);
    };
    setImmediate(turn);
    const reply = await junction.control.execute('history', { text: 'alpha-beta', limit: 10 });
    answered = true;
    assert.ok(reply.ok, JSON.stringify(reply));
    assert.deepEqual((reply.value as HistoryPage).calls, [], 'no call holds the phrase');
    assert.ok(turns > 0, 'the event loop went on turning while SQLite searched');
    const found = await junction.control.execute('history', { text: 'alpha-omega', limit: 10 });
    assert.ok(found.ok && (found.value as HistoryPage).calls.length === 10, 'the same search finds the phrase that is there');
  } finally {
    await junction.stop();
  }
});
