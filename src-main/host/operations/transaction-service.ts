/**
 * The transaction pipeline over real workspaces: start, stage (with path guards and compiler
 * validation), preview, operator review, commit through the journal, rollback. Every precondition
 * fails with a structured error before anything changes.
 */
import { randomUUID } from 'node:crypto';
import { join, relative, sep } from 'node:path';
import type { ApprovalRequesterView, ApprovalView, CompileCheckView, DiagnosticView, FileDiffView, RevisionView, TransactionView } from '../../contracts/index.js';
import type { FileChange } from '../../recovery/index.js';
import { JunctionError, isJunctionError, next } from '../../contracts/index.js';
import type { ApprovalDesk } from '../approvals/index.js';
import type { HostJournal } from '../journal.js';
import type { ModePolicy } from '../modes.js';
import { applyCandidate, diagnosticsDelta, revisionView, toFileDiffView, Transaction, type CandidateChange, type DiagnosticsDelta } from '../transactions/index.js';
import { assertTransactionPath, collectDiagnostics, guardWorkspacePath, isWithin, readInside, sha256, type Snapshot, type SnapshotIdentity, type Workspace, type WorkspaceRegistry } from '../workspace/index.js';
import { boundCounted, type Bounded } from './bounded.js';
import { assertMutable, assertSnapshot, requireActive } from './guards.js';

export const DEFAULT_MAX_DIFF_CHARS = 100_000;
const MAX_REPORTED_DIAGNOSTICS = 50;

export interface StageResult {
  snapshot: SnapshotIdentity;
  transactionId: string;
  revision: RevisionView;
}

export interface PreviewResult {
  snapshot: SnapshotIdentity;
  transactionId: string;
  revision: number;
  contentHash: string;
  files: Bounded<FileDiffView>;
}

export interface CommitResult {
  snapshot: SnapshotIdentity;
  transactionId: string;
  manifestId: string | null;
  files: Array<{ path: string; beforeSha256: string | null; afterSha256: string | null }>;
}

export interface ReviewResult {
  approval: ApprovalView;
  receipt: string;
}

export interface TransactionServiceDeps {
  registry: WorkspaceRegistry;
  policy: ModePolicy;
  journal: HostJournal;
  desk: ApprovalDesk;
  now: () => number;
  /** Called whenever a workspace's transaction state changed. */
  changed: (workspace: Workspace) => void;
}

export class TransactionService {
  private readonly active = new Map<string, Transaction>();
  private readonly previewed = new Map<string, { transactionId: string; revision: number }>();
  private readonly committing = new Set<string>();

  constructor(private readonly deps: TransactionServiceDeps) {}

  transactionOf(workspaceId: string): Transaction | undefined {
    const tx = this.active.get(workspaceId);
    return tx?.state === 'active' ? tx : undefined;
  }

  start(workspace: Workspace, expected: SnapshotIdentity): TransactionView {
    assertMutable(this.deps.policy, workspace);
    const existing = this.transactionOf(workspace.workspaceId);
    if (existing) {
      throw new JunctionError('TransactionActive', `Transaction ${existing.transactionId} is already active on '${workspace.name}'; commit or roll it back first.`, {
        next: next('inspectStatus', 'transaction-preview', 'transaction-rollback'),
        details: { transactionId: existing.transactionId },
      });
    }
    assertSnapshot(workspace, expected);
    const tx = new Transaction({ transactionId: randomUUID(), workspaceId: workspace.workspaceId, startedAt: this.deps.now(), base: workspace.baseSnapshot() });
    this.active.set(workspace.workspaceId, tx);
    workspace.setHead({ snapshot: tx.head(), revision: 0 });
    this.deps.changed(workspace);
    return tx.view(DEFAULT_MAX_DIFF_CHARS);
  }

  /** Stages candidate changes as the next revision. Paths are guarded here, so callers may pass raw agent paths. */
  async stage(workspaceId: string, expected: SnapshotIdentity, changes: readonly CandidateChange[], summary: string): Promise<StageResult> {
    const workspace = this.workspace(workspaceId);
    assertMutable(this.deps.policy, workspace);
    const tx = requireActive(this.transactionOf(workspaceId), workspace);
    assertSnapshot(workspace, expected);
    const guarded = await this.guardChanges(workspace, changes);
    // The disk or the head may have moved while paths were checked.
    assertSnapshot(workspace, expected);
    const candidate = applyCandidate(tx.head(), guarded);
    const delta = this.deps.policy.compilerValidation ? this.validateCandidate(workspace, tx.head(), candidate.snapshot) : this.touchedDiagnostics(workspace, tx.head(), candidate.snapshot);
    const revision = tx.stage(candidate, summary, this.deps.now(), delta);
    workspace.setHead({ snapshot: revision.snapshot, revision: revision.revision });
    this.deps.desk.expireWorkspace(workspaceId, `revision ${revision.revision} was staged`);
    this.deps.changed(workspace);
    return { snapshot: workspace.identity(), transactionId: tx.transactionId, revision: revisionView(revision, DEFAULT_MAX_DIFF_CHARS) };
  }

  preview(workspace: Workspace, expected: SnapshotIdentity | undefined, limit: number, maxDiffChars: number): PreviewResult {
    const tx = requireActive(this.transactionOf(workspace.workspaceId), workspace);
    if (expected) assertSnapshot(workspace, expected);
    const files = boundCounted(tx.preview(), limit, (f) => toFileDiffView(f, maxDiffChars));
    this.previewed.set(workspace.workspaceId, { transactionId: tx.transactionId, revision: tx.revision });
    return { snapshot: workspace.identity(), transactionId: tx.transactionId, revision: tx.revision, contentHash: tx.contentHash(), files };
  }

  /** Raises (or re-attaches to) the operator approval for the current revision and waits for it, bounded. */
  async review(
    workspace: Workspace,
    expected: SnapshotIdentity,
    wait: { timeoutMs: number; signal?: AbortSignal; onTick?: (elapsedMs: number) => void },
    requestedBy?: ApprovalRequesterView,
  ): Promise<ReviewResult> {
    assertMutable(this.deps.policy, workspace);
    const tx = requireActive(this.transactionOf(workspace.workspaceId), workspace);
    assertSnapshot(workspace, expected);
    const files = tx.preview().map((f) => toFileDiffView(f, DEFAULT_MAX_DIFF_CHARS));
    const binding = { workspaceId: workspace.workspaceId, transactionId: tx.transactionId, revision: tx.revision, contentHash: tx.contentHash() };
    const request = this.deps.desk.request(binding, files, () => this.compileCheck(workspace, tx), requestedBy);
    const decided = await this.deps.desk.wait(request.approvalId, { timeoutMs: wait.timeoutMs, tickMs: 1000, ...(wait.signal ? { signal: wait.signal } : {}), ...(wait.onTick ? { onTick: wait.onTick } : {}) });
    const receipt = this.deps.desk.receiptFor(decided.approvalId);
    if (decided.state === 'approved' && receipt) return { approval: decided, receipt };
    const message =
      decided.state === 'denied'
        ? `The operator denied revision ${decided.revision}${decided.reason ? `: ${decided.reason}` : '.'}`
        : decided.state === 'pending'
          ? `The operator has not decided yet on revision ${decided.revision}; call transaction-review again to keep waiting.`
          : `The approval request expired${decided.reason ? ` (${decided.reason})` : ''}; review the current revision.`;
    throw new JunctionError('ReviewRequired', message, {
      next: next('requestReview', 'transaction-review'),
      details: {
        approvalId: decided.approvalId,
        state: decided.state,
        ...(decided.reason !== undefined ? { reason: decided.reason } : {}),
        ...(decided.compile ? { compile: decided.compile } : {}),
      },
    });
  }

  async commit(workspace: Workspace, expected: SnapshotIdentity, receipt: string | undefined): Promise<CommitResult> {
    assertMutable(this.deps.policy, workspace);
    const tx = requireActive(this.transactionOf(workspace.workspaceId), workspace);
    assertSnapshot(workspace, expected);
    if (this.committing.has(workspace.workspaceId)) {
      throw new JunctionError('ConcurrentCommit', `A commit of '${workspace.name}' is already in progress.`, { next: next('retryLater', 'workspace-status') });
    }
    const blocked = this.deps.journal.blockedWorkspaces().find((b) => b.workspaceRoot === null || isWithin(b.workspaceRoot, workspace.realRoot) || isWithin(workspace.realRoot, b.workspaceRoot));
    if (blocked) {
      throw new JunctionError(blocked.code, `Workspace '${workspace.name}' has unresolved recovery evidence (${blocked.detail}); nothing can be committed until it is resolved.`, {
        next: next('inspectStatus', 'recovery-status'),
      });
    }
    this.committing.add(workspace.workspaceId);
    try {
      const binding = { workspaceId: workspace.workspaceId, transactionId: tx.transactionId, revision: tx.revision, contentHash: tx.contentHash() };
      const useReceipt = this.checkCommitPolicy(workspace, tx, receipt, binding);
      const changes = tx.fileChanges();
      await this.assertDiskUnchanged(workspace, changes);
      useReceipt();
      const journalReceipt = changes.length === 0 ? undefined : await this.journalCommit({ transactionId: tx.transactionId, workspaceRoot: workspace.realRoot, changes });
      tx.markCommitted();
      this.active.delete(workspace.workspaceId);
      this.previewed.delete(workspace.workspaceId);
      workspace.setCommitted(tx.head());
      this.deps.desk.expireWorkspace(workspace.workspaceId, 'the transaction was committed');
      this.deps.changed(workspace);
      return {
        snapshot: workspace.identity(),
        transactionId: tx.transactionId,
        manifestId: journalReceipt?.manifestId ?? null,
        files: journalReceipt?.files ?? [],
      };
    } finally {
      this.committing.delete(workspace.workspaceId);
    }
  }

  /**
   * After the workspace was reloaded from disk: a transaction with nothing staged moves onto the new
   * base, so queries see the disk; one with staged revisions keeps its base and a commit will report
   * ConflictOnDisk for the files that changed.
   */
  rebaseIfEmpty(workspace: Workspace): void {
    const tx = this.transactionOf(workspace.workspaceId);
    if (!tx || tx.revision > 0) return;
    const rebased = new Transaction({ transactionId: tx.transactionId, workspaceId: tx.workspaceId, startedAt: tx.startedAt, base: workspace.baseSnapshot() });
    this.active.set(workspace.workspaceId, rebased);
    workspace.setHead({ snapshot: rebased.head(), revision: 0 });
  }

  /** Without `toRevision` the transaction is abandoned; with it, revisions after it are dropped. */
  rollback(workspace: Workspace, toRevision: number | undefined): TransactionView {
    assertMutable(this.deps.policy, workspace);
    const tx = requireActive(this.transactionOf(workspace.workspaceId), workspace);
    if (this.committing.has(workspace.workspaceId)) {
      throw new JunctionError('ConcurrentCommit', `A commit of '${workspace.name}' is in progress; it cannot be rolled back now.`, { next: next('retryLater', 'workspace-status') });
    }
    if (toRevision === undefined) {
      tx.abandon();
      this.active.delete(workspace.workspaceId);
      workspace.setHead(undefined);
    } else {
      tx.rollbackTo(toRevision);
      workspace.setHead({ snapshot: tx.head(), revision: tx.revision });
    }
    this.previewed.delete(workspace.workspaceId);
    this.deps.desk.expireWorkspace(workspace.workspaceId, toRevision === undefined ? 'the transaction was rolled back' : `rolled back to revision ${toRevision}`);
    this.deps.changed(workspace);
    return tx.view(DEFAULT_MAX_DIFF_CHARS);
  }

  private workspace(workspaceId: string): Workspace {
    const workspace = this.deps.registry.get(workspaceId);
    if (!workspace) throw new JunctionError('WorkspaceNotFound', `No open workspace '${workspaceId}'.`, { next: next('inspectStatus', 'workspace-status') });
    return workspace;
  }

  private async guardChanges(workspace: Workspace, changes: readonly CandidateChange[]): Promise<CandidateChange[]> {
    const guard = async (path: string): Promise<string> => {
      const relative = await guardWorkspacePath(workspace.realRoot, path);
      assertTransactionPath(relative);
      return relative;
    };
    return Promise.all(
      changes.map(async (change): Promise<CandidateChange> => {
        const path = await guard(change.path);
        return change.kind === 'rename' ? { ...change, path, newPath: await guard(change.newPath) } : { ...change, path };
      }),
    );
  }

  /** Returns a function that marks the receipt used; throws when the mode's commit rule is not met. */
  private checkCommitPolicy(workspace: Workspace, tx: Transaction, receipt: string | undefined, binding: { workspaceId: string; transactionId: string; revision: number; contentHash: string }): () => void {
    switch (this.deps.policy.commitRequires) {
      case 'receipt': {
        if (!receipt) {
          throw new JunctionError('ReviewRequired', `Revision ${tx.revision} needs an operator approval; call transaction-review and pass its receipt.`, { next: next('requestReview', 'transaction-review') });
        }
        const approvalId = this.deps.desk.checkReceipt(receipt, binding);
        return () => this.deps.desk.markUsed(approvalId);
      }
      case 'preview': {
        const seen = this.previewed.get(workspace.workspaceId);
        if (seen?.transactionId !== tx.transactionId || seen.revision !== tx.revision) {
          throw new JunctionError('ReviewRequired', `Preview revision ${tx.revision} with transaction-preview before committing it.`, { next: next('requestReview', 'transaction-preview') });
        }
        return () => undefined;
      }
      case 'nothing':
        return () => undefined;
    }
  }

  private async assertDiskUnchanged(workspace: Workspace, changes: readonly FileChange[]): Promise<void> {
    const conflicts: string[] = [];
    for (const change of changes) {
      await guardWorkspacePath(workspace.realRoot, change.path);
      const onDisk = await readInside(workspace.realRoot, change.path);
      const actual = onDisk === undefined ? null : sha256(onDisk);
      if (actual !== change.expectedBeforeSha256) conflicts.push(change.path);
    }
    if (conflicts.length > 0) {
      throw new JunctionError('ConflictOnDisk', `Changed on disk since the snapshot: ${conflicts.join(', ')}. Nothing was written.`, {
        next: next('refreshSnapshot', 'workspace-reload'),
        details: { paths: conflicts },
      });
    }
  }

  private async journalCommit(request: Parameters<HostJournal['commit']>[0]): ReturnType<HostJournal['commit']> {
    try {
      return await this.deps.journal.commit(request);
    } catch (error) {
      if (isJunctionError(error) && error.code === 'ConflictOnDisk' && !error.next) {
        throw new JunctionError('ConflictOnDisk', error.message, { next: next('refreshSnapshot', 'workspace-reload'), ...(error.details ? { details: error.details } : {}), cause: error });
      }
      throw error;
    }
  }

  private errors(workspace: Workspace, snapshot: Snapshot, query: { paths?: string[]; syntacticOnly?: boolean } = {}): DiagnosticView[] {
    return collectDiagnostics(workspace.languageService(snapshot), snapshot, workspace.realRoot, { errorsOnly: true, ...query });
  }

  /**
   * What the operator must know before approving: the diagnostics the whole transaction adds in the files
   * it changes and in the files that import them (where a changed signature breaks its callers).
   */
  private compileCheck(workspace: Workspace, tx: Transaction): CompileCheckView {
    const base = tx.base;
    const head = tx.head();
    const changed = [...new Set([...base.paths(), ...head.paths()])].filter((p) => base.get(p)?.sha256 !== head.get(p)?.sha256);
    const checked = new Set(changed);
    // The service is retargeted per snapshot, so each snapshot's importers are read before moving on.
    for (const snapshot of [base, head]) {
      const service = workspace.languageService(snapshot);
      for (const path of changed) {
        if (!snapshot.has(path)) continue;
        for (const reference of service.getFileReferences(join(workspace.realRoot, path))) {
          const importer = relative(workspace.realRoot, reference.fileName).split(sep).join('/');
          if (snapshot.has(importer)) checked.add(importer);
        }
      }
    }
    const paths = [...checked].sort();
    const delta = diagnosticsDelta(collectDiagnostics(workspace.languageService(base), base, workspace.realRoot, { paths }), collectDiagnostics(workspace.languageService(head), head, workspace.realRoot, { paths }));
    return {
      added: delta.added.slice(0, MAX_REPORTED_DIAGNOSTICS),
      addedCount: delta.added.length,
      removedCount: delta.removed.length,
      errorsAdded: delta.added.filter((d) => d.category === 'error').length,
      checkedFiles: paths.length,
    };
  }

  /** Whole-program check: a change may break files it never touched. */
  private validateCandidate(workspace: Workspace, head: Snapshot, candidate: Snapshot): DiagnosticsDelta {
    const delta = diagnosticsDelta(this.errors(workspace, head), this.errors(workspace, candidate));
    if (delta.added.length > 0) {
      throw new JunctionError('ValidationFailed', `The candidate adds ${delta.added.length} compiler error(s); nothing was staged.`, {
        next: next('fixArguments', 'diagnostics'),
        details: { diagnostics: delta.added.slice(0, MAX_REPORTED_DIAGNOSTICS), addedCount: delta.added.length },
      });
    }
    return delta;
  }

  /**
   * Outside compiler-validation mode staging reports only parse errors of the touched documents:
   * type-checking them costs ~100x a plain write (measured by bench/host.bench.ts), and the
   * diagnostics tool gives the full picture on demand.
   */
  private touchedDiagnostics(workspace: Workspace, head: Snapshot, candidate: Snapshot): DiagnosticsDelta {
    const paths = [...new Set([...head.paths(), ...candidate.paths()])].filter((p) => head.get(p)?.sha256 !== candidate.get(p)?.sha256);
    return diagnosticsDelta(this.errors(workspace, head, { paths, syntacticOnly: true }), this.errors(workspace, candidate, { paths, syntacticOnly: true }));
  }
}
