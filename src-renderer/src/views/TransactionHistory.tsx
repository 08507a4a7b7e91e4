import { useEffect, useState } from 'react';
import type { TransactionHistoryPage, TransactionRecordView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { formatTime } from '../lib/format.js';
import { historyStatusLabel } from '../lib/history-status.js';
import { UPGRADE_POLL_MS } from '../lib/use-history.js';
import { Requester } from '../components/Requester.js';
import { FileDiffs } from './DiffView.js';

interface CommitFile {
  path: string;
  beforeSha256: string | null;
  afterSha256: string | null;
}

function commitFiles(commit: unknown): CommitFile[] {
  const files = (commit as { files?: unknown } | undefined)?.files;
  return Array.isArray(files) ? (files as CommitFile[]) : [];
}

const short = (hash: string | null) => (hash ? hash.slice(0, 12) : '—');

function Ended({ record }: { record: TransactionRecordView }) {
  const [open, setOpen] = useState(false);
  const files = commitFiles(record.commit);
  return (
    <li className="ended-transaction">
      <button type="button" aria-expanded={open} onClick={() => setOpen(!open)}>
        {record.workspaceName ?? 'workspace'} · <span className="pill">{record.state === 'committed' ? 'committed' : 'rolled back'}</span> · {formatTime(record.endedAt)} ·{' '}
        {record.revisions.map((r) => `r${r.revision}: ${r.summary}`).join('; ') || 'nothing staged'}
      </button>
      {open && (
        <div className="revision-detail">
          <p className="muted">Transaction {record.transactionId}</p>
          {record.approvals.map((a, i) => (
            <p key={i}>
              Approval of r{a.revision} requested by <Requester requestedBy={a.requestedBy} />: <span className="pill">{a.state}</span>
              {a.decidedAt !== undefined && ` at ${formatTime(a.decidedAt)}`}
              {a.reason && ` (${a.reason})`}
            </p>
          ))}
          {record.receipt && (
            <p>
              Receipt <code title={record.receipt}>{record.receipt.slice(0, 24)}…</code>
            </p>
          )}
          {files.length > 0 && (
            <table className="table" aria-label="Committed files">
              <thead>
                <tr>
                  <th>File</th>
                  <th>SHA-256 before</th>
                  <th>SHA-256 after</th>
                </tr>
              </thead>
              <tbody>
                {files.map((f) => (
                  <tr key={f.path}>
                    <td>{f.path}</td>
                    <td><code title={f.beforeSha256 ?? ''}>{short(f.beforeSha256)}</code></td>
                    <td><code title={f.afterSha256 ?? ''}>{short(f.afterSha256)}</code></td>
                  </tr>
                ))}
              </tbody>
            </table>
          )}
          {record.revisions.map((r) => (
            <div key={r.revision}>
              <h4>
                Revision {r.revision}: {r.summary}
              </h4>
              <FileDiffs files={r.files} label={`revision ${r.revision} of ${record.transactionId}`} />
            </div>
          ))}
        </div>
      )}
    </li>
  );
}

/** Committed and rolled-back transactions from the audit trail, refreshed whenever a workspace changes. */
export function TransactionHistory() {
  const channel = useConsole((s) => s.channel);
  const workspaces = useConsole((s) => s.data.workspaces);
  const [page, setPage] = useState<TransactionHistoryPage>({ transactions: [], available: true });
  /** Bumped to ask again while the audit trail upgrades. */
  const [asked, setAsked] = useState(0);
  useEffect(() => {
    let live = true;
    void channel?.invoke('transactionHistory', { limit: 50 }).then((r) => {
      if (!live) return;
      setPage(r.ok ? r.value : { transactions: [], available: false, reason: `${r.error.code}: ${r.error.message}` });
    });
    return () => {
      live = false;
    };
  }, [channel, workspaces, asked]);
  // Each answer during an upgrade is a new object, so this asks again until one comes without it.
  useEffect(() => {
    if (!page.upgrade) return;
    const timer = setTimeout(() => setAsked((n) => n + 1), UPGRADE_POLL_MS);
    return () => clearTimeout(timer);
  }, [page]);
  const records = page.transactions;
  const unavailable = historyStatusLabel(page);
  return (
    <>
      <h3>Ended transactions</h3>
      {unavailable && (
        <p className="muted" title={page.reason} data-testid="transaction-history-status">
          {unavailable}
        </p>
      )}
      {records.length === 0 ? (
        !unavailable && <p className="empty">No committed or rolled-back transaction recorded yet.</p>
      ) : (
        <ul className="ended-transactions" aria-label="Ended transactions">
          {records.map((r) => (
            <Ended key={r.transactionId} record={r} />
          ))}
        </ul>
      )}
    </>
  );
}
