/**
 * Records the hub writes to one connection in one event-loop turn leave as one WebSocket message,
 * in order, under the frame cap, and before a Close; raw `ws` sees the messages as sent and the
 * real @microsoft/signalr client reads them.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type WebSocket from 'ws';
import type { HubConnection } from '../../../../src-main/bridge/signalr/index.js';
import { buildClient, once, RawClient, RS, startHub, wsUrl, type Harness } from './hub-harness.js';

/** Every WebSocket message the socket receives from now on, split into its records (pings dropped). */
function recordMessages(ws: WebSocket): { messages: Record<string, unknown>[][]; bytes: number[] } {
  const messages: Record<string, unknown>[][] = [];
  const bytes: number[] = [];
  ws.on('message', (data: Buffer) => {
    const records = data
      .toString('utf8')
      .split(RS)
      .filter((r) => r.length > 0)
      .map((r) => JSON.parse(r) as Record<string, unknown>)
      .filter((r) => r.type !== 6);
    if (records.length === 0) return;
    messages.push(records);
    bytes.push(data.length);
  });
  return { messages, bytes };
}

async function rawSession(h: Harness): Promise<{ raw: RawClient; server: HubConnection }> {
  const connected = once<HubConnection>((l) => h.hub.events.on('connected', l));
  const raw = await RawClient.open(wsUrl(h.url));
  await raw.handshake();
  return { raw, server: await connected };
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 400; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  throw new Error(`timed out waiting for ${what}`);
}

const invocation = (id: string, target: string, ...args: unknown[]) => JSON.stringify({ type: 1, invocationId: id, target, arguments: args }) + RS;

describe('hub writes coalesced per event-loop turn', () => {
  test('two sends and a completion written in one turn arrive as one message, in order', async () => {
    const h = await startHub();
    h.hub.on('Burst', (connection) => {
      connection.send('First', [1]);
      connection.send('Second', [2]);
      return 'done';
    });
    try {
      const { raw } = await rawSession(h);
      const seen = recordMessages(raw.ws);
      raw.send(invocation('7', 'Burst'));
      await until(() => seen.messages.flat().length >= 3, 'three records');
      assert.equal(seen.messages.length, 1, `expected one message, got ${JSON.stringify(seen.messages)}`);
      assert.deepEqual(
        seen.messages[0]!.map((r) => r.target ?? r.result),
        ['First', 'Second', 'done'],
      );
      raw.close();
    } finally {
      await h.stop();
    }
  });

  test('a batch never grows past the frame cap; a record alone may still be larger', async () => {
    const h = await startHub({ maxFrameBytes: 1024 });
    const text = 'x'.repeat(50);
    h.hub.on('Fill', (connection) => {
      for (let i = 0; i < 6; i++) connection.send('Part', [i, text]);
      connection.send('Huge', ['y'.repeat(3000)]);
      return 'filled';
    });
    try {
      const { raw } = await rawSession(h);
      const seen = recordMessages(raw.ws);
      raw.send(invocation('1', 'Fill'));
      await until(() => seen.messages.flat().length >= 8, 'eight records');
      assert.deepEqual(
        seen.messages.flat().map((r) => (r.target === 'Part' ? (r.arguments as unknown[])[0] : (r.target ?? r.result))),
        [0, 1, 2, 3, 4, 5, 'Huge', 'filled'],
      );
      assert.ok(seen.messages.length > 1 && seen.messages.length < 8, `some records shared a message: ${seen.messages.map((m) => m.length).join(',')}`);
      seen.messages.forEach((records, i) => {
        if (records.length > 1) assert.ok(seen.bytes[i]! <= 1024, `message ${i} of ${records.length} records is ${seen.bytes[i]} bytes`);
      });
      raw.close();
    } finally {
      await h.stop();
    }
  });

  test('a Close written in the same turn as other records follows them before the socket closes', async () => {
    const h = await startHub();
    try {
      const { raw, server } = await rawSession(h);
      const seen = recordMessages(raw.ws);
      server.send('Bye', ['soon']);
      server.close('Going away for a test.', false);
      await raw.closed;
      assert.deepEqual(
        seen.messages.flat().map((r) => r.type),
        [1, 7],
      );
      assert.equal(seen.messages.flat()[1]!.error, 'Going away for a test.');
    } finally {
      await h.stop();
    }
  });

  test('the real client reads coalesced messages: handlers in order, results, and two client results at once', async () => {
    const h = await startHub();
    h.hub.on('Burst', (connection) => {
      connection.send('First', [1]);
      connection.send('Second', [2]);
      return 'done';
    });
    h.hub.on('AskTwice', async (connection) => Promise.all([connection.invoke('Add', [1, 2], { timeoutMs: 5_000 }), connection.invoke('Add', [3, 4], { timeoutMs: 5_000 })]));
    const client = buildClient(h.url, { skipNegotiation: true });
    const heard: string[] = [];
    client.on('First', (n: number) => heard.push(`First:${n}`));
    client.on('Second', (n: number) => heard.push(`Second:${n}`));
    client.on('Add', (a: number, b: number) => a + b);
    try {
      await client.start();
      assert.equal(await client.invoke('Burst'), 'done');
      assert.deepEqual(heard, ['First:1', 'Second:2']);
      assert.deepEqual(await client.invoke('AskTwice'), [3, 7]);
      const results = await Promise.all(Array.from({ length: 50 }, (_, i) => client.invoke('Burst').then((r) => `${r}:${i}`)));
      assert.deepEqual(results, Array.from({ length: 50 }, (_, i) => `done:${i}`));
      assert.equal(heard.length, 102);
    } finally {
      await client.stop();
      await h.stop();
    }
  });
});
