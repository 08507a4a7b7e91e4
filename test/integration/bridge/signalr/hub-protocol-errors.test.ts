import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HubConnectionState } from '@microsoft/signalr';
import type { HubServerOptions } from '../../../../src-main/bridge/signalr/index.js';
import { buildClient, RawClient, RS, startHub, wsUrl, type Harness } from './hub-harness.js';

async function withHub(options: HubServerOptions, run: (h: Harness) => Promise<void>): Promise<void> {
  const h = await startHub(options);
  h.hub.on('Add', (_c, a, b) => Number(a) + Number(b));
  try {
    await run(h);
  } finally {
    await h.stop();
  }
}

async function handshaken(h: Harness): Promise<RawClient> {
  const raw = await RawClient.open(wsUrl(h.url));
  assert.deepEqual(await raw.handshake(), {});
  return raw;
}

/** Sends one bad record on a fresh connection and returns the Close message it earned. */
async function closeEarnedBy(h: Harness, record: string): Promise<Record<string, unknown>> {
  const raw = await handshaken(h);
  raw.send(record);
  const close = await raw.next();
  await raw.closed;
  return close;
}

test('malformed records end only their own connection with a Close naming the protocol error', async () => {
  await withHub({}, async (h) => {
    const bystander = buildClient(h.url, { skipNegotiation: true });
    await bystander.start();
    try {
      const cases: [string, RegExp][] = [
        [`{not json${RS}`, /not valid JSON/],
        [`[1,2]${RS}`, /not a JSON object/],
        [`{"type":42}${RS}`, /unknown message type 42/],
        [`{"type":1,"invocationId":"1","arguments":[]}${RS}`, /'target'/],
        [`{"type":1,"target":"Add","arguments":"nope"}${RS}`, /'arguments'/],
        [`{"type":4,"target":"Add","arguments":[]}${RS}`, /'invocationId'/],
      ];
      for (const [record, expected] of cases) {
        const close = await closeEarnedBy(h, record);
        assert.equal(close.type, 7);
        assert.equal(close.allowReconnect, false);
        assert.match(String(close.error), /^Protocol error: /);
        assert.match(String(close.error), expected);
      }
      assert.equal(bystander.state, HubConnectionState.Connected);
      assert.equal(await bystander.invoke('Add', 20, 22), 42);
    } finally {
      await bystander.stop();
    }
  });
});

test('an unknown method, a stream upload and a binary frame are handled without touching other connections', async () => {
  await withHub({}, async (h) => {
    const raw = await handshaken(h);
    raw.send(`{"type":1,"invocationId":"a","target":"Nope","arguments":[]}${RS}`);
    assert.deepEqual(await raw.next(), { type: 3, invocationId: 'a', error: "Unknown hub method 'Nope'" });
    raw.send(`{"type":1,"invocationId":"b","target":"Add","arguments":[],"streamIds":["s1"]}${RS}`);
    const upload = await raw.next();
    assert.match(String(upload.error), /Client-to-server streaming is not supported/);
    // Two records in one frame, the second split across two frames.
    raw.send(`{"type":6}${RS}{"type":1,"invocationId":"c","tar`);
    raw.send(`get":"Add","arguments":[1,2]}${RS}`);
    assert.deepEqual(await raw.next(), { type: 3, invocationId: 'c', result: 3 });
    raw.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    const close = await raw.next();
    assert.match(String(close.error), /binary WebSocket messages are not supported/);
    await raw.closed;
  });
});

test('late completions and stray stream items are ignored; a duplicate stream id is refused; a client Close ends the connection', async () => {
  await withHub({}, async (h) => {
    h.hub.on('Idle', async function* () {
      await new Promise(() => undefined);
      yield 'never';
    });
    const raw = await handshaken(h);
    const server = h.hub.connections()[0];
    assert.ok(server);
    raw.send(`{"type":3,"invocationId":"nobody","result":1}${RS}{"type":2,"invocationId":"up","item":1}${RS}`);
    raw.send(`{"type":4,"invocationId":"s","target":"Idle","arguments":[]}${RS}{"type":4,"invocationId":"s","target":"Idle","arguments":[]}${RS}`);
    assert.deepEqual(await raw.next(), { type: 3, invocationId: 's', error: "Invocation ID 's' is already in use." });
    raw.send(`{"type":5,"invocationId":"s"}${RS}`);
    assert.deepEqual(await raw.next(), { type: 3, invocationId: 's' });
    raw.send(`{"type":1,"invocationId":"n","target":"Add","arguments":[2,2]}${RS}`);
    assert.deepEqual(await raw.next(), { type: 3, invocationId: 'n', result: 4 });
    const closedWith = new Promise<Error | undefined>((resolve) => server.onClose(resolve));
    raw.send(`{"type":7,"error":"bye"}${RS}`);
    assert.match(String(await closedWith), /Client closed the connection with an error: bye/);
    await raw.closed;
  });
});

test('a message over maxFrameBytes closes that connection with a Close naming the limit', async () => {
  await withHub({ maxFrameBytes: 2048 }, async (h) => {
    const single = await handshaken(h);
    single.send(`{"type":1,"target":"Add","arguments":["${'x'.repeat(3000)}"]}${RS}`);
    assert.match(String((await single.next()).error), /exceeds the limit of 2048 bytes \(maxFrameBytes\)/);
    await single.closed;

    const spanning = await handshaken(h);
    spanning.send(`{"type":1,"target":"Add","arguments":["${'y'.repeat(1500)}`);
    spanning.send(`${'y'.repeat(1500)}"]}${RS}`);
    assert.match(String((await spanning.next()).error), /limit of 2048 bytes/);
    await spanning.closed;

    // Far past the limit ws refuses the message unread (close code 1009) instead of buffering it.
    const huge = await handshaken(h);
    huge.send('x'.repeat(2048 * 4 + 1));
    assert.equal((await huge.closed).code, 1009);

    const fine = buildClient(h.url, { skipNegotiation: true });
    await fine.start();
    try {
      assert.equal(await fine.invoke('Add', 1, 2), 3);
      await assert.rejects(fine.invoke('Add', 'z'.repeat(3000), 0), /limit of 2048 bytes|closed/);
    } finally {
      await fine.stop();
    }
  });
});

test('handshake: a wrong protocol or version is refused', async () => {
  await withHub({}, async (h) => {
    for (const [request, expected] of [
      [{ protocol: 'messagepack', version: 1 }, /protocol 'messagepack' is not supported/],
      [{ protocol: 'json', version: 2 }, /does not support version 2/],
      [{ protocol: 'json' }, /Invalid handshake request/],
    ] as const) {
      const raw = await RawClient.open(wsUrl(h.url));
      raw.send(JSON.stringify(request) + RS);
      assert.match(String((await raw.next()).error), expected);
      await raw.closed;
    }
  });
});

test('a client that sends no handshake is cut at handshakeTimeoutMs with a handshake error', async () => {
  await withHub({ handshakeTimeoutMs: 150 }, async (h) => {
    const silent = await RawClient.open(wsUrl(h.url));
    assert.match(String((await silent.next()).error), /Handshake was not completed within 150 ms/);
    await silent.closed;
    assert.deepEqual(h.hub.connections(), []);
  });
});

test('keep-alive pings keep an idle client open past clientTimeoutMs; a silent one is closed', async () => {
  await withHub({ keepAliveIntervalMs: 40, clientTimeoutMs: 400 }, async (h) => {
    const client = buildClient(h.url, { skipNegotiation: true, keepAliveIntervalMs: 40, serverTimeoutMs: 400 });
    let clientClosed = false;
    client.onclose(() => (clientClosed = true));
    await client.start();
    const silent = await handshaken(h);
    // The raw client never answers, so only the server's own clock can end it.
    const silentClose = await silent.next();
    assert.match(String(silentClose.error), /Client timeout: nothing was received for 400 ms/);
    await silent.closed;
    try {
      assert.equal(clientClosed, false);
      assert.equal(client.state, HubConnectionState.Connected);
      assert.equal(h.hub.connections().length, 1);
      assert.equal(await client.invoke('Add', 2, 2), 4);
    } finally {
      await client.stop();
    }
  });
});
