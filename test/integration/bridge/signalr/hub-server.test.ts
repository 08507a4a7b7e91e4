import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { HubConnectionState, type HubConnection as ClientConnection } from '@microsoft/signalr';
import { HubInvocationError, HubMethodError, type HubConnection } from '../../../../src-main/bridge/signalr/index.js';
import { buildClient, once, startHub, type ClientOptions, type Harness } from './hub-harness.js';

async function withHub(run: (h: Harness) => Promise<void>): Promise<void> {
  const h = await startHub();
  h.hub.on('Add', (_c, a, b) => Number(a) + Number(b));
  h.hub.on('WhoAmI', (c) => ({ id: c.id, role: c.query.get('client_role') }));
  h.hub.on('Fail', () => {
    throw new HubMethodError('nope: bad input');
  });
  h.hub.on('Crash', () => {
    throw new Error('secret internal detail');
  });
  h.hub.on('Count', async function* (_c, n) {
    for (let i = 0; i < Number(n); i++) yield i;
  });
  h.hub.on('Broken', async function* () {
    yield 'first';
    throw new HubMethodError('stream broke');
  });
  h.hub.on('Unencodable', () => ({ big: 10n }));
  try {
    await run(h);
  } finally {
    await h.stop();
  }
}

async function connect(h: Harness, options: ClientOptions): Promise<{ client: ClientConnection; server: HubConnection }> {
  const client = buildClient(h.url, options);
  const connected = once<HubConnection>((l) => h.hub.events.on('connected', l));
  await client.start();
  return { client, server: await connected };
}

for (const skipNegotiation of [true, false]) {
  describe(`hub with the real @microsoft/signalr client (skipNegotiation: ${skipNegotiation})`, () => {
    test('client invokes server methods and gets results, HubMethodError text and a generic error', async () => {
      await withHub(async (h) => {
        const { client, server } = await connect(h, { skipNegotiation, query: 'client_role=editor' });
        try {
          assert.equal(await client.invoke('Add', 2, 3), 5);
          assert.deepEqual(await client.invoke('whoami'), { id: server.id, role: 'editor' });
          if (!skipNegotiation) assert.equal(client.connectionId, server.id);
          await assert.rejects(client.invoke('Fail'), /nope: bad input/);
          const crashReported = once<{ method: string; error: unknown }>((l) => h.hub.events.on('handlerError', l));
          await assert.rejects(client.invoke('Crash'), (error: Error) => !error.message.includes('secret') && /unexpected error/.test(error.message));
          assert.equal((await crashReported).method, 'Crash');
          await assert.rejects(client.invoke('Missing'), /Unknown hub method 'Missing'/);
          await assert.rejects(client.invoke('Unencodable'), /unexpected error occurred invoking 'Unencodable'/);
          assert.equal(client.state, HubConnectionState.Connected);
          assert.equal(await client.invoke('Add', 1, 1), 2);
          assert.deepEqual(h.hub.connections().map((c) => c.id), [server.id]);
        } finally {
          await client.stop();
        }
      });
    });

    test('server invokes a client method and gets its result; a throwing client handler rejects', async () => {
      await withHub(async (h) => {
        const { client, server } = await connect(h, { skipNegotiation });
        client.on('Echo', (value: string) => `echo:${value}`);
        client.on('Boom', () => {
          throw new Error('client exploded');
        });
        try {
          assert.equal(await server.invoke('Echo', ['hi']), 'echo:hi');
          await assert.rejects(server.invoke('Boom', []), (error: unknown) => error instanceof HubInvocationError && error.reason === 'clientError' && /client exploded/.test(error.message));
          await assert.rejects(server.invoke('NotRegistered', []), (error: unknown) => error instanceof HubInvocationError && /didn't provide a result/.test(error.message));
          const received = new Promise<string>((resolve) => client.on('Notify', (text: string) => resolve(text)));
          server.send('Notify', ['fire-and-forget']);
          assert.equal(await received, 'fire-and-forget');
        } finally {
          await client.stop();
        }
      });
    });

    test('connection.stream() receives the items of a server AsyncIterable', async () => {
      await withHub(async (h) => {
        const { client } = await connect(h, { skipNegotiation });
        try {
          const items = await new Promise<number[]>((resolve, reject) => {
            const got: number[] = [];
            client.stream<number>('Count', 4).subscribe({ next: (v) => got.push(v), complete: () => resolve(got), error: reject });
          });
          assert.deepEqual(items, [0, 1, 2, 3]);
          const broken: string[] = [];
          const failure = await new Promise<Error>((resolve, reject) => {
            client.stream<string>('Broken').subscribe({ next: (v) => broken.push(v), complete: () => reject(new Error('completed')), error: resolve });
          });
          assert.deepEqual(broken, ['first']);
          assert.match(failure.message, /stream broke/);
        } finally {
          await client.stop();
        }
      });
    });
  });
}

test('a client result that never comes times out, and pending invokes reject when the connection closes', async () => {
  await withHub(async (h) => {
    const { client, server } = await connect(h, { skipNegotiation: true });
    client.on('Hang', () => new Promise(() => undefined));
    try {
      await assert.rejects(server.invoke('Hang', [], { timeoutMs: 50 }), (error: unknown) => error instanceof HubInvocationError && error.reason === 'timeout');
      const abort = new AbortController();
      const aborted = server.invoke('Hang', [], { signal: abort.signal });
      abort.abort();
      await assert.rejects(aborted, (error: unknown) => error instanceof HubInvocationError && error.reason === 'aborted');
      const pending = server.invoke('Hang', []);
      const disconnected = once<{ connection: HubConnection }>((l) => h.hub.events.on('disconnected', l));
      await client.stop();
      await assert.rejects(pending, (error: unknown) => error instanceof HubInvocationError && error.reason === 'connectionClosed');
      assert.equal((await disconnected).connection, server);
      assert.equal(server.closed, true);
      assert.deepEqual(h.hub.connections(), []);
    } finally {
      await client.stop();
    }
  });
});
