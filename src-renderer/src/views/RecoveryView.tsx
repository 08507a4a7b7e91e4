import { useConsole } from '../store/store.js';
import { formatTime } from '../lib/format.js';

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
      {recovery.entries.length === 0 ? (
        <p className="empty">No journal entries: nothing needed recovering.</p>
      ) : (
        <table className="data">
          <thead>
            <tr>
              <th scope="col">Manifest</th>
              <th scope="col">Transaction</th>
              <th scope="col">Workspace</th>
              <th scope="col">Format</th>
              <th scope="col">Outcome</th>
              <th scope="col">Files</th>
              <th scope="col">What recovery did</th>
              <th scope="col">When</th>
            </tr>
          </thead>
          <tbody>
            {recovery.entries.map((e) => (
              <tr key={e.manifestPath}>
                <td><code>{e.manifestPath}</code></td>
                <td>{e.transactionId ?? '—'}</td>
                <td>{e.workspaceRoot ?? '—'}</td>
                <td>{e.formatVersion ?? '?'}</td>
                <td><span className={`pill outcome-${e.outcome}`}>{e.outcome}</span></td>
                <td>{e.files}</td>
                <td>{e.detail}</td>
                <td>{formatTime(e.at)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
