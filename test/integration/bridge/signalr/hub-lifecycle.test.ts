import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { HubConnection } from '../../../../src-main/bridge/signalr/index.js';
import { buildClient, once, RawClient, startHub, wsUrl, type Harness } from './hub-harness.js';

function registerAdd(h: Harness): void {
  h.hub.on('Add', (_c, a, b) => Number(a) + Number(b));
}

for (const skipNegotiation of [true, false]) {
  test(`withAutomaticReconnect() reconnects after the server closes and restarts on the same port (skipNegotiation: ${skipNegotiation})`, async () => {
    let h = await startHub();
    registerAdd(h);
    const client = buildClient(h.url, { skipNegotiation, reconnectDelaysMs: [0, 50, 100, 200, 400, 800, 1600] });
    try {
      await client.start();
      const firstId = h.hub.connections()[0]?.id;
      assert.equal(await client.invoke('Add', 1, 2), 3);
      const reconnecting = new Promise<Error | undefined>((resolve) => client.onreconnecting(resolve));
      const reconnected = new Promise<string | undefined>((resolve) => client.onreconnected(resolve));
      const port = h.port;
      await h.stop();
      assert.equal(await reconnecting, undefined, 'a server shutdown is a Close with allowReconnect and no error');
      h = await startHub({}, port);
      registerAdd(h);
      await reconnected;
      assert.equal(await client.invoke('Add', 5, 6), 11);
      const [again] = h.hub.connections();
      assert.ok(again);
      assert.notEqual(again.id, firstId);
    } finally {
      await client.stop();
      await h.stop();
    }
  });
}

test('hub.close() sends a Close with allowReconnect true to every connection, even one mid-handshake', async () => {
  const h = await startHub();
  const joined = await RawClient.open(wsUrl(h.url));
  assert.deepEqual(await joined.handshake(), {});
  const waiting = await RawClient.open(wsUrl(h.url));
  await h.stop();
  assert.deepEqual(await joined.next(), { type: 7, allowReconnect: true });
  await joined.closed;
  assert.match(String((await waiting.next()).error), /closed the connection during the handshake/);
  await waiting.closed;
});

test('cancelling a client stream stops the server iterator; the connection carries on', async () => {
  const h = await startHub();
  registerAdd(h);
  let stopped!: () => void;
  const iteratorStopped = new Promise<void>((resolve) => (stopped = resolve));
  h.hub.on('Forever', async function* () {
    try {
      for (let i = 0; ; i++) {
        yield i;
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    } finally {
      stopped();
    }
  });
  const client = buildClient(h.url, { skipNegotiation: true });
  try {
    await client.start();
    const got: number[] = [];
    await new Promise<void>((resolve, reject) => {
      const subscription = client.stream<number>('Forever').subscribe({
        next: (value) => {
          got.push(value);
          if (got.length === 3) {
            subscription.dispose();
            resolve();
          }
        },
        complete: () => reject(new Error('an endless stream completed')),
        error: reject,
      });
    });
    await iteratorStopped;
    assert.deepEqual(got, [0, 1, 2]);
    assert.equal(await client.invoke('Add', 3, 4), 7);
  } finally {
    await client.stop();
    await h.stop();
  }
});

test('a non-blocking client send runs the handler and a streaming/non-streaming mismatch is reported', async () => {
  const h = await startHub();
  const received = new Promise<unknown[]>((resolve) => h.hub.on('Record', (_c, ...args) => resolve(args)));
  h.hub.on('Items', async function* () {
    yield 1;
  });
  h.hub.on('Plain', () => 1);
  const client = buildClient(h.url, { skipNegotiation: true });
  try {
    await client.start();
    await client.send('Record', 'a', 2);
    assert.deepEqual(await received, ['a', 2]);
    await assert.rejects(client.invoke('Items'), /streaming method 'Items' in a non-streaming fashion/);
    await assert.rejects(
      new Promise((resolve, reject) => client.stream('Plain').subscribe({ next: () => undefined, complete: () => resolve(undefined), error: reject })),
      /non-streaming method 'Plain' in a streaming fashion/,
    );
    const server = h.hub.connections()[0] as HubConnection;
    const closedWith = once<Error | undefined>((l) => server.onClose(l));
    const clientClosed = new Promise<Error | undefined>((resolve) => client.onclose(resolve));
    server.close('Replaced by a newer editor connection.');
    assert.match(String(await clientClosed), /Replaced by a newer editor connection/);
    assert.match(String(await closedWith), /Replaced by a newer editor connection/);
  } finally {
    await client.stop();
    await h.stop();
  }
});
