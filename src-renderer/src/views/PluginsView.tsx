/**
 * Connected plugins by project: each slot (editor, runtime) says who holds it, or who held it last and
 * why it went; each connection expands (by its name or its arrow) to its tools, prompts, resources and
 * connection timeline.
 */
import type { PluginView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { projectGroups, type DepartedPlugin, type ProjectGroup } from '../store/reducer.js';
import { useUi } from '../store/ui.js';
import { DataTable, type Column } from '../components/DataTable.js';
import { PluginDetail } from '../components/PluginDetail.js';
import { formatSpan, formatTime } from '../lib/format.js';
import { useNow } from '../lib/use-now.js';

function departedText(gone: DepartedPlugin, plugins: readonly PluginView[]): string {
  const successor = gone.replacedBy ? plugins.find((p) => p.connectionId === gone.replacedBy) : undefined;
  const why = gone.replacedBy ? `replaced by ${successor ? `${successor.name} (connection ${successor.connectionId})` : `connection ${gone.replacedBy}`}` : (gone.reason ?? 'connection ended');
  return `${gone.plugin.name}, last seen ${formatTime(gone.at)}: ${why}`;
}

function Slot({ label, plugins, departed, all }: { label: string; plugins: PluginView[]; departed: DepartedPlugin[]; all: readonly PluginView[] }) {
  const [current] = plugins;
  const [last] = departed;
  return (
    <>
      <dt>{label}</dt>
      <dd data-testid={`slot-${label.split(' ')[0]?.toLowerCase()}`}>
        {current ? `${current.name} (${current.state})` : <span className="muted">empty</span>}
        {last && (
          <span className={current ? 'muted' : 'bad-text'} data-testid="slot-departed">
            {current ? ' · before: ' : ' · '}
            {departedText(last, all)}
          </span>
        )}
      </dd>
    </>
  );
}

function PluginName({ plugin, expanded }: { plugin: PluginView; expanded: boolean }) {
  const toggle = useUi((s) => s.togglePlugin);
  return (
    <button
      type="button"
      className="link plugin-name"
      aria-expanded={expanded}
      aria-controls={`plugin-${plugin.connectionId}`}
      aria-label={`${plugin.name}, ${expanded ? 'hide' : 'show'} its tools`}
      onClick={() => toggle(plugin.connectionId)}
    >
      <span aria-hidden="true">{expanded ? '▾' : '▸'} </span>
      {plugin.name}
    </button>
  );
}

function StateCell({ plugin, now }: { plugin: PluginView; now: number }) {
  return (
    <>
      {plugin.state === 'awaited' && plugin.awaitedUntil !== undefined ? (
        <span className="pill warn" role="timer" aria-live="off">
          awaited, {formatSpan(plugin.awaitedUntil - now)} left
        </span>
      ) : (
        <span className={`pill ${plugin.state === 'connected' ? 'ok' : 'warn'}`}>{plugin.state}</span>
      )}
      {plugin.lostReason && <span className="muted small"> {plugin.lostReason}</span>}
      {plugin.warnings?.map((warning) => (
        <span key={warning} className="pill warn" role="note" data-testid="plugin-warning">
          {warning}
        </span>
      ))}
    </>
  );
}

/** Connected: for how long. Lost: since when, so "connected for" never counts on for a dead connection. */
function SinceCell({ plugin, now }: { plugin: PluginView; now: number }) {
  if (plugin.state !== 'awaited') return <>{formatSpan(now - plugin.connectedAt)}</>;
  if (plugin.disconnectedAt === undefined) return <span className="muted">lost</span>;
  return (
    <span className="bad-text" title={`connected ${formatTime(plugin.connectedAt)}, lost ${formatTime(plugin.disconnectedAt)}`}>
      lost {formatSpan(now - plugin.disconnectedAt)} ago
    </span>
  );
}

function columns(expanded: ReadonlySet<string>, now: number): ReadonlyArray<Column<PluginView>> {
  return [
    { header: 'Name', cell: (p) => <PluginName plugin={p} expanded={expanded.has(p.connectionId)} /> },
    { header: 'Role', cell: (p) => <span className={`pill role-${p.role}`}>{p.role}</span> },
    {
      header: 'Version',
      cell: (p) => (
        <>
          {p.pluginVersion ?? '—'} <span className="muted small">protocol {p.mcpPluginVersion ?? '8.0-era'}</span>
        </>
      ),
    },
    {
      header: 'Environment',
      cell: (p) => (
        <>
          {p.environment ?? '—'}
          {p.project?.instanceId && (
            <>
              {' '}
              <span className="muted small">instance <code>{p.project.instanceId}</code></span>
            </>
          )}
        </>
      ),
    },
    { header: 'State', cell: (p) => <StateCell plugin={p} now={now} /> },
    { header: 'Connected for', cell: (p) => <SinceCell plugin={p} now={now} /> },
    { header: 'Reconnects', className: 'c-num', cell: (p) => p.reconnects },
    { header: 'Tools / prompts / resources', cell: (p) => `${p.toolCount} / ${p.promptCount} / ${p.resourceCount}` },
  ];
}

function ProjectSection({ group, now, all }: { group: ProjectGroup; now: number; all: readonly PluginView[] }) {
  const plugins = [...group.editors, ...group.runtimes];
  const titleId = `project-${group.key.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  const open = useUi((s) => s.expandedPlugins);
  const departedOf = (role: PluginView['role']) => group.departed.filter((d) => d.plugin.role === role);
  return (
    <section aria-labelledby={titleId} className="project" data-testid="project-group">
      <h3 id={titleId}>{group.label}</h3>
      <dl className="facts">
        <dt>Engine</dt>
        <dd>{group.engine ?? '—'}</dd>
        <dt>Project</dt>
        <dd>{group.projectName ?? '—'}</dd>
        <dt>Machine</dt>
        <dd>{group.machineName ?? '—'}</dd>
        <dt>Pin</dt>
        <dd>{group.pin ? <code>{group.pin}</code> : '—'}</dd>
        <Slot label="Editor slot" plugins={group.editors} departed={departedOf('editor')} all={all} />
        <Slot label="Runtime slot" plugins={group.runtimes} departed={departedOf('runtime')} all={all} />
        <dt>Connected agents</dt>
        <dd data-testid="project-agents">
          {group.agents.length === 0 ? <span className="muted">none</span> : group.agents.map((a) => `${a.clientName ?? 'unnamed client'}${a.clientVersion ? ` ${a.clientVersion}` : ''} (session ${a.sessionId.slice(0, 8)})`).join(', ')}
        </dd>
      </dl>
      {plugins.length > 0 && (
        <DataTable
          rows={plugins}
          columns={columns(open, now)}
          rowKey={(p) => p.connectionId}
          className="plugins"
          rowTestId="plugin-row"
          rowClass={(p) => (open.has(p.connectionId) ? 'expanded' : undefined)}
          detail={(p) => (open.has(p.connectionId) ? { id: `plugin-${p.connectionId}`, content: <PluginDetail connectionId={p.connectionId} version={p} /> } : undefined)}
        />
      )}
    </section>
  );
}

export function PluginsView() {
  const data = useConsole((s) => s.data);
  const now = useNow();
  const groups = projectGroups(data);
  return (
    <section aria-labelledby="plugins-title" className="view">
      <h2 id="plugins-title">Plugins</h2>
      {groups.length === 0 ? <p className="empty">No plugin is connected. Apps connect to the hub shown under Bridge.</p> : groups.map((group) => <ProjectSection key={group.key} group={group} now={now} all={data.plugins} />)}
    </section>
  );
}
