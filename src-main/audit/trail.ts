/**
 * The trail as the rest of Junction meets it: a call observer that hands every finished call to the
 * store, the transaction, approval and plugin events worth keeping, and the console's history, export
 * and replay. The composition root feeds it events; it imports no room but through their doors.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import type { Writable } from 'node:stream';
import type { StoredEvent } from './records.js';
import type { RedactionRules } from './redact.js';
import { AuditStore, type AuditProblem } from './store.js';
import type { AuditExportRequest, HistoryProvider } from '../control/index.js';
import type { ApprovalView, CallApprovalView, CallDetail, HistoryAvailability, HistoryPage, JsonText, OperatorNotice, PolicyChangeView, PolicyView, ReplayResult, RevisionView, TransactionRecordView, WorkspaceView } from '../contracts/index.js';
import type { CallObserver, Dispatcher } from '../mcp/index.js';
import { JunctionError } from '../contracts/index.js';
import { flatText, type Logger } from '../shared/index.js';

export function auditDbPath(stateDir: string): string {
  return join(stateDir, 'audit', 'audit.db');
}

export interface AuditTrailOptions {
  stateDir: string;
  rules: RedactionRules;
  logger: Logger;
  retentionDays: number;
  maxMb: number;
  /** Raises a notice for the operator (the console's `notice.raised`) when the trail stops recording. */
  notice?: (notice: OperatorNotice) => void;
}

/** What the console shows when the database starts failing: calls go on, unrecorded, and why. */
/**
 * How long "not recording" stands: it is often found at start-up (a damaged file), before any console is
 * open, so it stays in the console's snapshot and on screen this long unless dismissed.
 */
export const NOT_RECORDING_NOTICE_MS = 10 * 60_000;

export function problemNotice(problem: AuditProblem, at: number): OperatorNotice {
  return {
    id: randomUUID(),
    level: problem.key === 'corrupt' || problem.key === 'access' ? 'error' : 'warning',
    title: 'Audit trail not recording',
    message: `${problem.message[0]!.toUpperCase()}${problem.message.slice(1)}. Tool calls continue; their records are held (the oldest dropped beyond the queue's bound) and written once the database works again.`,
    subject: { kind: 'audit', id: 'audit-database', label: 'audit database' },
    at,
    ttlMs: NOT_RECORDING_NOTICE_MS,
  };
}

const HISTORY_PAGE = 100;

const objectOf = (value: unknown): Record<string, unknown> | undefined => (value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined);

function structured(result: unknown): Record<string, unknown> | undefined {
  return objectOf(objectOf(result)?.structuredContent);
}

const stringField = (value: Record<string, unknown> | undefined, key: string): string | undefined => (typeof value?.[key] === 'string' ? value[key] : undefined);

export class AuditTrail {
  readonly store: AuditStore;
  /** Transaction id → the workspace it belongs to, learnt from workspace updates. */
  private readonly transactions = new Map<string, { workspaceId: string; workspaceName: string; revisions: number }>();
  private readonly logger: Logger;

  constructor(options: AuditTrailOptions) {
    this.logger = options.logger;
    this.store = new AuditStore({
      path: auditDbPath(options.stateDir),
      rules: options.rules,
      logger: options.logger,
      retentionDays: options.retentionDays,
      maxBytes: options.maxMb * 1024 * 1024,
      ...(options.notice ? { onProblem: (problem: AuditProblem) => options.notice!(problemNotice(problem, Date.now())) } : {}),
    });
    this.store.open();
  }

  /** Records each finished call. */
  readonly observer: CallObserver = {
    started: () => {},
    progress: () => {},
    finished: (call, result, json) => {
      // A call that never reached the policy (unknown tool, admission refusal) records no decision rather than an allow nobody made.
      this.store.recordCall({
        call,
        json,
        policy: call.policy ?? null,
        decidedBy: call.policy?.decidedBy ?? null,
        ...(call.replayOf ? { replayOf: call.replayOf } : {}),
      });
      if (call.status === 'ok') this.transactionOutcome(call.tool, json.arguments, result);
    },
  };

  workspaceUpdated(workspace: WorkspaceView): void {
    const tx = workspace.transaction;
    if (!tx || tx.state !== 'active') return;
    const known = this.transactions.get(tx.transactionId);
    const seen = known?.revisions ?? 0;
    for (const revision of tx.revisions) {
      if (revision.revision <= seen) continue;
      this.store.recordEvent({ kind: 'transaction.staged', at: revision.stagedAt, workspaceId: workspace.workspaceId, transactionId: tx.transactionId, data: { workspaceName: workspace.name, revision } });
    }
    const last = tx.revisions.reduce((max, r) => Math.max(max, r.revision), 0);
    if (known && last < seen) {
      this.store.recordEvent({ kind: 'transaction.revertedTo', at: Date.now(), workspaceId: workspace.workspaceId, transactionId: tx.transactionId, data: { workspaceName: workspace.name, toRevision: last } });
    }
    this.transactions.set(tx.transactionId, { workspaceId: workspace.workspaceId, workspaceName: workspace.name, revisions: last });
  }

  approval(kind: 'approval.requested' | 'approval.decided', approval: ApprovalView): void {
    const tx = this.transactions.get(approval.transactionId);
    // The approval's files repeat the staged diff already recorded with its revision.
    const { files: _files, ...rest } = approval;
    this.store.recordEvent({ kind, at: approval.decidedAt ?? approval.requestedAt, workspaceId: approval.workspaceId, transactionId: approval.transactionId, data: { ...rest, workspaceName: tx?.workspaceName ?? null } });
  }

  /**
   * A held call's wait ended (the operator decided, the policy changed, the timeout, the agent gave up).
   * Written before this returns: the event is told before the held call is released, so an operator's
   * decision is in the file before the call it allowed runs, and survives a crash that follows. A
   * blocking write of one small batch, at the pace of a human's decisions.
   */
  callDecided(approval: CallApprovalView): void {
    this.store.recordEvent({ kind: 'callApproval.decided', at: approval.decidedAt ?? Date.now(), data: approval });
    this.store.flush();
  }

  policyEdited(policy: PolicyView, change: PolicyChangeView): void {
    this.store.recordEvent({ kind: 'policy.edited', at: policy.updatedAt, data: { path: policy.path, version: policy.version, change, document: policy.document } });
  }

  plugin(kind: 'plugin.connected' | 'plugin.disconnected', data: Record<string, unknown>): void {
    this.store.recordEvent({ kind, at: Date.now(), data });
  }

  /**
   * The console's history. It waits for the writer to have written what was recorded before it, then
   * reads in the reader thread: both by message, so agents' calls go on meanwhile.
   */
  readonly history: HistoryProvider = {
    query: async (query) => {
      const page = await this.store.queryCalls({ ...query, limit: query.limit ?? HISTORY_PAGE });
      const out: HistoryPage = { calls: page.items.map((i) => i.call), ...this.availability() };
      if (page.nextBefore !== undefined) out.nextBefore = page.nextBefore;
      return out;
    },
    detail: async (callId) => {
      const stored = await this.store.findCall(callId);
      if (!stored) return undefined;
      const detail: CallDetail = { call: stored.call, arguments: stored.arguments, truncated: stored.truncated, redacted: stored.redacted };
      if (stored.result !== undefined) detail.result = stored.result;
      if (stored.policy !== null) detail.policy = stored.policy;
      return detail;
    },
    transactions: async (limit) => {
      return {
        transactions: (await this.store.endedTransactions(limit)).flatMap(({ transactionId, events }) => {
          const record = transactionRecord(transactionId, events);
          return record ? [record] : [];
        }),
        ...this.availability(),
      };
    },
  };

  /** Read after the query, so a query that found the database failing reports it. */
  private availability(): HistoryAvailability {
    const status = this.store.status();
    const out: HistoryAvailability = { available: status.state === 'open' };
    if (status.reason) out.reason = status.reason;
    if (status.upgrade) {
      const { startedAt, calls, done } = status.upgrade;
      out.upgrade = { startedAt, ...(calls !== undefined ? { calls } : {}), ...(done !== undefined ? { done } : {}) };
    }
    return out;
  }

  /** Runs a recorded call again through the dispatcher (and so through whatever policy it applies). */
  async replay(dispatcher: Dispatcher, callId: string): Promise<ReplayResult> {
    const stored = await this.store.findCall(callId);
    const status = this.store.status();
    if (!stored && status.state === 'upgrading') throw new JunctionError('ReplayRefused', `Call ${callId} cannot be replayed yet: ${status.reason ?? 'the audit trail is being upgraded'}`);
    if (!stored) throw new JunctionError('ResourceNotFound', `No recorded call ${callId} in the audit trail.`);
    if (stored.redacted.some((p) => p === '/arguments' || p.startsWith('/arguments/'))) {
      throw new JunctionError('ReplayRefused', `Call ${callId} cannot be replayed: its arguments held values that were redacted before recording (${stored.redacted.filter((p) => p.startsWith('/arguments')).join(', ')}), and Junction never keeps the originals.`);
    }
    if (stored.truncated || !stored.arguments || typeof stored.arguments !== 'object' || Array.isArray(stored.arguments)) {
      throw new JunctionError('ReplayRefused', `Call ${callId} cannot be replayed: only a preview of its arguments was recorded.`);
    }
    const outcome = await dispatcher.call({
      name: stored.call.tool,
      args: stored.arguments as Record<string, unknown>,
      agent: 'operator',
      transport: 'console',
      signal: new AbortController().signal,
      replayOf: callId,
    });
    return { replayOf: callId, isError: outcome.result.isError === true, result: outcome.result };
  }

  /**
   * Streams the trail as the console's Export button downloads it, once what is queued is written. With
   * the console's filter, the calls its history search finds (newest first, as it lists them) and no events.
   */
  export(request: AuditExportRequest, out: Writable): Promise<number> {
    return this.store.exportTo(request, out, (message) => this.logger.warn(`audit export: ${message}`));
  }

  /** Writes what is queued and closes the trail (see `AuditStore.close`). */
  close(): Promise<void> {
    return this.store.close();
  }

  private transactionOutcome(tool: string, argsJson: JsonText, result: unknown): void {
    const out = structured(result);
    if (tool === 'transaction-commit') {
      const transactionId = stringField(out, 'transactionId');
      if (!transactionId) return;
      const tx = this.transactions.get(transactionId);
      const receipt = stringField(objectOf(JSON.parse(flatText(argsJson))), 'receipt');
      this.store.recordEvent({ kind: 'transaction.committed', at: Date.now(), ...(tx ? { workspaceId: tx.workspaceId } : {}), transactionId, data: { workspaceName: tx?.workspaceName ?? null, commit: out, ...(receipt ? { receipt } : {}) } });
      this.transactions.delete(transactionId);
    } else if (tool === 'transaction-rollback') {
      const summary = out?.transaction as Record<string, unknown> | undefined;
      const transactionId = stringField(summary, 'transactionId');
      if (!transactionId || summary?.state !== 'rolledBack') return;
      const tx = this.transactions.get(transactionId);
      this.store.recordEvent({ kind: 'transaction.rolledBack', at: Date.now(), ...(tx ? { workspaceId: tx.workspaceId } : {}), transactionId, data: { workspaceName: tx?.workspaceName ?? null } });
      this.transactions.delete(transactionId);
    } else if (tool === 'transaction-review') {
      const approval = out?.approval as ApprovalView | undefined;
      if (!approval?.transactionId) return;
      this.store.recordEvent({ kind: 'transaction.reviewed', at: Date.now(), workspaceId: approval.workspaceId, transactionId: approval.transactionId, data: { revision: approval.revision, state: approval.state, receipt: stringField(out, 'receipt') ?? null } });
    }
  }
}

/** Folds a transaction's recorded events into what the console shows; undefined unless it ended. */
export function transactionRecord(transactionId: string, events: readonly StoredEvent[]): TransactionRecordView | undefined {
  let revisions: RevisionView[] = [];
  let ended: { state: 'committed' | 'rolledBack'; at: number } | undefined;
  let workspaceId: string | null = null;
  let workspaceName: string | null = null;
  let commit: unknown;
  let receipt: string | undefined;
  const approvals = new Map<string, TransactionRecordView['approvals'][number]>();
  for (const event of events) {
    const data = (event.data ?? {}) as Record<string, unknown>;
    workspaceId = event.workspaceId ?? workspaceId;
    if (typeof data.workspaceName === 'string') workspaceName = data.workspaceName;
    switch (event.kind) {
      case 'transaction.staged': {
        const revision = data.revision as RevisionView;
        revisions = [...revisions.filter((r) => r.revision !== revision.revision), revision];
        break;
      }
      case 'transaction.revertedTo':
        revisions = revisions.filter((r) => r.revision <= Number(data.toRevision));
        break;
      case 'approval.requested':
      case 'approval.decided': {
        const id = String(data.approvalId);
        const entry: TransactionRecordView['approvals'][number] = { revision: Number(data.revision), state: data.state as ApprovalView['state'] };
        if (typeof data.decidedAt === 'number') entry.decidedAt = data.decidedAt;
        if (typeof data.reason === 'string') entry.reason = data.reason;
        const requestedBy = (data.requestedBy ?? approvals.get(id)?.requestedBy) as ApprovalView['requestedBy'];
        if (requestedBy) entry.requestedBy = requestedBy;
        approvals.set(id, entry);
        break;
      }
      case 'transaction.committed':
        ended = { state: 'committed', at: event.at };
        commit = data.commit;
        if (typeof data.receipt === 'string') receipt = data.receipt;
        break;
      case 'transaction.rolledBack':
        ended = { state: 'rolledBack', at: event.at };
        break;
      default:
        break;
    }
  }
  if (!ended) return undefined;
  const record: TransactionRecordView = { transactionId, workspaceId, workspaceName, state: ended.state, endedAt: ended.at, revisions: revisions.sort((a, b) => a.revision - b.revision), approvals: [...approvals.values()] };
  if (commit !== undefined) record.commit = commit;
  if (receipt !== undefined) record.receipt = receipt;
  return record;
}
