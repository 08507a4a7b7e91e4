import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { startTestJunction, type TestJunction } from '../support/junction-harness.js';

interface RawExchange {
  /** The status line and headers the server sent, if any. */
  head: string;
  body: string;
  /** Request body bytes the client managed to hand to the socket before the server closed it. */
  bytesSent: number;
  closedByServer: boolean;
}

/**
 * Sends a request head, then body chunks from `nextChunk` until it returns undefined or the server
 * closes the connection; collects what the server answered. Loopback only, bounded by the chunk source.
 */
function rawUpload(port: number, head: string, nextChunk: () => Promise<Buffer | undefined>): Promise<RawExchange> {
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(port, '127.0.0.1');
    let received = '';
    let bytesSent = 0;
    let closed = false;
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (received += chunk));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      closed = true;
      const split = received.indexOf('\r\n\r\n');
      resolve({ head: split === -1 ? received : received.slice(0, split), body: split === -1 ? '' : received.slice(split + 4), bytesSent, closedByServer: true });
    });
    socket.on('connect', () => {
      socket.write(head);
      void (async () => {
        for (let chunk = await nextChunk(); chunk !== undefined && !closed; chunk = await nextChunk()) {
          const flushed = socket.write(chunk);
          bytesSent += chunk.length;
          if (!flushed) await new Promise<void>((r) => (socket.once('drain', r), socket.once('close', r)));
        }
        if (closed) return;
        // The whole upload went through without the server closing: report what it answered, if anything.
        setTimeout(() => {
          if (closed) return;
          socket.removeAllListeners('close');
          socket.destroy();
          const split = received.indexOf('\r\n\r\n');
          resolve({ head: split === -1 ? received : received.slice(0, split), body: split === -1 ? '' : received.slice(split + 4), bytesSent, closedByServer: false });
        }, 1000);
      })().catch(reject);
    });
  });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

describe('request bodies: oversized uploads are cut off, trickled ones time out', () => {
  let junction: TestJunction;
  before(async () => {
    junction = await startTestJunction(['max-body-bytes=65536', 'body-timeout=1000']);
  });
  after(() => junction.stop());

  for (const path of ['/mcp', '/api/tools/server-status']) {
    test(`${path}: a 50 MB chunked upload gets 413 PayloadTooLarge and the connection is closed instead of read to the end`, async () => {
      const chunk = Buffer.alloc(64 * 1024, 0x61);
      const total = 50 * 1024 * 1024;
      let offered = 0;
      const head = `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${junction.port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ntransfer-encoding: chunked\r\n\r\n`;
      const frame = Buffer.concat([Buffer.from(`${chunk.length.toString(16)}\r\n`), chunk, Buffer.from('\r\n')]);
      const exchange = await rawUpload(junction.port, head, async () => {
        if (offered >= total) return undefined;
        offered += chunk.length;
        return frame;
      });
      assert.match(exchange.head, /^HTTP\/1\.1 413 /);
      assert.match(exchange.head, /connection: close/i);
      assert.match(exchange.body, /PayloadTooLarge/);
      assert.equal(exchange.closedByServer, true, 'the server closed the connection');
      assert.ok(exchange.bytesSent < total / 2, `the upload was cut off early (${exchange.bytesSent} of ${total} bytes sent)`);
    });

    test(`${path}: a body trickled one byte at a time gets 408 RequestTimeout at the deadline and the connection is closed`, async () => {
      const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', padding: 'x'.repeat(60) });
      let sent = 0;
      const head = `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${junction.port}\r\ncontent-type: application/json\r\naccept: application/json, text/event-stream\r\ncontent-length: ${body.length}\r\n\r\n`;
      const exchange = await rawUpload(junction.port, head, async () => {
        if (sent >= body.length) return undefined;
        await sleep(50);
        return Buffer.from(body[sent++] as string);
      });
      assert.match(exchange.head, /^HTTP\/1\.1 408 /);
      assert.match(exchange.body, /RequestTimeout/);
      assert.equal(exchange.closedByServer, true, 'the server closed the connection');
      assert.ok(exchange.bytesSent < body.length, `the server gave up before the trickle ended (${exchange.bytesSent} of ${body.length} bytes)`);
    });
  }
});
