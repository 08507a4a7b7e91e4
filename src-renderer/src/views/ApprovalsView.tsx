import { useState } from 'react';
import type { ApprovalView, WorkspaceView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { formatTime } from '../lib/format.js';
import { CompileCheck } from '../components/CompileCheck.js';
import { DataTable, type Column } from '../components/DataTable.js';
import { DecisionLog } from '../components/DecisionLog.js';
import { HeldCallCard, useBusy } from '../components/HeldCall.js';
import { PolicyUndo } from '../components/PolicyUndo.js';
import { Requester } from '../components/Requester.js';
import { FileDiffs } from './DiffView.js';

/** Names an approval for a person: the workspace's name and the revision's summary, not their ids. */
function describeApproval(approval: ApprovalView, workspaces: readonly WorkspaceView[]): { workspace: string; summary: string | undefined } {
  const workspace = workspaces.find((w) => w.workspaceId === approval.workspaceId);
  const revision = workspace?.transaction?.transactionId === approval.transactionId ? workspace.transaction.revisions.find((r) => r.revision === approval.revision) : undefined;
  return { workspace: workspace?.name ?? approval.workspaceId, summary: revision?.summary };
}

function PendingApproval({ approval }: { approval: ApprovalView }) {
  const run = useConsole((s) => s.run);
  const workspaces = useConsole((s) => s.data.workspaces);
  const named = describeApproval(approval, workspaces);
  const [reason, setReason] = useState('');
  const [busy, decide] = useBusy();
  return (
    <article className="approval pending" aria-label={`Approval ${approval.approvalId}`} data-testid="approval-pending">
      <h3>
        Commit of revision {approval.revision}
        {named.summary && <> ({named.summary})</>} in workspace <strong title={approval.workspaceId}>{named.workspace}</strong>
      </h3>
      <p className="muted">
        Requested by <Requester requestedBy={approval.requestedBy} /> {approval.requestedBy && <>({approval.requestedBy.agent} via {approval.requestedBy.transport}) </>}at{' '}
        {formatTime(approval.requestedAt)} · transaction <code>{approval.transactionId}</code> · {approval.files.length} file(s). This is exactly what will be committed:
      </p>
      <CompileCheck compile={approval.compile} />
      <FileDiffs files={approval.files} label={`approval ${approval.approvalId}`} marks={approval.compile?.added ?? []} />
      <div className="decision">
        <button type="button" className="primary" disabled={busy} onClick={() => void decide(() => run('approve', { approvalId: approval.approvalId }, 'Approved'))}>
          Approve
        </button>
        <label className="field">
          Reason for denial{' '}
          <input type="text" value={reason} onChange={(e) => setReason(e.target.value)} placeholder="what must change" />
        </label>
        <button
          type="button"
          className="danger"
          disabled={busy || reason.trim().length === 0}
          onClick={() => void decide(() => run('deny', { approvalId: approval.approvalId, reason: reason.trim() }, 'Denied'))}
        >
          Deny
        </button>
      </div>
    </article>
  );
}

function commitDecisionColumns(workspaces: readonly WorkspaceView[]): ReadonlyArray<Column<ApprovalView>> {
  return [
    { header: 'Approval', cell: (a) => <code>{a.approvalId}</code> },
    { header: 'Workspace', cell: (a) => <span title={a.workspaceId}>{describeApproval(a, workspaces).workspace}</span> },
    { header: 'Agent', cell: (a) => <Requester requestedBy={a.requestedBy} /> },
    {
      header: 'Revision',
      cell: (a) => {
        const summary = describeApproval(a, workspaces).summary;
        return (
          <>
            {a.revision}
            {summary && <> · {summary}</>}
          </>
        );
      },
    },
    { header: 'Decision', cell: (a) => <span className={`pill ${a.state === 'approved' ? 'ok' : 'bad'}`}>{a.state}</span> },
    { header: 'When', cell: (a) => (a.decidedAt ? formatTime(a.decidedAt) : '—') },
    { header: 'Reason', cell: (a) => a.reason ?? '' },
  ];
}

export function ApprovalsView() {
  const approvals = useConsole((s) => s.data.approvals);
  const workspaces = useConsole((s) => s.data.workspaces);
  const callApprovals = useConsole((s) => s.data.callApprovals);
  const pending = approvals.filter((a) => a.state === 'pending');
  const decided = approvals.filter((a) => a.state !== 'pending');
  const heldCalls = callApprovals.filter((a) => a.state === 'pending');
  const anyDecidedCall = callApprovals.some((a) => a.state !== 'pending');
  return (
    <section aria-labelledby="approvals-title" className="view">
      <h2 id="approvals-title">Approvals</h2>
      <PolicyUndo />
      {pending.length === 0 && heldCalls.length === 0 && <p className="empty">Nothing is waiting for your approval.</p>}
      {heldCalls.map((a) => (
        <HeldCallCard key={a.askId} approval={a} />
      ))}
      {pending.map((a) => (
        <PendingApproval key={a.approvalId} approval={a} />
      ))}
      {anyDecidedCall && (
        <>
          <h3>Tool call decisions</h3>
          <DecisionLog />
        </>
      )}
      {decided.length > 0 && (
        <>
          <h3>Commit decisions</h3>
          <DataTable rows={decided} columns={commitDecisionColumns(workspaces)} rowKey={(a) => a.approvalId} rowTestId="approval-decided" />
        </>
      )}
    </section>
  );
}
