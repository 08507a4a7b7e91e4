import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { createAnalyticsWebhooks } from '../../../../src-main/bridge/webhooks/index.js';
import { JunctionError } from '../../../../src-main/contracts/errors.js';
import { json, recordingLogger, refusedUrl, startReceiver, type Receiver } from './receiver.js';

function activeTimers(): number {
  return process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;
}

describe('analytics webhooks over real HTTP', () => {
  let ok: Receiver;
  let failing: Receiver;
  let stalled: Receiver;
  const held: ServerResponse[] = [];

  before(async () => {
    ok = await startReceiver((_request, res) => json(res, 200, {}));
    failing = await startReceiver((_request, res) => json(res, 500, { error: 'down' }));
    stalled = await startReceiver((_request, res) => void held.push(res));
  });
  after(async () => {
    for (const res of held) res.destroy();
    await Promise.all([ok.close(), failing.close(), stalled.close()]);
  });

  test('with no URL configured, emit is inert: no queue, no timers, no requests', async () => {
    const webhooks = createAnalyticsWebhooks({ logger: recordingLogger() });
    const other = createAnalyticsWebhooks({ urls: {}, token: 't', logger: recordingLogger() });
    assert.equal(webhooks.enabled, false);
    assert.equal(webhooks, other, 'every disabled instance is the same shared object');
    // Runs first in this file so no earlier delivery's timeout timer can expire between the counts.
    const timers = activeTimers();
    const start = ok.received.length;
    for (let n = 0; n < 1000; n++) webhooks.emit('tool', 'tool.call.completed', { n });
    assert.equal(activeTimers(), timers);
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(activeTimers(), timers);
    assert.deepEqual(webhooks.stats(), { queued: 0, inFlight: 0, delivered: 0, failed: 0, dropped: 0 });
    assert.equal(ok.received.length, start);
    await webhooks.close();
  });

  test('delivers each category to its own URL in the envelope, with the token header', async () => {
    const logger = recordingLogger();
    const fixed = new Date('2026-03-01T12:34:56.789Z');
    const webhooks = createAnalyticsWebhooks({
      urls: { tool: ok.url('/tools'), connection: ok.url('/connections') },
      token: 'analytics-secret',
      logger,
      now: () => fixed,
    });
    const data = { toolName: 'add', requestSizeBytes: 42, responseSizeBytes: 18, status: 'success', durationMs: 150 };
    const start = ok.received.length;
    webhooks.emit('tool', 'tool.call.completed', data);
    webhooks.emit('connection', 'connection.plugin.connected', { connectionId: 'c1' });
    webhooks.emit('prompt', 'prompt.get.completed', { promptName: 'unrouted' });
    await ok.waitFor(start + 2);
    await webhooks.close();

    const got = ok.received.slice(start).sort((a, b) => a.path.localeCompare(b.path));
    assert.deepEqual(
      got.map((r) => [r.path, JSON.parse(r.raw) as unknown]),
      [
        ['/connections', { schemaVersion: '1.0', eventType: 'connection.plugin.connected', timestamp: '2026-03-01T12:34:56.789Z', data: { connectionId: 'c1' } }],
        ['/tools', { schemaVersion: '1.0', eventType: 'tool.call.completed', timestamp: '2026-03-01T12:34:56.789Z', data }],
      ],
    );
    for (const r of got) assert.equal(r.headers['x-webhook-token'], 'analytics-secret');
    assert.deepEqual(webhooks.stats(), { queued: 0, inFlight: 0, delivered: 2, failed: 0, dropped: 0 });
    assert.deepEqual(logger.entries, []);
  });

  test('the payload is captured at emit: later mutation of data is not sent', async () => {
    const webhooks = createAnalyticsWebhooks({ urls: { resource: ok.url('/resources') }, logger: recordingLogger() });
    const start = ok.received.length;
    const data = { uri: 'file:///a' };
    webhooks.emit('resource', 'resource.read', data);
    data.uri = 'file:///changed';
    await ok.waitFor(start + 1);
    await webhooks.close();
    assert.deepEqual((JSON.parse(ok.received[start]?.raw ?? '{}') as { data: unknown }).data, { uri: 'file:///a' });
  });

  test('failing receivers (500, connection refused) are logged and counted, never thrown', async () => {
    const logger = recordingLogger();
    const webhooks = createAnalyticsWebhooks({ urls: { tool: failing.url(), connection: await refusedUrl() }, logger });
    const start = failing.received.length;
    webhooks.emit('tool', 'tool.call.completed', { toolName: 'x' });
    webhooks.emit('connection', 'connection.agent.connected', {});
    await failing.waitFor(start + 1);
    await webhooks.close();
    assert.equal(webhooks.stats().failed, 2);
    assert.equal(webhooks.stats().delivered, 0);
    assert.deepEqual(logger.entries.map((e) => e.level), ['warn', 'warn']);
  });

  test('a stalled receiver never blocks emit; overflow drops the oldest and is counted; close aborts the rest', async () => {
    const logger = recordingLogger();
    const webhooks = createAnalyticsWebhooks({ urls: { tool: stalled.url() }, queueCapacity: 5, concurrency: 1, timeoutMs: 60_000, logger });
    const start = stalled.received.length;
    webhooks.emit('tool', 'tool.call.completed', { n: 0 });
    await stalled.waitFor(start + 1);
    // The one sender now waits on a receiver that never answers; emit must still return at once.
    for (let n = 1; n <= 20; n++) assert.equal(webhooks.emit('tool', 'tool.call.completed', { n }), undefined);
    assert.deepEqual(webhooks.stats(), { queued: 5, inFlight: 1, delivered: 0, failed: 0, dropped: 15 });
    assert.ok(logger.entries.some((e) => e.message.includes('dropping the oldest') && e.fields?.dropped === 1));

    await webhooks.close(50);
    const stats = webhooks.stats();
    assert.equal(stats.inFlight, 0);
    assert.equal(stats.queued, 0);
    assert.equal(stats.dropped, 20, 'the five still queued at close are dropped too');
    assert.equal(stats.failed, 1, 'the stalled delivery was aborted');
    webhooks.emit('tool', 'tool.call.completed', { n: 99 });
    assert.equal(webhooks.stats().queued, 0, 'emit after close is ignored');
  });

  test('queued events drain on close when the receiver keeps up', async () => {
    const webhooks = createAnalyticsWebhooks({ urls: { tool: ok.url('/drain') }, concurrency: 2, logger: recordingLogger() });
    const start = ok.received.length;
    for (let n = 0; n < 10; n++) webhooks.emit('tool', 'tool.call.completed', { n });
    await webhooks.close(5000);
    assert.equal(webhooks.stats().delivered, 10);
    assert.equal(ok.received.length - start, 10);
  });

  test('invalid settings fail at construction with ConfigInvalid', () => {
    for (const bad of [{ urls: { tool: 'nope' } }, { urls: { tool: 'http://x/' }, queueCapacity: 0 }, { urls: { tool: 'http://x/' }, concurrency: 0 }]) {
      assert.throws(() => createAnalyticsWebhooks({ ...bad, logger: recordingLogger() }), (error: unknown) => error instanceof JunctionError && error.code === 'ConfigInvalid');
    }
  });
});
