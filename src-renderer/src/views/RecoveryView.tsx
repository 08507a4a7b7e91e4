import type { RecoveryEntryView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { formatTime } from '../lib/format.js';
import { DataTable, type Column } from '../components/DataTable.js';

const COLUMNS: ReadonlyArray<Column<RecoveryEntryView>> = [
  { header: 'Manifest', cell: (e) => <code>{e.manifestPath}</code> },
  { header: 'Transaction', cell: (e) => e.transactionId ?? '—' },
  { header: 'Workspace', cell: (e) => e.workspaceRoot ?? '—' },
  { header: 'Format', cell: (e) => e.formatVersion ?? '?' },
  { header: 'Outcome', cell: (e) => <span className={`pill outcome-${e.outcome}`}>{e.outcome}</span> },
  { header: 'Files', cell: (e) => e.files },
  { header: 'What recovery did', cell: (e) => e.detail },
  { header: 'When', cell: (e) => formatTime(e.at) },
];

export function RecoveryView() {
  const recovery = useConsole((s) => s.data.recovery);
  const run = useConsole((s) => s.run);
  if (!recovery) return <section className="view"><h2>Recovery</h2><p className="empty">Waiting for state.</p></section>;
  const unsupported = recovery.entries.filter((e) => e.outcome === 'unsupported');
  return (
    <section aria-labelledby="recovery-title" className="view">
      <h2 id="recovery-title">Recovery</h2>
      <p>
        State directory <code>{recovery.stateDir}</code>{' '}
        <span className={`pill ${recovery.healthy ? 'ok' : 'bad'}`}>{recovery.healthy ? 'healthy' : 'needs attention'}</span>
      </p>
      {recovery.owner && (
        <p className="muted">
          Owned by instance <code>{recovery.owner.instanceId}</code> (pid {recovery.owner.pid}) since {formatTime(recovery.owner.startedAt)}
        </p>
      )}
      {unsupported.length > 0 && (
        <div className="callout bad" role="alert">
          <h3>RecoveryVersionUnsupported</h3>
          <p>
            {unsupported.length} manifest(s) use a journal format this version cannot process. The evidence is kept untouched.
          </p>
          <ul>
            {unsupported.map((e) => (
              <li key={e.manifestPath}>
                <code>{e.manifestPath}</code> (format {e.formatVersion ?? 'unknown'}): {e.detail}
              </li>
            ))}
          </ul>
          {recovery.guidance && <p className="guidance">{recovery.guidance}</p>}
        </div>
      )}
      {unsupported.length === 0 && recovery.guidance && <p className="guidance">{recovery.guidance}</p>}
      <button type="button" onClick={() => void run('recover', {}, 'Recovery ran')}>
        Run recovery again
      </button>
      <DataTable rows={recovery.entries} columns={COLUMNS} rowKey={(e) => e.manifestPath} empty="No journal entries: nothing needed recovering." />
    </section>
  );
}
