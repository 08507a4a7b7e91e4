import { useState } from 'react';
import type { ApprovalView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { formatTime } from '../lib/format.js';
import { FileDiffs } from './DiffView.js';

/** The workspace's name (its id when the workspace is unknown), with the id kept as a tooltip. */
function WorkspaceName({ workspaceId }: { workspaceId: string }) {
  const workspace = useConsole((s) => s.data.workspaces.find((w) => w.workspaceId === workspaceId));
  return <strong title={`${workspace?.root ?? ''} (${workspaceId})`}>{workspace?.name ?? workspaceId}</strong>;
}

function PendingApproval({ approval }: { approval: ApprovalView }) {
  const run = useConsole((s) => s.run);
  const [reason, setReason] = useState('');
  const [busy, setBusy] = useState(false);
  const decide = async (action: () => Promise<unknown>): Promise<void> => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };
  return (
    <article className="approval pending" aria-label={`Approval ${approval.approvalId}`} data-testid="approval-pending">
      <h3>
        Commit of revision {approval.revision} in workspace <WorkspaceName workspaceId={approval.workspaceId} />
      </h3>
      <p className="muted">
        Requested {formatTime(approval.requestedAt)} · transaction <code>{approval.transactionId}</code> · {approval.files.length} file(s). This is exactly what will be committed:
      </p>
      <FileDiffs files={approval.files} label={`approval ${approval.approvalId}`} />
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

export function ApprovalsView() {
  const approvals = useConsole((s) => s.data.approvals);
  const pending = approvals.filter((a) => a.state === 'pending');
  const decided = approvals.filter((a) => a.state !== 'pending');
  return (
    <section aria-labelledby="approvals-title" className="view">
      <h2 id="approvals-title">Approvals</h2>
      {pending.length === 0 && <p className="empty">Nothing is waiting for your approval.</p>}
      {pending.map((a) => (
        <PendingApproval key={a.approvalId} approval={a} />
      ))}
      {decided.length > 0 && (
        <>
          <h3>Decisions</h3>
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Approval</th>
                <th scope="col">Workspace</th>
                <th scope="col">Revision</th>
                <th scope="col">Decision</th>
                <th scope="col">When</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {decided.map((a) => (
                <tr key={a.approvalId} data-testid="approval-decided">
                  <td>
                    <code>{a.approvalId}</code>
                  </td>
                  <td><WorkspaceName workspaceId={a.workspaceId} /></td>
                  <td>{a.revision}</td>
                  <td>
                    <span className={`pill ${a.state === 'approved' ? 'ok' : 'bad'}`}>{a.state}</span>
                  </td>
                  <td>{a.decidedAt ? formatTime(a.decidedAt) : '—'}</td>
                  <td>{a.reason ?? ''}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
