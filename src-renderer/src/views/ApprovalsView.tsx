import { useState } from 'react';
import type { ApprovalView, CallApprovalView, CompileCheckView, PolicyDecisionKind, WorkspaceView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { formatSpan, formatTime } from '../lib/format.js';
import { useNow } from '../lib/use-now.js';
import { Requester } from '../components/Requester.js';
import { FileDiffs } from './DiffView.js';
import { JsonTree } from './JsonTree.js';

function useDecide(): [boolean, (action: () => Promise<unknown>) => Promise<void>] {
  const [busy, setBusy] = useState(false);
  const decide = async (action: () => Promise<unknown>): Promise<void> => {
    setBusy(true);
    try {
      await action();
    } finally {
      setBusy(false);
    }
  };
  return [busy, decide];
}

function CompileCheck({ compile }: { compile: CompileCheckView | undefined }) {
  if (!compile) return null;
  const files = `${compile.checkedFiles} checked file(s): the changed files and their importers`;
  if (compile.addedCount === 0) {
    return (
      <p className="callout ok" data-testid="compile-check">
        Compiles: no new diagnostics in {files}
        {compile.removedCount > 0 ? `; fixes ${compile.removedCount}` : ''}.
      </p>
    );
  }
  return (
    <div className={`callout ${compile.errorsAdded > 0 ? 'bad' : 'warn'}`} data-testid="compile-check" role="alert">
      <strong>{compile.errorsAdded > 0 ? `Adds ${compile.errorsAdded} compiler error(s)` : `Adds ${compile.addedCount} diagnostic(s)`}</strong> in {files}:
      <ul>
        {compile.added.map((d, i) => (
          <li key={i}>
            <code>
              {d.path}:{d.line + 1}:{d.column + 1}
            </code>{' '}
            {d.category} {d.code}: {d.message}
          </li>
        ))}
      </ul>
      {compile.addedCount > compile.added.length && <p>…and {compile.addedCount - compile.added.length} more.</p>}
    </div>
  );
}

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
  const [busy, decide] = useDecide();
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

const DECISION_LABEL: Record<PolicyDecisionKind, string> = {
  'allow-once': 'allowed once',
  'allow-session': 'allowed for the session',
  always: 'always allowed',
  deny: 'denied',
};

function HeldCall({ approval, canWriteRules }: { approval: CallApprovalView; canWriteRules: boolean }) {
  const run = useConsole((s) => s.run);
  const now = useNow();
  const [reason, setReason] = useState('');
  const [busy, decide] = useDecide();
  const send = (decision: PolicyDecisionKind, done: string) =>
    decide(() => run('decideCall', { askId: approval.askId, digest: approval.digest, decision, ...(decision === 'deny' ? { reason: reason.trim() } : {}) }, done));
  const annotations = Object.entries(approval.annotations ?? {}).filter(([key]) => key.endsWith('Hint'));
  return (
    <article className="approval pending" aria-label={`Held call ${approval.tool}`} data-testid="call-approval-pending">
      <h3>
        Tool call <code>{approval.tool}</code> from {approval.agentName}
      </h3>
      <p className="muted">
        {approval.agent} via {approval.transport} → <code>{approval.target}</code> · requested {formatTime(approval.requestedAt)} · refused in{' '}
        {formatSpan(approval.expiresAt - now)} unless you decide
      </p>
      <p data-testid="call-approval-reason">
        <strong>Why it waits:</strong> {approval.reason}
      </p>
      {approval.description && <p className="muted">{approval.description}</p>}
      {annotations.length > 0 && (
        <p>
          {annotations.map(([key, value]) => (
            <span key={key} className={`pill ${key === 'destructiveHint' && value === true ? 'bad' : ''}`}>
              {key}: {String(value)}
            </span>
          ))}
        </p>
      )}
      <h4>
        Arguments <span className="muted">({approval.argumentBytes} bytes, shown in full)</span>
      </h4>
      <JsonTree value={approval.arguments} label={`Arguments of ${approval.tool}`} />
      <div className="decision">
        <button type="button" className="primary" disabled={busy} onClick={() => void send('allow-once', 'Allowed once')}>
          Allow once
        </button>
        <button type="button" disabled={busy} onClick={() => void send('allow-session', 'Allowed for this agent session')}>
          Allow for this session
        </button>
        <button
          type="button"
          disabled={busy || !canWriteRules}
          title={canWriteRules ? 'Writes an allow rule for this tool into the policy file' : 'No policy file is configured'}
          onClick={() => void send('always', 'Always allowed: rule written')}
        >
          Always allow
        </button>
        <label className="field">
          Reason for denial{' '}
          <input type="text" value={reason} onChange={(e) => setReason(e.target.value)} placeholder="the agent receives it" />
        </label>
        <button type="button" className="danger" disabled={busy || reason.trim().length === 0} onClick={() => void send('deny', 'Denied')}>
          Deny
        </button>
      </div>
    </article>
  );
}

function CallDecisions({ decided }: { decided: CallApprovalView[] }) {
  if (decided.length === 0) return null;
  return (
    <>
      <h3>Tool call decisions</h3>
      <table className="data">
        <thead>
          <tr>
            <th scope="col">Tool</th>
            <th scope="col">Agent</th>
            <th scope="col">Outcome</th>
            <th scope="col">When</th>
            <th scope="col">Reason</th>
          </tr>
        </thead>
        <tbody>
          {[...decided].reverse().map((a) => (
            <tr key={a.askId} data-testid="call-approval-decided">
              <td>
                <code>{a.tool}</code>
              </td>
              <td>{a.agentName}</td>
              <td>
                <span className={`pill ${a.state === 'allowed' ? 'ok' : 'bad'}`}>
                  {a.decision ? DECISION_LABEL[a.decision] : a.state === 'timedOut' ? 'timed out' : a.state}
                </span>
                {a.decidedBy === 'policy' && <span className="muted"> by a policy change</span>}
              </td>
              <td>{a.decidedAt ? formatTime(a.decidedAt) : '—'}</td>
              <td>{a.operatorReason ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </>
  );
}

export function ApprovalsView() {
  const approvals = useConsole((s) => s.data.approvals);
  const workspaces = useConsole((s) => s.data.workspaces);
  const callApprovals = useConsole((s) => s.data.callApprovals);
  const canWriteRules = useConsole((s) => Boolean(s.data.policy?.path));
  const pending = approvals.filter((a) => a.state === 'pending');
  const decided = approvals.filter((a) => a.state !== 'pending');
  const heldCalls = callApprovals.filter((a) => a.state === 'pending');
  return (
    <section aria-labelledby="approvals-title" className="view">
      <h2 id="approvals-title">Approvals</h2>
      {pending.length === 0 && heldCalls.length === 0 && <p className="empty">Nothing is waiting for your approval.</p>}
      {heldCalls.map((a) => (
        <HeldCall key={a.askId} approval={a} canWriteRules={canWriteRules} />
      ))}
      {pending.map((a) => (
        <PendingApproval key={a.approvalId} approval={a} />
      ))}
      <CallDecisions decided={callApprovals.filter((a) => a.state !== 'pending')} />
      {decided.length > 0 && (
        <>
          <h3>Commit decisions</h3>
          <table className="data">
            <thead>
              <tr>
                <th scope="col">Approval</th>
                <th scope="col">Workspace</th>
                <th scope="col">Agent</th>
                <th scope="col">Revision</th>
                <th scope="col">Decision</th>
                <th scope="col">When</th>
                <th scope="col">Reason</th>
              </tr>
            </thead>
            <tbody>
              {decided.map((a) => {
                const named = describeApproval(a, workspaces);
                return (
                <tr key={a.approvalId} data-testid="approval-decided">
                  <td>
                    <code>{a.approvalId}</code>
                  </td>
                  <td title={a.workspaceId}>{named.workspace}</td>
                  <td>
                    <Requester requestedBy={a.requestedBy} />
                  </td>
                  <td>
                    {a.revision}
                    {named.summary && <> · {named.summary}</>}
                  </td>
                  <td>
                    <span className={`pill ${a.state === 'approved' ? 'ok' : 'bad'}`}>{a.state}</span>
                  </td>
                  <td>{a.decidedAt ? formatTime(a.decidedAt) : '—'}</td>
                  <td>{a.reason ?? ''}</td>
                </tr>
              );
              })}
            </tbody>
          </table>
        </>
      )}
    </section>
  );
}
