import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHubServer, HubInvocationError, type HubConnection } from '../../../../src-main/bridge/signalr/index.js';
import { JunctionError } from '../../../../src-main/contracts/errors.js';
import { buildClient, once, RawClient, RS, startHub, wsUrl } from './hub-harness.js';

test('invalid options are refused with ConfigInvalid naming the option', () => {
  for (const [options, name] of [
    [{ path: 'hub' }, /path/],
    [{ path: '/hub/' }, /path/],
    [{ maxFrameBytes: 10 }, /maxFrameBytes/],
    [{ keepAliveIntervalMs: 0 }, /keepAliveIntervalMs/],
    [{ clientTimeoutMs: 1.5 }, /clientTimeoutMs/],
  ] as const) {
    assert.throws(
      () => createHubServer(options),
      (error: unknown) => error instanceof JunctionError && error.code === 'ConfigInvalid' && name.test(error.message),
    );
  }
});

test('invocations beyond maxParallelInvocations are refused with a Completion error, not queued', async () => {
  const h = await startHub({ maxParallelInvocations: 2 });
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  h.hub.on('Hold', async (_c, value) => {
    await gate;
    return value;
  });
  const raw = await RawClient.open(wsUrl(h.url));
  try {
    assert.deepEqual(await raw.handshake(), {});
    for (const id of ['1', '2', '3']) raw.send(JSON.stringify({ type: 1, invocationId: id, target: 'Hold', arguments: [id] }) + RS);
    const refused = await raw.next();
    assert.equal(refused.invocationId, '3');
    assert.match(String(refused.error), /Too many parallel invocations on this connection \(limit 2\)/);
    release();
    const done = [await raw.next(), await raw.next()].sort((a, b) => String(a.invocationId).localeCompare(String(b.invocationId)));
    assert.deepEqual(done, [
      { type: 3, invocationId: '1', result: '1' },
      { type: 3, invocationId: '2', result: '2' },
    ]);
    raw.send(JSON.stringify({ type: 1, invocationId: '4', target: 'Hold', arguments: ['4'] }) + RS);
    assert.deepEqual(await raw.next(), { type: 3, invocationId: '4', result: '4' });
  } finally {
    raw.close();
    await h.stop();
  }
});

test('server invoke() with arguments JSON cannot encode rejects as invalidArguments and sends nothing', async () => {
  const h = await startHub();
  const client = buildClient(h.url, { skipNegotiation: true });
  const connected = once<HubConnection>((l) => h.hub.events.on('connected', l));
  try {
    await client.start();
    const server = await connected;
    client.on('Echo', (value: unknown) => value);
    await assert.rejects(server.invoke('Echo', [10n]), (error: unknown) => error instanceof HubInvocationError && error.reason === 'invalidArguments');
    assert.equal(await server.invoke('Echo', ['still fine']), 'still fine');
  } finally {
    await client.stop();
    await h.stop();
  }
});

test('a throwing event listener is reported on handlerError and does not break the connection', async () => {
  const h = await startHub();
  h.hub.on('Add', (_c, a, b) => Number(a) + Number(b));
  h.hub.events.on('connected', () => {
    throw new Error('listener bug');
  });
  const reported = once<{ method: string; error: unknown }>((l) => h.hub.events.on('handlerError', l));
  const client = buildClient(h.url, { skipNegotiation: true });
  try {
    await client.start();
    const { method, error } = await reported;
    assert.equal(method, 'connected');
    assert.match(String(error), /listener bug/);
    assert.equal(await client.invoke('Add', 1, 1), 2);
  } finally {
    await client.stop();
    await h.stop();
  }
});
