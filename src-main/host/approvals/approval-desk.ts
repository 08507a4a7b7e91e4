/**
 * Operator approvals for transaction revisions: raise a request, wait for a decision (bounded),
 * record decisions in a bounded log, and hand out single-use signed receipts.
 */
import { randomUUID } from 'node:crypto';
import type { ApprovalRequesterView, ApprovalView, CompileCheckView, FileDiffView } from '../../contracts/index.js';
import { JunctionError } from '../../contracts/index.js';
import { ReceiptSigner, receiptInvalid, type ReceiptBinding } from './receipts.js';

export type Decision = 'approve' | 'deny';

export interface ApprovalEvents {
  requested(approval: ApprovalView): void;
  decided(approval: ApprovalView): void;
}

interface Entry {
  view: ApprovalView;
  binding: ReceiptBinding;
  receipt?: string;
  waiters: Set<() => void>;
}

export interface WaitOptions {
  timeoutMs: number;
  signal?: AbortSignal;
  /** Called about once per tickMs while waiting, with the elapsed milliseconds. */
  onTick?: (elapsedMs: number) => void;
  tickMs?: number;
}

export class ApprovalDesk {
  private readonly entries = new Map<string, Entry>();
  private readonly log: ApprovalView[] = [];
  private readonly used = new Set<string>();

  constructor(
    private readonly events: ApprovalEvents,
    private readonly signer: ReceiptSigner = new ReceiptSigner(),
    private readonly logLimit = 200,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Raises a request, or returns the pending (or approved, not yet used) one for exactly the same binding.
   * `compile` runs only for a new request: the same content always compiles the same way. A request
   * re-attached to keeps the agent that raised it: the operator was shown that one.
   */
  request(binding: Omit<ReceiptBinding, 'approvalId'>, files: FileDiffView[], compile?: () => CompileCheckView, requestedBy?: ApprovalRequesterView): ApprovalView {
    for (const entry of this.entries.values()) {
      const b = entry.binding;
      const reusable = entry.view.state === 'pending' || (entry.view.state === 'approved' && !this.used.has(b.approvalId));
      if (reusable && b.workspaceId === binding.workspaceId && b.transactionId === binding.transactionId && b.revision === binding.revision && b.contentHash === binding.contentHash) {
        return entry.view;
      }
    }
    const approvalId = randomUUID();
    const check = compile?.();
    const view: ApprovalView = {
      approvalId,
      workspaceId: binding.workspaceId,
      transactionId: binding.transactionId,
      revision: binding.revision,
      requestedAt: this.now(),
      files,
      state: 'pending',
      ...(check ? { compile: check } : {}),
      ...(requestedBy ? { requestedBy } : {}),
    };
    this.entries.set(approvalId, { view, binding: { ...binding, approvalId }, waiters: new Set() });
    this.events.requested(view);
    return view;
  }

  pending(): ApprovalView[] {
    return [...this.entries.values()].filter((e) => e.view.state === 'pending').map((e) => e.view);
  }

  decisions(): readonly ApprovalView[] {
    return this.log;
  }

  get(approvalId: string): ApprovalView | undefined {
    return this.entries.get(approvalId)?.view;
  }

  /** The receipt of an approved request; undefined until approved. */
  receiptFor(approvalId: string): string | undefined {
    return this.entries.get(approvalId)?.receipt;
  }

  decide(approvalId: string, decision: Decision, reason?: string): ApprovalView {
    const entry = this.entries.get(approvalId);
    if (!entry) throw new JunctionError('ApprovalNotFound', `No approval request '${approvalId}'.`, { details: { approvalId } });
    if (entry.view.state !== 'pending') {
      throw new JunctionError('Conflict', `Approval '${approvalId}' is already ${entry.view.state}.`, { details: { approvalId, state: entry.view.state } });
    }
    if (decision === 'approve') entry.receipt = this.signer.issue(entry.binding);
    this.settle(entry, decision === 'approve' ? 'approved' : 'denied', reason);
    return entry.view;
  }

  /** Expires pending requests of a workspace whose revision or content moved on (staging, rollback, commit). */
  expireWorkspace(workspaceId: string, reason: string): void {
    for (const entry of this.entries.values()) {
      if (entry.view.workspaceId === workspaceId && entry.view.state === 'pending') this.settle(entry, 'expired', reason);
    }
  }

  /** Resolves with the view once decided, or still pending when the wait ends (timeout or abort). */
  wait(approvalId: string, options: WaitOptions): Promise<ApprovalView> {
    const entry = this.entries.get(approvalId);
    if (!entry) return Promise.reject(new JunctionError('ApprovalNotFound', `No approval request '${approvalId}'.`));
    if (entry.view.state !== 'pending') return Promise.resolve(entry.view);
    return new Promise((resolve) => {
      const started = this.now();
      const finish = (): void => {
        clearTimeout(timeout);
        if (ticker) clearInterval(ticker);
        options.signal?.removeEventListener('abort', finish);
        entry.waiters.delete(finish);
        resolve(entry.view);
      };
      const timeout = setTimeout(finish, options.timeoutMs);
      const ticker = options.onTick ? setInterval(() => options.onTick?.(this.now() - started), options.tickMs ?? 5000) : undefined;
      options.signal?.addEventListener('abort', finish, { once: true });
      entry.waiters.add(finish);
    });
  }

  /**
   * Checks a receipt for an exact binding and returns its approval id. `ReceiptInvalid` when forged,
   * already used, or issued for another workspace, transaction, revision or content.
   */
  checkReceipt(receipt: string, expected: Omit<ReceiptBinding, 'approvalId'>): string {
    const binding = this.signer.verify(receipt);
    if (this.used.has(binding.approvalId)) throw receiptInvalid('The receipt was already used for a commit.', { approvalId: binding.approvalId });
    const stale = (['workspaceId', 'transactionId', 'revision', 'contentHash'] as const).filter((k) => binding[k] !== expected[k]);
    if (stale.length > 0) {
      throw receiptInvalid(`The receipt was issued for a different ${stale.join(', ')}; review the current revision.`, { approvalId: binding.approvalId, mismatched: stale });
    }
    return binding.approvalId;
  }

  /** A receipt is single-use: once its commit starts it can never be presented again. */
  markUsed(approvalId: string): void {
    this.used.add(approvalId);
  }

  /** Ends every wait (the requests stay pending) so a closing host leaves no timers behind. */
  close(): void {
    for (const entry of this.entries.values()) for (const wake of [...entry.waiters]) wake();
  }

  private settle(entry: Entry, state: ApprovalView['state'], reason: string | undefined): void {
    entry.view = { ...entry.view, state, decidedAt: this.now(), ...(reason !== undefined ? { reason } : {}) };
    this.log.push(entry.view);
    if (this.log.length > this.logLimit) this.log.splice(0, this.log.length - this.logLimit);
    this.pruneSettled();
    this.events.decided(entry.view);
    for (const wake of [...entry.waiters]) wake();
  }

  /** Settled entries beyond the log limit are forgotten so the desk stays bounded; receipts stay verifiable by signature. */
  private pruneSettled(): void {
    const settled = [...this.entries.values()].filter((e) => e.view.state !== 'pending');
    for (const e of settled.slice(0, Math.max(0, settled.length - this.logLimit))) this.entries.delete(e.view.approvalId);
  }
}
