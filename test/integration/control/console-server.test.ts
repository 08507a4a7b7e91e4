import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import WebSocket from 'ws';
import type { ControlFrame, ControlReplyMessage, ControlWireFrame } from '../../../src-main/contracts/index.js';
import { applyFrames, EMPTY_DATA } from '../../../src-renderer/src/store/reducer.js';
import { startConsole, type ConsoleHarness } from './support/console-harness.js';

interface Reply {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function get(origin: string, path: string, headers: Record<string, string> = {}): Promise<Reply> {
  return new Promise((resolve, reject) => {
    const req = request(`${origin}${path}`, { headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

function cookieFrom(reply: Reply): string {
  const set = reply.headers['set-cookie'];
  const first = Array.isArray(set) ? set[0] : set;
  assert.ok(first, 'a cookie is set');
  return first.split(';')[0] ?? '';
}

interface Client {
  ws: WebSocket;
  /** Frames as the hub sequenced them: batches are expanded into the `event` frames they stand for. */
  frames: ControlFrame[];
  /** Every frame message exactly as it arrived. */
  messages: ControlWireFrame[];
  replies: ControlReplyMessage[];
}

/** Opens a console socket; resolves with the client and its frames, or rejects with the refusal status. */
function connect(h: ConsoleHarness, options: { cookie?: string; origin?: string; query?: string } = {}): Promise<Client> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = {};
    if (options.cookie) headers.Cookie = options.cookie;
    const ws = new WebSocket(`${h.origin.replace('http', 'ws')}/control${options.query ?? ''}`, { headers, origin: options.origin ?? h.origin });
    const client: Client = { ws, frames: [], messages: [], replies: [] };
    ws.on('message', (data) => {
      const msg = JSON.parse(data.toString()) as ControlWireFrame | ControlReplyMessage;
      if (!('type' in msg)) {
        client.replies.push(msg);
        return;
      }
      client.messages.push(msg);
      if (msg.type === 'events') msg.events.forEach((event, i) => client.frames.push({ type: 'event', seq: msg.fromSeq + i, event }));
      else if (msg.type === 'snapshotCalls') {
        // Reassembled into the snapshot it continues, so the tests read one whole snapshot.
        const snap = client.frames.at(-1);
        assert.ok(snap?.type === 'snapshot' && snap.seq === msg.seq, 'a snapshot part directly follows its snapshot');
        snap.snapshot.calls.unshift(...msg.calls);
      } else client.frames.push(msg);
    });
    ws.once('open', () => resolve(client));
    ws.once('unexpected-response', (_req, res) => {
      // The refusal names its error code: `refused 401 Unauthorized`.
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => reject(new Error(`refused ${res.statusCode} ${(JSON.parse(body) as { error: { code: string } }).error.code}`)));
    });
    ws.once('error', reject);
  });
}

async function until(check: () => boolean, what: string): Promise<void> {
  for (let i = 0; i < 2000; i++) {
    if (check()) return;
    await new Promise((r) => setTimeout(r, 5));
  }
  assert.fail(`timed out waiting for ${what}`);
}

function closeClient(ws: WebSocket): Promise<void> {
  if (ws.readyState === WebSocket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    ws.once('close', () => resolve());
    ws.terminate();
  });
}

describe('console server', () => {
  let dir: string;
  let h: ConsoleHarness;

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'junction-console-'));
    await mkdir(join(dir, 'assets'));
    await writeFile(join(dir, 'index.html'), '<!doctype html><title>bundle</title><script type="module" src="./assets/app.js"></script>');
    await writeFile(join(dir, 'assets', 'app.js'), 'console.log("bundle")');
    await writeFile(join(dir, '..', `${dir.split('/').pop() ?? 'x'}-secret.txt`), 'secret');
    h = await startConsole({ staticDir: dir });
  });

  after(async () => {
    await h.close();
    await rm(dir, { recursive: true, force: true });
    await rm(`${dir}-secret.txt`, { force: true });
  });

  test('a missing or wrong token gets a 401 page without the bundle', async () => {
    for (const path of ['/', '/?token=wrong', '/assets/app.js', '/index.html']) {
      const reply = await get(h.origin, path);
      assert.equal(reply.status, 401, path);
      assert.equal(reply.headers['x-junction-error'], 'Unauthorized', path);
      assert.match(reply.body, /Error code <code>Unauthorized<\/code>/, path);
      assert.ok(!reply.body.includes('bundle'), path);
      assert.equal(reply.headers['set-cookie'], undefined);
    }
    const wrongCookie = await get(h.origin, '/', { Cookie: `junction_console_${new URL(h.origin).port}=nope` });
    assert.equal(wrongCookie.status, 401);
  });

  test('the 401 pages are styled under their own CSP and say what the token is: per launch, reusable until Junction stops', async () => {
    for (const path of ['/', '/?token=wrong']) {
      const reply = await get(h.origin, path);
      assert.equal(reply.status, 401);
      const style = /<style>([\s\S]*?)<\/style>/.exec(reply.body)?.[1];
      assert.ok(style && /background/.test(style), 'the page carries the console look');
      const csp = String(reply.headers['content-security-policy']);
      assert.match(csp, /default-src 'none'/);
      assert.ok(csp.includes(`style-src 'sha256-${createHash('sha256').update(style).digest('base64')}'`), 'the CSP admits exactly that stylesheet');
      assert.doesNotMatch(reply.body, /one-time/);
    }
    assert.match((await get(h.origin, '/')).body, /made anew each launch and stays valid until Junction stops/);
    assert.match((await get(h.origin, '/?token=wrong')).body, /new console token every time it starts/);
  });

  test('the token in the URL is exchanged once for an HttpOnly SameSite=Strict cookie that then opens the bundle', async () => {
    const first = await get(h.origin, `/?token=${h.token}`);
    assert.equal(first.status, 303);
    assert.equal(first.headers.location, '/');
    const setCookie = String(first.headers['set-cookie']);
    assert.match(setCookie, /HttpOnly/);
    assert.match(setCookie, /SameSite=Strict/);
    const cookie = cookieFrom(first);

    const page = await get(h.origin, '/', { Cookie: cookie });
    assert.equal(page.status, 200);
    assert.match(page.body, /bundle/);
    const csp = String(page.headers['content-security-policy']);
    assert.match(csp, /default-src 'self'/);
    assert.match(csp, /script-src 'self'(;|$)/);
    assert.ok(!csp.includes('unsafe-inline'));
    assert.ok(csp.includes(`connect-src 'self' ${h.origin.replace('http', 'ws')}`));

    const asset = await get(h.origin, '/assets/app.js', { Cookie: cookie });
    assert.equal(asset.status, 200);
    assert.match(String(asset.headers['content-type']), /javascript/);
  });

  test('only bundle files are served: traversal and other routes are not the console', async () => {
    const cookie = cookieFrom(await get(h.origin, `/?token=${h.token}`));
    const traversal = await get(h.origin, `/assets/..%2f..%2f${dir.split('/').pop() ?? 'x'}-secret.txt`, { Cookie: cookie });
    assert.ok(!traversal.body.includes('secret'));
    const other = await get(h.origin, '/mcp', { Cookie: cookie });
    assert.equal(other.status, 404);
    assert.equal(other.body, 'not a console route');
  });

  test("every refusal page carries the error table's status for its code, and names the code", async () => {
    const cookie = cookieFrom(await get(h.origin, `/?token=${h.token}`));
    const cases: Array<[string, number, string]> = [
      ['/assets/missing.js', 404, 'ResourceNotFound'],
      // This console has no audit trail to export.
      ['/audit/export', 404, 'ResourceNotFound'],
    ];
    for (const [path, status, code] of cases) {
      const reply = await get(h.origin, path, { Cookie: cookie });
      assert.equal(reply.status, status, path);
      assert.equal(reply.headers['x-junction-error'], code, path);
    }
    const empty = await mkdtemp(join(tmpdir(), 'junction-no-bundle-'));
    const bare = await startConsole({ staticDir: empty });
    try {
      const unbuilt = await get(bare.origin, '/', { Cookie: cookieFrom(await get(bare.origin, `/?token=${bare.token}`)) });
      assert.equal(unbuilt.status, 503);
      assert.equal(unbuilt.headers['x-junction-error'], 'ConsoleNotBuilt');
      assert.match(unbuilt.body, /npm run build:renderer/);
    } finally {
      await bare.close();
      await rm(empty, { recursive: true, force: true });
    }
  });

  test('a foreign Host header (DNS rebinding) is refused', async () => {
    const reply = await get(h.origin, `/?token=${h.token}`, { Host: `evil.example:${new URL(h.origin).port}` });
    assert.equal(reply.status, 403);
    assert.equal(reply.headers['x-junction-error'], 'Forbidden');
    assert.equal(reply.headers['set-cookie'], undefined);
  });

  test('the control socket is refused without a token, with a wrong token, and from a foreign Origin', async () => {
    await assert.rejects(connect(h), /refused 401 Unauthorized/);
    await assert.rejects(connect(h, { query: '?token=wrong' }), /refused 401 Unauthorized/);
    await assert.rejects(connect(h, { query: `?token=${h.token}`, origin: 'http://evil.example' }), /refused 403 Forbidden/);
    await assert.rejects(connect(h, { query: `?token=${h.token}`, origin: `http://localhost:${new URL(h.origin).port}` }), /refused 403/);
    const { ws } = await connect(h, { query: `?token=${h.token}` });
    await closeClient(ws);
  });

  test('two clients get a snapshot and then the same deltas; a late joiner starts where its snapshot ends', async () => {
    const cookie = cookieFrom(await get(h.origin, `/?token=${h.token}`));
    h.world.connectPlugin({ connectionId: 'editor-1' });
    const a = await connect(h, { cookie });
    await until(() => a.frames.length >= 1, 'snapshot for a');
    h.world.startCall({ callId: 'call-1' });
    h.world.finishCall('call-1');
    await until(() => a.frames.length >= 3, 'deltas for a');
    const b = await connect(h, { cookie });
    await until(() => b.frames.length >= 1, 'snapshot for b');
    h.world.requestApproval({ approvalId: 'ap-1' });
    await until(() => a.frames.length >= 4 && b.frames.length >= 2, 'approval for both');

    const [snapA, ...restA] = a.frames;
    const [snapB, ...restB] = b.frames;
    assert.ok(snapA?.type === 'snapshot' && snapB?.type === 'snapshot');
    assert.deepEqual(snapA.snapshot.plugins.map((p) => p.connectionId), ['editor-1']);
    assert.deepEqual(restA.map((f) => f.seq), [snapA.seq + 1, snapA.seq + 2, snapA.seq + 3]);
    assert.equal(snapB.seq, snapA.seq + 2);
    assert.equal(snapB.snapshot.calls.find((c) => c.callId === 'call-1')?.status, 'ok');
    assert.deepEqual(restB, [restA[2]]);
    assert.equal(restB[0]?.type === 'event' && restB[0].event.type, 'approval.requested');
    await Promise.all([closeClient(a.ws), closeClient(b.ws)]);
  });

  test('commands travel as { id, command, args } and come back as { id, result }, with structured errors', async () => {
    const c = await connect(h, { query: `?token=${h.token}` });
    h.world.requestApproval({ approvalId: 'ap-2' });
    c.ws.send(JSON.stringify({ id: 1, command: 'approve', args: { approvalId: 'ap-2' } }));
    c.ws.send(JSON.stringify({ id: 2, command: 'deny', args: { approvalId: 'ap-2' } }));
    c.ws.send(JSON.stringify({ id: 3, command: 'rm -rf', args: {} }));
    c.ws.send('not json');
    await until(() => c.replies.length >= 4, 'four replies');
    const byId = new Map(c.replies.map((r) => [r.id, r.result]));
    assert.equal(byId.get(1)?.ok, true);
    const bad = byId.get(2);
    assert.equal(bad?.ok === false && bad.error.code, 'InvalidArguments');
    const unknown = byId.get(3);
    assert.equal(unknown?.ok === false && unknown.error.code, 'InvalidArguments');
    const garbled = byId.get(null);
    assert.equal(garbled?.ok === false && garbled.error.code, 'InvalidArguments');
    assert.deepEqual(h.world.commands.filter((x) => x.command === 'approve').map((x) => x.args), [['ap-2']]);
    await until(() => c.frames.some((f) => f.type === 'event' && f.event.type === 'approval.decided'), 'decision event');
    await closeClient(c.ws);
  });
});

describe('console server batching', () => {
  test('a burst reaches every client as few messages, in order, without gaps, and both clients end in the same state', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'junction-console-'));
    await writeFile(join(dir, 'index.html'), '<!doctype html>');
    const h = await startConsole({ staticDir: dir, limits: { maxBatchChars: 4096 }, metricsTicks: false });
    try {
      const a = await connect(h, { query: `?token=${h.token}` });
      const b = await connect(h, { query: `?token=${h.token}` });
      await until(() => a.frames.length >= 1 && b.frames.length >= 1, 'snapshots');
      for (let i = 0; i < 500; i++) h.world.startCall({ callId: `burst-${i}` });
      for (let i = 0; i < 500; i += 2) h.world.finishCall(`burst-${i}`);
      const last = h.world.hub.lastSeq;
      await until(() => a.frames.at(-1)?.seq === last && b.frames.at(-1)?.seq === last, 'both clients to catch up');

      for (const client of [a, b]) {
        const [snap, ...events] = client.frames;
        assert.equal(snap?.type, 'snapshot');
        assert.deepEqual(events.map((f) => f.seq), Array.from({ length: last - (snap?.seq ?? 0) }, (_, i) => (snap?.seq ?? 0) + i + 1));
        assert.ok(client.messages.some((m) => m.type === 'events' && m.events.length > 1), 'events were batched');
        assert.ok(client.messages.length < events.length / 4, `750 events took ${client.messages.length} messages`);
      }
      const stateA = applyFrames(EMPTY_DATA, a.messages);
      const stateB = applyFrames(EMPTY_DATA, b.messages);
      assert.equal(stateA.gaps, 0);
      assert.equal(stateA.seq, last);
      assert.deepEqual(stateA.callIds, stateB.callIds);
      assert.deepEqual(stateA.callIds.map((id) => stateA.calls.get(id)), stateB.callIds.map((id) => stateB.calls.get(id)));
      assert.equal(stateA.calls.get('burst-0')?.status, 'ok');
      assert.equal(stateA.calls.get('burst-1')?.status, 'running');
      await Promise.all([closeClient(a.ws), closeClient(b.ws)]);
    } finally {
      await h.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('console server flow control', () => {
  test('a client that stops reading is resynced with a fresh snapshot while a reading client gets every event', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'junction-console-'));
    await writeFile(join(dir, 'index.html'), '<!doctype html>');
    const maxQueuedFrames = 32;
    // The metrics tick once a second would add an event after `last` is read whenever the resync takes that long.
    const h = await startConsole({ staticDir: dir, limits: { maxInFlight: 8, maxQueuedFrames }, metricsTicks: false });
    try {
      const fast = await connect(h, { query: `?token=${h.token}` });
      const slow = await connect(h, { query: `?token=${h.token}` });
      await until(() => fast.frames.length >= 1 && slow.frames.length >= 1, 'snapshots');
      slow.ws.pause();
      const name = 'n'.repeat(16 * 1024);
      for (let batch = 0; batch < 100; batch++) {
        for (let i = 0; i < 20; i++) h.world.hub.publish({ type: 'plugin.updated', plugin: { connectionId: 'p', role: 'editor', name: `${name}${batch}-${i}`, connectedAt: 0, reconnects: 0, toolCount: 0, promptCount: 0, resourceCount: 0, state: 'connected' } });
        await tick();
        await new Promise((r) => setTimeout(r, 1));
      }
      const last = h.world.hub.lastSeq;
      await until(() => fast.frames.at(-1)?.seq === last, 'fast client to catch up');
      const fastSeqs = fast.frames.slice(1).map((f) => f.seq);
      assert.equal(fastSeqs.length, last);
      assert.ok(fast.frames.slice(1).every((f, i) => f.type === 'event' && f.seq === i + 1));

      for (const stats of h.console.clientStats()) assert.ok(stats.maxQueued <= maxQueuedFrames);
      assert.ok(h.console.clientStats().some((s) => s.resyncs >= 1), 'the slow client was marked for resync');
      slow.ws.resume();
      await until(() => slow.frames.at(-1)?.type === 'snapshot' && slow.frames.at(-1)?.seq === last, 'resync snapshot');
      assert.ok(slow.frames.length < last, 'the slow client was not sent every event');
      const seqs = slow.frames.map((f) => f.seq);
      assert.ok(seqs.every((s, i) => i === 0 || s > (seqs[i - 1] ?? -1) || slow.frames[i]?.type === 'snapshot'));

      h.world.startCall({ callId: 'after-resync' });
      await until(() => slow.frames.at(-1)?.seq === last + 1, 'delta after resync');
      await Promise.all([closeClient(fast.ws), closeClient(slow.ws)]);
    } finally {
      await h.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
