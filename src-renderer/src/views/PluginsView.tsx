import { useConsole } from '../store/store.js';
import { formatSpan } from '../lib/format.js';
import { useNow } from '../lib/use-now.js';

export function PluginsView() {
  const plugins = useConsole((s) => s.data.plugins);
  const now = useNow();
  return (
    <section aria-labelledby="plugins-title" className="view">
      <h2 id="plugins-title">Plugins</h2>
      {plugins.length === 0 ? (
        <p className="empty">No plugin is connected. Apps connect to the hub shown under Bridge.</p>
      ) : (
        <table className="data">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Role</th>
              <th scope="col">Version</th>
              <th scope="col">Protocol</th>
              <th scope="col">Environment</th>
              <th scope="col">State</th>
              <th scope="col">Connected for</th>
              <th scope="col">Reconnects</th>
              <th scope="col">Tools</th>
            </tr>
          </thead>
          <tbody>
            {plugins.map((p) => (
              <tr key={p.connectionId} data-testid="plugin-row">
                <td>{p.name}</td>
                <td>
                  <span className={`pill role-${p.role}`}>{p.role}</span>
                </td>
                <td>{p.pluginVersion ?? '—'}</td>
                <td>{p.mcpPluginVersion ?? '8.0-era'}</td>
                <td>{p.environment ?? '—'}</td>
                <td>
                  {p.state === 'awaited' && p.awaitedUntil !== undefined ? (
                    <span className="pill warn" role="timer" aria-live="off">
                      awaited, {formatSpan(p.awaitedUntil - now)} left
                    </span>
                  ) : (
                    <span className={`pill ${p.state === 'connected' ? 'ok' : 'warn'}`}>{p.state}</span>
                  )}
                  {p.warnings?.map((warning) => (
                    <span key={warning} className="pill warn" role="note" data-testid="plugin-warning">
                      {warning}
                    </span>
                  ))}
                </td>
                <td>{formatSpan(now - p.connectedAt)}</td>
                <td>{p.reconnects}</td>
                <td>{p.toolCount}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </section>
  );
}
