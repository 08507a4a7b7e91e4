import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HubConnectionState } from '@microsoft/signalr';
import { HubInvocationError, type HubConnection, type HubServerOptions, type MalformedMessage, type OversizedMessage } from '../../../../src-main/bridge/signalr/index.js';
import { buildClient, once, RawClient, RS, startHub, wsUrl, type Harness } from './hub-harness.js';

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

test('malformed records that cannot be placed end only their own connection with a Close naming the protocol error', async () => {
  await withHub({}, async (h) => {
    const bystander = buildClient(h.url, { skipNegotiation: true });
    await bystander.start();
    try {
      const cases: [string, RegExp][] = [
        [`{not json${RS}`, /not valid JSON/],
        [`[1,2]${RS}`, /not a JSON object/],
        [`{"type":42}${RS}`, /unknown message type 42/],
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

test('a malformed invocation whose id shows is refused alone, and so is a truncated Completion', async () => {
  await withHub({}, async (h) => {
    const raw = await handshaken(h);
    raw.send(`{"type":1,"invocationId":"1","arguments":[]}${RS}`);
    assert.match(String((await raw.next()).error), /^Invocation refused: .*'target'/);
    raw.send(`{"type":1,"invocationId":"2","target":"Add","arguments":[2,3]}${RS}`);
    assert.deepEqual(await raw.next(), { type: 3, invocationId: '2', result: 5 });
    raw.close();

    const client = buildClient(h.url, { skipNegotiation: true });
    const connected = once<HubConnection>((l) => h.hub.events.on('connected', l));
    await client.start();
    try {
      const server = await connected;
      const malformed = once<MalformedMessage>((l) => h.hub.events.on('malformed', l));
      const truncated = await RawClient.open(wsUrl(h.url));
      assert.deepEqual(await truncated.handshake(), {});
      const [serverSide] = h.hub.connections().filter((c) => c.id !== server.id);
      const answer = serverSide!.invoke('Shot', []);
      const invocation = await truncated.next();
      truncated.send(`{"type":3,"invocationId":"${String(invocation.invocationId)}","result":{"Value":"iVBOR${RS}`);
      await assert.rejects(answer, (error: unknown) => error instanceof HubInvocationError && error.reason === 'malformed' && /answer to 'Shot' is not a valid hub message/.test(error.message));
      assert.deepEqual({ ...(await malformed), connection: undefined, error: undefined }, { connection: undefined, error: undefined, type: 3, invocationId: String(invocation.invocationId), failedInvocation: 'Shot', closed: false });
      truncated.send(`{"type":1,"invocationId":"9","target":"Add","arguments":[1,1]}${RS}`);
      assert.deepEqual(await truncated.next(), { type: 3, invocationId: '9', result: 2 });
      truncated.close();
    } finally {
      await client.stop();
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

test('a message over maxFrameBytes fails only what it carried: the connection and its other calls go on', async () => {
  await withHub({ maxFrameBytes: 2048 }, async (h) => {
    const oversized: OversizedMessage[] = [];
    h.hub.events.on('oversized', (message) => oversized.push(message));
    const single = await handshaken(h);
    single.send(`{"type":1,"invocationId":"1","target":"Add","arguments":["${'x'.repeat(3000)}"]}${RS}{"type":1,"invocationId":"2","target":"Add","arguments":[1,2]}${RS}`);
    assert.deepEqual(await single.next(), { type: 3, invocationId: '1', error: 'Invocation refused: a message of 3061 bytes exceeds the limit of 2048 bytes (maxFrameBytes).' });
    assert.deepEqual(await single.next(), { type: 3, invocationId: '2', result: 3 });

    // A record spanning WebSocket messages, skipped as it arrives.
    single.send(`{"type":1,"invocationId":"3","target":"Add","arguments":["${'y'.repeat(1500)}`);
    single.send(`${'y'.repeat(1500)}"]}${RS}`);
    assert.match(String((await single.next()).error), /limit of 2048 bytes/);
    single.send(`{"type":1,"invocationId":"4","target":"Add","arguments":[2,2]}${RS}`);
    assert.deepEqual(await single.next(), { type: 3, invocationId: '4', result: 4 });
    assert.deepEqual(
      oversized.map(({ bytes, limitBytes, type, invocationId, target, closed }) => ({ bytes, limitBytes, type, invocationId, target, closed })),
      [
        { bytes: 3061, limitBytes: 2048, type: 1, invocationId: '1', target: 'Add', closed: false },
        { bytes: 3061, limitBytes: 2048, type: 1, invocationId: '3', target: 'Add', closed: false },
      ],
    );

    // A record that cannot be placed (no type, no invocation id) closes its connection, naming the limit.
    const unplaced = await handshaken(h);
    unplaced.send(`"${'u'.repeat(3000)}"${RS}`);
    assert.match(String((await unplaced.next()).error), /exceeds the limit of 2048 bytes \(maxFrameBytes\)/);
    await unplaced.closed;
    assert.equal(oversized.at(-1)?.closed, true);

    // Far past the limit ws refuses the message unread (close code 1009) instead of buffering it.
    const huge = await handshaken(h);
    huge.send('x'.repeat(2048 + 1_048_576 + 1));
    assert.equal((await huge.closed).code, 1009);
    single.close();
  });
});

test("a client's Completion over maxFrameBytes fails that server invocation with payloadTooLarge; the connection stays", async () => {
  await withHub({ maxFrameBytes: 4096 }, async (h) => {
    const client = buildClient(h.url, { skipNegotiation: true });
    const connected = once<HubConnection>((l) => h.hub.events.on('connected', l));
    client.on('Shot', (bytes: number) => 'p'.repeat(bytes));
    await client.start();
    try {
      const server = await connected;
      await assert.rejects(
        server.invoke('Shot', [10_000]),
        (error: unknown) => error instanceof HubInvocationError && error.reason === 'payloadTooLarge' && error.size?.direction === 'reply' && error.size.bytes > 10_000 && error.size.limitBytes === 4096,
      );
      assert.equal(await server.invoke('Shot', [3]), 'ppp');
      // And the other way: arguments too large for the limit are refused before anything is sent.
      await assert.rejects(
        server.invoke('Shot', ['q'.repeat(5000)]),
        (error: unknown) => error instanceof HubInvocationError && error.reason === 'payloadTooLarge' && error.size?.direction === 'request' && /nothing was sent/.test(error.message),
      );
      assert.equal(client.state, HubConnectionState.Connected);
      assert.equal(await client.invoke('Add', 1, 2), 3);
    } finally {
      await client.stop();
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
