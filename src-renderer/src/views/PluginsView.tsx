import { Fragment } from 'react';
import type { PluginView } from '../../../src-main/contracts/index.js';
import { useConsole } from '../store/store.js';
import { projectGroups, type ProjectGroup } from '../store/reducer.js';
import { useUi } from '../store/ui.js';
import { PluginDetail } from '../components/PluginDetail.js';
import { formatSpan } from '../lib/format.js';
import { useNow } from '../lib/use-now.js';

const COLUMNS = 11;

function Slot({ label, plugins }: { label: string; plugins: PluginView[] }) {
  const [current] = plugins;
  return (
    <>
      <dt>{label}</dt>
      <dd>{current ? `${current.name} (${current.state})` : <span className="muted">empty</span>}</dd>
    </>
  );
}

function ProjectSection({ group, now }: { group: ProjectGroup; now: number }) {
  const plugins = [...group.editors, ...group.runtimes];
  const titleId = `project-${group.key.replace(/[^a-zA-Z0-9_-]/g, '_')}`;
  const open = useUi((s) => s.expandedPlugins);
  const toggle = useUi((s) => s.togglePlugin);
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
        <Slot label="Editor slot" plugins={group.editors} />
        <Slot label="Runtime slot" plugins={group.runtimes} />
        <dt>Connected agents</dt>
        <dd data-testid="project-agents">
          {group.agents.length === 0 ? <span className="muted">none</span> : group.agents.map((a) => `${a.clientName ?? a.sessionId}${a.clientVersion ? ` ${a.clientVersion}` : ''}`).join(', ')}
        </dd>
      </dl>
      <table className="data">
        <thead>
          <tr>
            <th scope="col"><span className="visually-hidden">Expand</span></th>
            <th scope="col">Name</th>
            <th scope="col">Role</th>
            <th scope="col">Instance</th>
            <th scope="col">Version</th>
            <th scope="col">Protocol</th>
            <th scope="col">Environment</th>
            <th scope="col">State</th>
            <th scope="col">Connected for</th>
            <th scope="col">Reconnects</th>
            <th scope="col">Tools / prompts / resources</th>
          </tr>
        </thead>
        <tbody>
          {plugins.map((p) => {
            const expanded = open.has(p.connectionId);
            return (
            <Fragment key={p.connectionId}>
            <tr data-testid="plugin-row" className={expanded ? 'expanded' : undefined}>
              <td>
                <button type="button" className="secondary small" aria-expanded={expanded} aria-controls={`plugin-${p.connectionId}`} aria-label={`${expanded ? 'Hide' : 'Show'} tools of ${p.name}`} onClick={() => toggle(p.connectionId)}>
                  {expanded ? '▾' : '▸'}
                </button>
              </td>
              <td>{p.name}</td>
              <td>
                <span className={`pill role-${p.role}`}>{p.role}</span>
              </td>
              <td>{p.project?.instanceId ? <code>{p.project.instanceId}</code> : '—'}</td>
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
              <td>
                {p.toolCount} / {p.promptCount} / {p.resourceCount}
              </td>
            </tr>
            {expanded && (
              <tr id={`plugin-${p.connectionId}`} className="detail-row">
                <td colSpan={COLUMNS}>
                  <PluginDetail connectionId={p.connectionId} version={p} />
                </td>
              </tr>
            )}
            </Fragment>
            );
          })}
        </tbody>
      </table>
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
      {groups.length === 0 ? (
        <p className="empty">No plugin is connected. Apps connect to the hub shown under Bridge.</p>
      ) : (
        groups.map((group) => <ProjectSection key={group.key} group={group} now={now} />)
      )}
    </section>
  );
}
