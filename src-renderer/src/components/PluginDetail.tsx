/** One plugin connection in depth: its tools (with call totals), prompts, resources and connection timeline. */
import type { ToolCatalogueEntry } from '../store/types.js';
import { useUi } from '../store/ui.js';
import { formatLatency, formatTime } from '../lib/format.js';
import { useCommandResult } from '../lib/use-command-result.js';
import { useNow } from '../lib/use-now.js';
import { JsonTree } from './JsonTree.js';

/** Per-tool totals refresh this often while the detail is open. */
const REFRESH_MS = 2000;

function annotationPills(tool: ToolCatalogueEntry) {
  const a = tool.annotations ?? {};
  const pills: Array<[string, string]> = [];
  if (a.readOnlyHint === true) pills.push(['read-only', 'ok']);
  if (a.destructiveHint === true) pills.push(['destructive', 'bad']);
  if (a.idempotentHint === true) pills.push(['idempotent', '']);
  if (a.openWorldHint === true) pills.push(['open world', 'warn']);
  return pills.map(([label, tone]) => (
    <span key={label} className={`pill ${tone}`}>{label}</span>
  ));
}

function ToolRow({ tool }: { tool: ToolCatalogueEntry }) {
  const openTool = useUi((s) => s.openTool);
  return (
    <tr data-testid="plugin-tool">
      <td>
        <details>
          <summary>
            <code>{tool.name}</code>
          </summary>
          <JsonTree value={tool.inputSchema} label={`Input schema of ${tool.name}`} openDepth={3} />
        </details>
      </td>
      <td className="desc">{tool.description ?? <span className="muted">no description</span>}</td>
      <td>{annotationPills(tool)}</td>
      <td className="c-num">{tool.stats.calls}</td>
      <td className={`c-num${tool.stats.errors > 0 ? ' bad-text' : ''}`}>{tool.stats.errors}</td>
      <td className="c-num">{formatLatency(tool.stats.p50Ms)}</td>
      <td>
        <button type="button" className="secondary small" onClick={() => openTool(tool.name)} aria-label={`Run ${tool.name}`}>
          Run…
        </button>
      </td>
    </tr>
  );
}

export function PluginDetail({ connectionId, version }: { connectionId: string; version: unknown }) {
  const tick = useNow(REFRESH_MS);
  const { value: detail, error } = useCommandResult('pluginDetail', { connectionId }, [connectionId, version, tick]);
  if (error) return <p className="callout bad">{error}</p>;
  if (!detail) return <p className="muted">Loading…</p>;
  return (
    <div className="plugin-detail" data-testid="plugin-detail">
      <h4>Tools ({detail.tools.length})</h4>
      {detail.tools.length === 0 ? (
        <p className="empty">This plugin publishes no tools.</p>
      ) : (
        <table className="data dense">
          <thead>
            <tr>
              <th scope="col">Tool</th>
              <th scope="col">Description</th>
              <th scope="col">Annotations</th>
              <th scope="col" className="c-num">Calls</th>
              <th scope="col" className="c-num">Errors</th>
              <th scope="col" className="c-num">p50</th>
              <th scope="col"><span className="visually-hidden">Actions</span></th>
            </tr>
          </thead>
          <tbody>
            {detail.tools.map((t) => (
              <ToolRow key={t.name} tool={t} />
            ))}
          </tbody>
        </table>
      )}
      <div className="detail-columns">
        <div>
          <h4>Prompts ({detail.prompts.length})</h4>
          {detail.prompts.length === 0 ? (
            <p className="empty">None.</p>
          ) : (
            <ul className="plain">
              {detail.prompts.map((p) => (
                <li key={p.name}>
                  <code>{p.name}</code> {p.description && <span className="muted">{p.description}</span>}
                  {p.arguments && p.arguments.length > 0 && <span className="muted"> ({p.arguments.map((a) => `${a.name}${a.required ? '*' : ''}`).join(', ')})</span>}
                </li>
              ))}
            </ul>
          )}
          <h4>Resources ({detail.resources.length})</h4>
          {detail.resources.length === 0 ? (
            <p className="empty">None.</p>
          ) : (
            <ul className="plain">
              {detail.resources.map((r) => (
                <li key={r.uri}>
                  <code>{r.uri}</code> {r.name} {r.mimeType && <span className="muted">{r.mimeType}</span>} {r.description && <span className="muted">{r.description}</span>}
                </li>
              ))}
            </ul>
          )}
        </div>
        <div>
          <h4>Connection timeline</h4>
          <ol className="timeline" data-testid="plugin-timeline">
            {detail.timeline.map((e, i) => (
              <li key={i} className={`tl-${e.kind}`}>
                <span className="tl-time">{formatTime(e.at)}</span> <span className="pill">{e.kind}</span> {e.detail}
              </li>
            ))}
            {detail.timeline.length === 0 && <li className="muted">Connected before this console started listening.</li>}
          </ol>
        </div>
      </div>
    </div>
  );
}
