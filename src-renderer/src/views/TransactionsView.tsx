/**
 * The open workspaces' transactions revision by revision, and the ended ones from the audit trail. A
 * revision that was reviewed shows what its commit approval said about compiling, in the same words and
 * with the errors marked on their diff lines; staging itself checks syntax only (the type check costs ~100
 * times a write), and the view says so rather than claiming no diagnostics changed.
 */
import { useState } from 'react';
import type { ApprovalView, DiagnosticView, RevisionView, TransactionView, WorkspaceView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { formatTime } from '../lib/format.js';
import { CompileCheck, DiagnosticList } from '../components/CompileCheck.js';
import { FileDiffs } from './DiffView.js';
import { TransactionHistory } from './TransactionHistory.js';

function Diagnostics({ title, items }: { title: string; items: DiagnosticView[] }) {
  if (items.length === 0) return null;
  return (
    <div className="diagnostics">
      <h4>{title}</h4>
      <DiagnosticList items={items} />
    </div>
  );
}

/** The latest commit approval asked for this revision, if it was reviewed. */
function reviewOf(approvals: readonly ApprovalView[], tx: TransactionView, revision: RevisionView): ApprovalView | undefined {
  return approvals.filter((a) => a.transactionId === tx.transactionId && a.revision === revision.revision).sort((a, b) => b.requestedAt - a.requestedAt)[0];
}

function RevisionDetail({ tx, revision }: { tx: TransactionView; revision: RevisionView }) {
  const approvals = useConsole((s) => s.data.approvals);
  const review = reviewOf(approvals, tx, revision);
  const marks = [...(review?.compile?.added ?? []), ...revision.diagnosticsAdded];
  return (
    <>
      <h3>
        Revision {revision.revision} · {formatTime(revision.stagedAt)}
      </h3>
      {review ? (
        <div data-testid="revision-review">
          <h4>
            At review ({formatTime(review.requestedAt)}, {review.state})
          </h4>
          <CompileCheck compile={review.compile} />
        </div>
      ) : (
        <p className="muted" data-testid="revision-unreviewed">
          Not reviewed yet. Staging checks syntax only; the type check of the changed files and their importers runs at review.
        </p>
      )}
      <Diagnostics title="Syntax errors this revision added" items={revision.diagnosticsAdded} />
      <Diagnostics title="Diagnostics this revision fixed" items={revision.diagnosticsRemoved} />
      <FileDiffs files={revision.files} label={`revision ${revision.revision}`} marks={marks} />
    </>
  );
}

function WorkspaceTransactions({ workspace }: { workspace: WorkspaceView }) {
  const run = useConsole((s) => s.run);
  const tx = workspace.transaction;
  const [selected, setSelected] = useState<number | undefined>(undefined);
  if (!tx) return <p className="empty">No transaction in this workspace.</p>;
  const revision = tx.revisions.find((r) => r.revision === selected) ?? tx.revisions[tx.revisions.length - 1];
  return (
    <div className="transaction">
      <p>
        Transaction <code>{tx.transactionId}</code> · <span className="pill">{tx.state}</span> · started {formatTime(tx.startedAt)}
      </p>
      <div className="split-pane">
        <ol className="revisions" aria-label="Revisions">
          {tx.revisions.map((r) => (
            <li key={r.revision}>
              <button type="button" aria-current={r.revision === revision?.revision} onClick={() => setSelected(r.revision)} title={r.summary}>
                <span className="rev-title">r{r.revision}: {r.summary}</span>
                <span className="rev-meta muted">
                  {formatTime(r.stagedAt)} · {r.files.length} file(s)
                  {r.diagnosticsAdded.length > 0 && <span className="bad-text"> · +{r.diagnosticsAdded.length} diag</span>}
                  {r.diagnosticsRemoved.length > 0 && <span> · −{r.diagnosticsRemoved.length} diag</span>}
                </span>
              </button>
              {tx.state === 'active' && r.revision !== tx.revisions[tx.revisions.length - 1]?.revision && (
                <button
                  type="button"
                  className="secondary"
                  aria-label={`Roll back to revision ${r.revision}`}
                  onClick={() => void run('rollback', { workspaceId: workspace.workspaceId, toRevision: r.revision }, `Rolled back to revision ${r.revision}`)}
                >
                  Roll back
                </button>
              )}
            </li>
          ))}
        </ol>
        <div className="revision-detail">
          {revision ? (
            <RevisionDetail tx={tx} revision={revision} />
          ) : (
            <p className="empty">Nothing staged yet.</p>
          )}
        </div>
      </div>
    </div>
  );
}

export function TransactionsView() {
  const workspaces = useConsole((s) => s.data.workspaces);
  const [chosen, setChosen] = useState<string | undefined>(undefined);
  const workspace = workspaces.find((w) => w.workspaceId === chosen) ?? workspaces[0];
  return (
    <section aria-labelledby="tx-title" className="view">
      <h2 id="tx-title">Transactions</h2>
      {workspaces.length === 0 ? (
        <p className="empty">No workspace is open.</p>
      ) : (
        <>
          <label className="field">
            Workspace{' '}
            <select value={workspace?.workspaceId} onChange={(e) => setChosen(e.target.value)}>
              {workspaces.map((w) => (
                <option key={w.workspaceId} value={w.workspaceId}>
                  {w.name} ({w.mode}{w.trusted ? '' : ', untrusted'})
                </option>
              ))}
            </select>
          </label>
          {workspace && <p className="muted">{workspace.root} · epoch {workspace.epoch} · {workspace.documentCount} documents</p>}
          {workspace && <WorkspaceTransactions key={workspace.workspaceId} workspace={workspace} />}
        </>
      )}
      <TransactionHistory />
    </section>
  );
}
