/** One plugin connection in depth: its tools (with call totals), prompts, resources and connection timeline. */
import type { PluginView, ToolCatalogueEntry } from '../store/types.js';
import { useUi } from '../store/ui.js';
import { formatLatency, formatTime } from '../lib/format.js';
import { useCommandResult } from '../lib/use-command-result.js';
import { useNow } from '../lib/use-now.js';
import { AnnotationPills } from './AnnotationPills.js';
import { DataTable, type Column } from './DataTable.js';
import { JsonTree } from './JsonTree.js';

/** Per-tool totals refresh this often while the detail is open. */
const REFRESH_MS = 2000;

function RunButton({ tool }: { tool: ToolCatalogueEntry }) {
  const openTool = useUi((s) => s.openTool);
  return (
    <button type="button" className="secondary small" onClick={() => openTool(tool.name)} aria-label={`Run ${tool.name}`}>
      Run…
    </button>
  );
}

const TOOL_COLUMNS: ReadonlyArray<Column<ToolCatalogueEntry>> = [
  {
    header: 'Tool',
    cell: (tool) => (
      <details>
        <summary>
          <code>{tool.name}</code>
        </summary>
        <JsonTree value={tool.inputSchema} label={`Input schema of ${tool.name}`} openDepth={3} />
      </details>
    ),
  },
  { header: 'Description', className: 'desc', cell: (tool) => tool.description ?? <span className="muted">no description</span> },
  { header: 'Annotations', cell: (tool) => <AnnotationPills annotations={tool.annotations} /> },
  { header: 'Calls', className: 'c-num', cell: (tool) => tool.stats.calls },
  { header: 'Errors', className: 'c-num', cell: (tool) => <span className={tool.stats.errors > 0 ? 'bad-text' : undefined}>{tool.stats.errors}</span> },
  { header: 'p50', className: 'c-num', cell: (tool) => formatLatency(tool.stats.p50Ms) },
  { header: 'Actions', hidden: true, cell: (tool) => <RunButton tool={tool} /> },
];

export function PluginDetail({ connectionId, version }: { connectionId: string; version: PluginView }) {
  const tick = useNow(REFRESH_MS);
  const { value: detail, error } = useCommandResult('pluginDetail', { connectionId }, [connectionId, version, tick]);
  const lost = version.state === 'awaited';
  if (!detail) {
    if (lost) return <p className="callout warn">The connection is lost, so what it publishes cannot be read until it reconnects.</p>;
    return error ? <p className="callout bad">{error}</p> : <p className="muted">Loading…</p>;
  }
  return (
    <div className="plugin-detail" data-testid="plugin-detail">
      {error && <p className="callout warn">{lost ? 'The connection is lost: this is what it published last.' : error}</p>}
      <h4>Tools ({detail.tools.length})</h4>
      <DataTable rows={detail.tools} columns={TOOL_COLUMNS} rowKey={(t) => t.name} dense className="plugin-tools" rowTestId="plugin-tool" empty="This plugin publishes no tools." />
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
