/** Preconditions shared by host operations, each failing with its stable code and continuation. */
import { JunctionError, next } from '../../contracts/index.js';
import type { ModePolicy } from '../modes.js';
import type { Transaction } from '../transactions/index.js';
import type { SnapshotIdentity, Workspace } from '../workspace/index.js';

/** Checked before any position in the request is interpreted. */
export function assertSnapshot(workspace: Workspace, expected: SnapshotIdentity): void {
  const current = workspace.identity();
  const same =
    expected.workspaceId === current.workspaceId &&
    expected.workspaceEpoch === current.workspaceEpoch &&
    expected.snapshotId === current.snapshotId &&
    expected.transactionRevision === current.transactionRevision;
  if (!same) {
    throw new JunctionError('SnapshotMismatch', 'The expected snapshot is not the current one; read workspace-status and retry against its snapshot.', {
      next: next('refreshSnapshot', 'workspace-status'),
      details: { expected: { ...expected }, current: { ...current } },
    });
  }
}

export function assertMutable(policy: ModePolicy, workspace: Workspace): void {
  if (!policy.mutations) {
    throw new JunctionError('ModeForbidsMutation', `The host runs in ${policy.mode} mode; nothing can be changed.`, { next: next('inspectStatus', 'server-status') });
  }
  if (!workspace.trusted) {
    throw new JunctionError('WorkspaceNotTrusted', `Workspace '${workspace.name}' is not trusted; the operator must trust it before anything can change.`, {
      next: next('inspectStatus', 'workspace-status'),
      details: { workspaceId: workspace.workspaceId, root: workspace.root },
    });
  }
}

export function requireActive(transaction: Transaction | undefined, workspace: Workspace): Transaction {
  if (!transaction || transaction.state !== 'active') {
    throw new JunctionError('TransactionRequired', `Workspace '${workspace.name}' has no active transaction.`, {
      next: next('startTransaction', 'transaction-start'),
      details: { workspaceId: workspace.workspaceId },
    });
  }
  return transaction;
}
