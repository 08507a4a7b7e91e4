import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { request } from 'node:http';
import { createInFlightLimiter, createRateLimiter, readBodyLimited } from '../../../src-main/security/index.js';
import { reply, send, startServer } from './http-harness.js';

describe('readBodyLimited on a real server', () => {
  const limit = 1024;

  async function withBodyServer(run: (port: number, seen: () => number) => Promise<void>): Promise<void> {
    let bytesSeenByHandler = 0;
    const server = await startServer(async (req, res) => {
      req.on('data', (chunk: Buffer) => void (bytesSeenByHandler += chunk.length));
      const read = await readBodyLimited(req, limit, 30_000);
      if (read.ok) reply(res, 200, { length: read.body.length, text: read.body.toString('utf8') });
      else res.writeHead(read.status, { 'content-type': 'application/json', connection: 'close' }).end(JSON.stringify({ error: { code: read.code, message: read.message } }));
    });
    try {
      await run(server.port, () => bytesSeenByHandler);
    } finally {
      await server.close();
    }
  }

  test('a body within the limit is returned whole', async () => {
    await withBodyServer(async (port) => {
      const body = 'é'.repeat(limit / 2);
      const { status, body: answer } = await send(port, { method: 'POST', body, headers: { 'content-type': 'text/plain' } });
      assert.equal(status, 200);
      assert.deepEqual(JSON.parse(answer), { length: limit, text: body });
    });
  });

  test('a declared Content-Length over the limit is refused with 413 before reading', async () => {
    await withBodyServer(async (port, seen) => {
      const { status, body } = await send(port, { method: 'POST', body: Buffer.alloc(limit + 1, 1) });
      assert.equal(status, 413);
      assert.equal((JSON.parse(body) as { error: { code: string } }).error.code, 'PayloadTooLarge');
      assert.equal(seen(), 0);
    });
  });

  test('a chunked body is cut off once it passes the limit, without buffering the rest', async () => {
    await withBodyServer(async (port, seen) => {
      const status = await new Promise<number>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port, method: 'POST', path: '/', agent: false, headers: { 'transfer-encoding': 'chunked' } }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on('error', (error: NodeJS.ErrnoException) => (error.code === 'ECONNRESET' || error.code === 'EPIPE' ? undefined : reject(error)));
        // Keeps sending 512-byte chunks until the server answers, like a client streaming an endless upload.
        const pump = (): void => {
          if (req.destroyed) return;
          if (req.write(Buffer.alloc(512, 2))) setImmediate(pump);
          else req.once('drain', pump);
        };
        pump();
      });
      assert.equal(status, 413);
      assert.ok(seen() <= limit + 512, `read ${seen()} bytes for a ${limit}-byte limit`);
    });
  });
});

describe('the body deadline after an event-loop stall', () => {
  test('a body that arrived while the loop was blocked past the deadline is read, not refused', async () => {
    const server = await startServer(async (req, res) => {
      const reading = readBodyLimited(req, 1024, 100);
      // Blocks the loop past the deadline; the client (in this process) sends its body in the same timer
      // phase that runs the expired deadline. The deadline must not win against data that is already there.
      const until = Date.now() + 400;
      while (Date.now() < until);
      const read = await reading;
      reply(res, read.ok ? 200 : read.status, read.ok ? { length: read.body.length } : { error: { code: read.code } });
    });
    try {
      const answer = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = request({ host: '127.0.0.1', port: server.port, method: 'POST', path: '/', agent: false, headers: { 'content-length': '5' } }, (res) => {
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, text }));
        });
        req.on('error', reject);
        req.flushHeaders();
        setTimeout(() => req.end('hello'), 150);
      });
      assert.equal(answer.status, 200, answer.text);
      assert.deepEqual(JSON.parse(answer.text), { length: 5 });
    } finally {
      await server.close();
    }
  });
});

describe('rate and in-flight limits provoked over HTTP', () => {
  test('the (burst+1)th request inside the window gets 429, and so does a second concurrent one', async () => {
    const clock = { t: 0 };
    const rate = createRateLimiter({ ratePerSecond: 1, burst: 2, now: () => clock.t });
    const inFlight = createInFlightLimiter({ maxPerKey: 1 });
    let releaseSlow: () => void = () => undefined;
    const slowStarted = new Promise<void>((started) => (releaseSlow = started));
    let unblock: () => void = () => undefined;
    const blocked = new Promise<void>((resolve) => (unblock = resolve));

    const server = await startServer(async (req, res) => {
      const key = req.socket.remoteAddress ?? 'unknown';
      if (req.url === '/rate') {
        const decision = rate.take(key);
        if (decision.ok) reply(res, 200, { remaining: decision.remaining });
        else res.writeHead(decision.status, { 'retry-after': String(Math.ceil(decision.retryAfterMs / 1000)) }).end(decision.code);
        return;
      }
      const slot = inFlight.acquire(key);
      if (!slot.ok) {
        res.writeHead(slot.status).end(slot.code);
        return;
      }
      try {
        if (req.url === '/slow') {
          releaseSlow();
          await blocked;
        }
        reply(res, 200, {});
      } finally {
        slot.release();
      }
    });
    try {
      assert.equal((await send(server.port, { path: '/rate' })).status, 200);
      assert.equal((await send(server.port, { path: '/rate' })).status, 200);
      const limited = await send(server.port, { path: '/rate' });
      assert.deepEqual(limited, { status: 429, body: 'Overloaded' });
      clock.t += 1000;
      assert.equal((await send(server.port, { path: '/rate' })).status, 200);

      const slow = send(server.port, { path: '/slow' });
      await slowStarted;
      assert.deepEqual(await send(server.port, { path: '/fast' }), { status: 429, body: 'Overloaded' });
      unblock();
      assert.equal((await slow).status, 200);
      assert.equal((await send(server.port, { path: '/fast' })).status, 200);
    } finally {
      await server.close();
    }
  });
});
