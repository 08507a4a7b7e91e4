/**
 * Held calls are bounded: their views carry previews of large arguments (so a console opened onto many
 * of them gets a small snapshot; 135 calls of 3.9 MB each used to make the snapshot's string exceed V8's
 * limit and kill Junction), the console fetches one call's whole arguments on demand, and the number
 * and total size of held calls are capped with a structured refusal that names the setting to raise.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CallApprovalView, ControlEvent } from '../../../src-main/contracts/console.js';
import { eventually, startTestJunction, type TestJunction } from '../../support/junction-harness.js';

type Structured = { error?: { code: string; message: string; next?: { kind: string }; details?: Record<string, unknown> } };

describe('held calls are bounded and capped', () => {
  let dir: string;
  let junction: TestJunction;
  const events: ControlEvent[] = [];
  const big = (mark: string) => ({ blob: `${mark}${'x'.repeat(3_900_000)}` });

  const call = (body: unknown) =>
    fetch(`${junction.baseUrl}/api/tools/server-status`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }).then(async (r) => ({ status: r.status, body: (await r.json()) as Structured }));
  const heldViews = () => events.flatMap((e) => (e.type === 'callApproval.requested' ? [e.approval] : []));

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), 'junction-held-'));
    const path = join(dir, 'policy.json');
    await writeFile(path, JSON.stringify({ rules: [{ tool: 'server-status', action: 'ask' }] }));
    junction = await startTestJunction([`approval-policy=${path}`, 'approval-max-held=3', 'approval-max-held-mb=8', 'approval-timeout=60']);
    junction.control.subscribe((e) => events.push(e));
  });
  after(async () => {
    await junction?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  test('large held arguments travel as previews; the console fetches them whole on demand; the caps refuse with Overloaded naming their setting', async () => {
    const first = call(big('a'));
    const second = call(big('b'));
    await eventually(() => heldViews().length === 2, 10_000, 'two held calls');
    const overBytes = await call(big('c'));
    assert.equal(overBytes.status, 429);
    assert.equal(overBytes.body.error?.code, 'Overloaded');
    assert.match(overBytes.body.error!.message, /approval-max-held-mb=8/);
    assert.equal(overBytes.body.error?.next?.kind, 'retryLater');

    const small = call({ note: 'small' });
    await eventually(() => heldViews().length === 3, 10_000, 'a third held call');
    const overCount = await call({ note: 'one too many' });
    assert.equal(overCount.status, 429);
    assert.match(overCount.body.error!.message, /3 calls already wait for the operator, the most approval-max-held=3 allows/);

    const snapshot = await junction.control.snapshot();
    const held = snapshot.callApprovals!.filter((v) => v.state === 'pending');
    assert.equal(held.length, 3);
    assert.ok(Buffer.byteLength(JSON.stringify(snapshot.callApprovals)) < 256 * 1024, 'the snapshot carries previews (64 KiB each at most), not 7.8 MB of arguments');
    const large = held.filter((v) => v.argumentsTruncated);
    assert.equal(large.length, 2);
    for (const view of large) {
      assert.equal(view.argumentBytes, Buffer.byteLength(JSON.stringify(big('a'))));
      const whole = await junction.control.callApprovalArguments({ askId: view.askId });
      assert.equal((whole.arguments.blob as string).length, 3_900_001, 'the whole arguments, on demand');
    }
    assert.deepEqual(held.find((v) => !v.argumentsTruncated)!.arguments, { note: 'small' });

    for (const view of held as CallApprovalView[]) await junction.control.decideCall({ askId: view.askId, digest: view.digest, decision: 'deny', reason: 'enough' });
    for (const answer of await Promise.all([first, second, small])) assert.equal(answer.body.error?.code, 'ApprovalDenied');
    const again = call({ note: 'room again' });
    const next = await eventually(() => heldViews().find((v) => (v.arguments as { note?: string }).note === 'room again'), 10_000, 'a held call once there is room');
    await junction.control.decideCall({ askId: next.askId, digest: next.digest, decision: 'allow-once' });
    assert.equal((await again).status, 200);
  });
});
