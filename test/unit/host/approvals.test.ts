import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { ApprovalDesk, ReceiptSigner } from '../../../src-main/host/approvals/index.js';
import type { ApprovalView } from '../../../src-main/contracts/console.js';

const binding = { workspaceId: 'w', transactionId: 't', revision: 1, contentHash: 'h' };

function desk(): { desk: ApprovalDesk; seen: string[] } {
  const seen: string[] = [];
  const events = { requested: (a: ApprovalView) => seen.push(`requested:${a.state}`), decided: (a: ApprovalView) => seen.push(`decided:${a.state}`) };
  return { desk: new ApprovalDesk(events, new ReceiptSigner(randomBytes(32)), 3), seen };
}

describe('receipts', () => {
  test('a receipt verifies only under the secret that signed it', () => {
    const a = new ReceiptSigner(randomBytes(32));
    const b = new ReceiptSigner(randomBytes(32));
    const receipt = a.issue({ approvalId: 'x', ...binding });
    assert.deepEqual(a.verify(receipt), { approvalId: 'x', ...binding });
    assert.throws(() => b.verify(receipt), { code: 'ReceiptInvalid' });
    assert.throws(() => a.verify(`${receipt}x`), { code: 'ReceiptInvalid' });
    assert.throws(() => a.verify('jrc1.e30.'), { code: 'ReceiptInvalid' });
  });
});

describe('approval desk', () => {
  test('a request names the agent that raised it; a second agent re-attaching to it does not rename it, and the decision keeps it', () => {
    const { desk: d } = desk();
    const first = { agent: 'claude-code/1.2 http 3f2a', agentName: 'claude-code', transport: 'mcp-http' as const, sessionId: 'session-1' };
    const view = d.request(binding, [], undefined, first);
    assert.deepEqual(view.requestedBy, first);
    const again = d.request(binding, [], undefined, { agent: 'cursor/0.9 http 77aa', agentName: 'cursor', transport: 'mcp-http' });
    assert.equal(again.approvalId, view.approvalId);
    assert.deepEqual(again.requestedBy, first, 'the operator was shown the first agent');
    assert.deepEqual(d.decide(view.approvalId, 'deny', 'no').requestedBy, first);
    assert.equal(d.request({ ...binding, revision: 2 }, []).requestedBy, undefined, 'a request without a known caller names none');
  });

  test('approve yields a single-use receipt bound to the exact revision and content', async () => {
    const { desk: d, seen } = desk();
    const view = d.request(binding, []);
    const waiting = d.wait(view.approvalId, { timeoutMs: 10_000 });
    d.decide(view.approvalId, 'approve');
    assert.equal((await waiting).state, 'approved');
    const receipt = d.receiptFor(view.approvalId)!;
    assert.throws(() => d.checkReceipt(receipt, { ...binding, revision: 2 }), { code: 'ReceiptInvalid' });
    assert.throws(() => d.checkReceipt(receipt, { ...binding, contentHash: 'other' }), { code: 'ReceiptInvalid' });
    const id = d.checkReceipt(receipt, binding);
    d.markUsed(id);
    assert.throws(() => d.checkReceipt(receipt, binding), { code: 'ReceiptInvalid' });
    assert.deepEqual(seen, ['requested:pending', 'decided:approved']);
  });

  test('a wait ends at its timeout with the request still pending; staging expires it', async () => {
    const { desk: d, seen } = desk();
    const view = d.request(binding, []);
    assert.equal((await d.wait(view.approvalId, { timeoutMs: 0 })).state, 'pending');
    assert.equal(d.request(binding, []).approvalId, view.approvalId, 'the same binding re-attaches');
    d.expireWorkspace('w', 'revision 2 was staged');
    assert.equal(d.get(view.approvalId)?.state, 'expired');
    assert.deepEqual(d.pending(), []);
    assert.deepEqual(seen, ['requested:pending', 'decided:expired']);
  });

  test('an aborted wait resolves at once', async () => {
    const { desk: d } = desk();
    const view = d.request(binding, []);
    const controller = new AbortController();
    const waiting = d.wait(view.approvalId, { timeoutMs: 60_000, signal: controller.signal });
    controller.abort();
    assert.equal((await waiting).state, 'pending');
  });

  test('the decision log is bounded', () => {
    const { desk: d } = desk();
    for (let i = 0; i < 6; i++) {
      const v = d.request({ ...binding, revision: i }, []);
      d.decide(v.approvalId, i % 2 ? 'approve' : 'deny', `r${i}`);
    }
    assert.equal(d.decisions().length, 3);
    assert.equal(d.decisions().at(-1)?.reason, 'r5');
    assert.throws(() => d.decide('missing', 'deny'), { code: 'ApprovalNotFound' });
  });
});

test('closing the desk ends every wait', async () => {
  const d = new ApprovalDesk({ requested: () => undefined, decided: () => undefined });
  const view = d.request(binding, []);
  const waiting = d.wait(view.approvalId, { timeoutMs: 3_600_000, onTick: () => undefined, tickMs: 1000 });
  d.close();
  assert.equal((await waiting).state, 'pending');
});
