/**
 * The summary strip on every view: the server's last-minute numbers with sparklines, and what is
 * connected. Reads the metrics the server publishes once a second; nothing is recomputed here.
 */
import { useConsole } from '../store/store.js';
import { waitingForOperator } from '../store/reducer.js';
import { useUi } from '../store/ui.js';
import { formatLatency, formatPercent, formatRate } from '../lib/format.js';
import { Sparkline } from './Sparkline.js';

function Stat({ label, value, children, testId, tone, title }: { label: string; value: string; children?: React.ReactNode; testId: string; tone?: 'bad' | 'warn'; title?: string }) {
  return (
    <div className={`stat${tone ? ` stat-${tone}` : ''}`} data-testid={testId} title={title}>
      <span className="stat-label">{label}</span>
      <span className="stat-value">{value}</span>
      {children}
    </div>
  );
}

/** One number of a tile that shows two (p50 and p99, agents and the active ones). */
function Part({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <span className="stat-part" data-testid={testId}>
      <span className="stat-label">{label}</span>
      <span className="stat-value">{value}</span>
    </span>
  );
}

export function MetricsHeader() {
  const metrics = useConsole((s) => s.data.metrics);
  const plugins = useConsole((s) => s.data.plugins);
  const agents = useConsole((s) => s.data.agents.length);
  const waiting = useConsole((s) => waitingForOperator(s.data).total);
  const go = useUi((s) => s.go);
  const connected = plugins.filter((p) => p.state === 'connected').length;
  const awaited = plugins.length - connected;
  const series = metrics?.series;
  const errorRatios = series ? series.calls.map((n, i) => (n === 0 ? null : (series.errors[i] ?? 0) / Math.max(1, n - (series.refused[i] ?? 0)))) : [];
  return (
    <section className="metrics" aria-label="Last minute summary">
      <Stat label="calls/s (1 min)" value={metrics ? formatRate(metrics.callsPerSecond) : '—'} testId="metric-rate">
        {series && <Sparkline points={series.calls} label="Calls per second, last minute" />}
      </Stat>
      <Stat label="failed" value={metrics ? formatPercent(metrics.errorRatio) : '—'} testId="metric-errors" title="Calls that ran and failed, of the calls that ran in the last minute" {...(metrics && metrics.errorRatio > 0 ? { tone: 'bad' as const } : {})}>
        {series && <Sparkline points={errorRatios} label="Failed share per second, last minute" tone="bad" secondary />}
      </Stat>
      <Stat label="refused" value={metrics ? String(metrics.refused) : '—'} testId="metric-refused" title="Calls the policy, you or the approval timeout refused: they never ran" {...(metrics && metrics.refused > 0 ? { tone: 'warn' as const } : {})} />
      <div className="stat stat-pair" title="Execution time: waiting for you is not counted">
        <Part label="p50 run" value={formatLatency(metrics?.p50Ms)} testId="metric-p50" />
        <Part label="p99 run" value={formatLatency(metrics?.p99Ms)} testId="metric-p99" />
        {series && <Sparkline points={series.p99Ms} label="99th percentile execution time per second, last minute" secondary />}
      </div>
      <Stat label="running" value={metrics ? String(metrics.inFlight) : '—'} testId="metric-inflight" title="Calls running now (held calls wait, they do not run)" />
      <Stat label="plugins" value={awaited > 0 ? `${connected} (+${awaited} awaited)` : String(connected)} testId="metric-plugins" />
      <div className="stat stat-pair" title={metrics && metrics.activeAgents.length > 0 ? `Connected agents; active: finished a call in the last minute (${metrics.activeAgents.join(', ')})` : 'Connected agents; active: finished a call in the last minute'}>
        <Part label="agents" value={String(agents)} testId="metric-sessions" />
        <Part label="active (1 min)" value={metrics ? String(metrics.activeAgents.length) : '—'} testId="metric-agents" />
      </div>
      <button type="button" className={`stat stat-button${waiting > 0 ? ' stat-warn' : ''}`} data-testid="metric-approvals" onClick={() => go('approvals')} title="Held calls and commits waiting for your decision: open Approvals">
        <span className="stat-label">waiting for you</span>
        <span className="stat-value">{waiting}</span>
      </button>
    </section>
  );
}
