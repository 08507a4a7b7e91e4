import { useConsole } from '../store/store.js';
import { ClientSnippets } from '../components/ClientSnippets.js';
import { CopyButton } from '../components/CopyButton.js';

export function BridgeView() {
  const bridge = useConsole((s) => s.data.bridge);
  const run = useConsole((s) => s.run);
  if (!bridge) return <section className="view"><h2>Bridge</h2><p className="empty">Waiting for state.</p></section>;
  return (
    <section aria-labelledby="bridge-title" className="view">
      <h2 id="bridge-title">Bridge</h2>
      <p>
        <span className={`pill ${bridge.running ? 'ok' : 'bad'}`}>{bridge.running ? 'running' : 'stopped'}</span> on {bridge.host}:{bridge.port}{' '}
        {bridge.running ? (
          <button type="button" onClick={() => void run('stopBridge', {}, 'Bridge stopped')}>
            Stop bridge
          </button>
        ) : (
          <button type="button" className="primary" onClick={() => void run('startBridge', {}, 'Bridge started')}>
            Start bridge
          </button>
        )}
      </p>
      <dl className="facts">
        <dt>Plugin hub</dt>
        <dd><code>{bridge.hubUrl}</code></dd>
        <dt>MCP endpoint</dt>
        <dd><code>{bridge.mcpUrl}</code></dd>
        <dt>HTTP tool API</dt>
        <dd><code>{bridge.apiUrl}</code></dd>
        <dt>Agent transports</dt>
        <dd>{bridge.transports.join(', ')}</dd>
      </dl>
      <h3>Projects</h3>
      <p>
        Routing: <span className="pill" data-testid="project-routing">{bridge.projectRouting === 'multi' ? 'multi-project' : 'single project'}</span>{' '}
        {bridge.projectRouting === 'multi' ? (
          <button type="button" onClick={() => void run('setProjectRouting', { mode: 'single' }, 'Single-project routing; plugins reconnect')}>
            Use single-project routing
          </button>
        ) : (
          <button type="button" onClick={() => void run('setProjectRouting', { mode: 'multi' }, 'Multi-project routing; plugins reconnect')}>
            Use multi-project routing
          </button>
        )}
      </p>
      {bridge.projectRouting === 'multi' ? (
        (bridge.projects ?? []).length === 0 ? (
          <p className="empty">No connected project sends a project path hash, so there is no pinned URL yet.</p>
        ) : (
          (bridge.projects ?? []).map((p) => (
            <figure key={p.key} className="snippet" data-testid="project-endpoint">
              <figcaption>
                {p.label} <span className="muted">(pin {p.pin})</span>
              </figcaption>
              <p>
                <code>{p.mcpUrl}</code> <CopyButton text={p.mcpUrl} label={`${p.label} MCP URL`} />
              </p>
              <pre tabIndex={0} aria-label={`${p.label} configuration`}>{p.snippet}</pre>
              <CopyButton text={p.snippet} label={`${p.label} configuration`} />
              {p.stdioSnippet ? (
                <>
                  <pre tabIndex={0} aria-label={`${p.label} stdio configuration`}>{p.stdioSnippet}</pre>
                  <CopyButton text={p.stdioSnippet} label={`${p.label} stdio configuration`} />
                </>
              ) : null}
              {p.snippets && p.snippets.length > 0 && (
                <details>
                  <summary>Every client's setup for this project</summary>
                  <ClientSnippets snippets={p.snippets} scope={p.label} />
                </details>
              )}
            </figure>
          ))
        )
      ) : (
        <p className="muted">One editor and one runtime plugin in all; switch to multi-project routing to connect editors of several projects side by side.</p>
      )}
      <h3>Client configuration</h3>
      <ClientSnippets snippets={bridge.snippets} />
    </section>
  );
}
