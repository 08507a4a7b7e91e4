import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { BridgeView, CallStatus, CallView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { useUi } from '../store/ui.js';
import { filterCalls, mergeHistory, rowWindow } from '../lib/calls.js';
import { curlCommand, jsonRpcRequest } from '../lib/call-export.js';
import { formatBytes, formatDuration, formatTime } from '../lib/format.js';
import { useCommandResult } from '../lib/use-command-result.js';
import { useNow } from '../lib/use-now.js';
import { useHistory } from '../lib/use-history.js';
import { historyStatusLabel } from '../lib/history-status.js';
import { CallResult } from '../components/CallResult.js';
import { CopyButton } from '../components/CopyButton.js';
import { JsonTree } from '../components/JsonTree.js';
import { ResizablePanel } from '../components/ResizablePanel.js';
import { ElicitationsPanel, NestedTrace } from './Elicitations.js';

/** Must match `.call-row { height }` in styles.css. */
export const ROW_HEIGHT = 28;
/** Must match the sum of the minimum column widths, gaps and padding of `.call-row` in styles.css. */
const TABLE_MIN_WIDTH = 864;
/** The detail panel docks to the right only when it gets at least this much beside a full-width table. */
const RIGHT_PANEL_MIN = 440;

function Progress({ call, withMessage }: { call: CallView; withMessage: boolean }) {
  if (!call.progress) return null;
  const { progress, total, message } = call.progress;
  return (
    <span className="progress" title={message}>
      <progress value={progress} max={total ?? undefined} aria-label={`Progress of ${call.tool}`} />
      {withMessage && message && <span className="muted"> {message}</span>}
    </span>
  );
}

/** The plugin instance that answered, else the source (`host`, `plugin:<id>`). */
export function servedByLabel(call: CallView): string {
  return call.servedBy ? `${call.servedBy.name || 'plugin'} · ${call.servedBy.role}` : call.target;
}

/** Memoised: under load most rows keep their call object, so only new and changed rows re-render. */
const Row = memo(function Row({ call, now, selected, onSelect }: { call: CallView; now: number; selected: boolean; onSelect: (callId: string) => void }) {
  const duration = call.status === 'running' ? now - call.startedAt : call.durationMs;
  const served = servedByLabel(call);
  return (
    <div
      role="row"
      className={`call-row status-${call.status}${selected ? ' selected' : ''}`}
      aria-selected={selected}
      data-call-id={call.callId}
      onClick={() => onSelect(call.callId)}
    >
      <span role="cell" className="c-time">{formatTime(call.startedAt)}</span>
      <span role="cell" className="c-agent" title={call.agent}>{call.agent}</span>
      <span role="cell" className="c-tool" title={call.tool}>{call.tool}</span>
      <span role="cell" className="c-target" title={call.servedBy ? `${served} (connection ${call.servedBy.connectionId})` : served}>{served}</span>
      <span role="cell" className="c-status">
        <span className={`pill status-${call.status}`}>{call.status === 'error' && call.errorCode ? call.errorCode : call.status}</span>
        {call.nested && call.nested.length > 0 && (
          <span className="muted" title="Requests to the agent (elicitation, sampling)" data-testid="nested-count">
            {' '}⤷{call.nested.length}
          </span>
        )}
        {call.status === 'running' && <Progress call={call} withMessage={false} />}
      </span>
      <span role="cell" className="c-num">{formatDuration(duration)}</span>
      <span role="cell" className="c-num">{formatBytes(call.requestBytes)}</span>
      <span role="cell" className="c-num">{formatBytes(call.responseBytes)}</span>
    </div>
  );
});

function needsToken(bridge: BridgeView | undefined): boolean {
  return bridge?.snippets.some((s) => s.text.includes('Authorization')) ?? false;
}

function Detail({ call, onClose }: { call: CallView; onClose: () => void }) {
  const run = useConsole((s) => s.run);
  const bridge = useConsole((s) => s.data.bridge);
  const openTool = useUi((s) => s.openTool);
  const { value: detail, error } = useCommandResult('callDetail', { callId: call.callId }, [call.callId, call.status]);
  const args = detail && typeof detail.arguments === 'object' && detail.arguments !== null && !Array.isArray(detail.arguments) ? (detail.arguments as Record<string, unknown>) : undefined;
  return (
    <div className="call-detail" data-testid="call-detail">
      <header className="detail-head">
        <h3>
          {call.tool} <span className={`pill status-${call.status}`}>{call.status === 'error' && call.errorCode ? call.errorCode : call.status}</span>
        </h3>
        <div className="detail-actions">
          {args && !detail?.truncated && (
            <>
              <CopyButton text={curlCommand(bridge?.apiUrl ?? '', call.tool, args, needsToken(bridge))} label="as curl">Copy as curl</CopyButton>
              <CopyButton text={jsonRpcRequest(call.tool, args)} label="as JSON-RPC">Copy as JSON-RPC</CopyButton>
              <button type="button" className="secondary" onClick={() => openTool(call.tool, args)}>Run again…</button>
            </>
          )}
          {call.status !== 'running' && (
            <button type="button" onClick={() => void run('replay', { callId: call.callId }, `Replayed ${call.tool}; the new call is at the top.`)}>
              Replay
            </button>
          )}
          <button type="button" onClick={onClose} aria-label="Close call details">
            Close
          </button>
        </div>
      </header>
      <dl className="facts compact">
        <dt>Call</dt>
        <dd>
          <code>{call.callId}</code>
          {call.replayOf && <> · replay of <code>{call.replayOf}</code></>}
        </dd>
        <dt>Agent</dt>
        <dd>{call.agent} <span className="muted">via {call.transport}</span></dd>
        <dt>Served by</dt>
        <dd data-testid="detail-served-by">
          {call.servedBy ? (
            <>
              {call.servedBy.name || 'plugin'} <span className="pill">{call.servedBy.role}</span> {call.servedBy.pluginVersion && <span className="muted">v{call.servedBy.pluginVersion}</span>}{' '}
              <span className="muted">connection <code>{call.servedBy.connectionId}</code></span>
            </>
          ) : (
            call.target
          )}
        </dd>
        <dt>Started</dt>
        <dd>{formatTime(call.startedAt)}</dd>
        <dt>Duration</dt>
        <dd>{formatDuration(call.durationMs)} · request {formatBytes(call.requestBytes)} · response {formatBytes(call.responseBytes)}</dd>
      </dl>
      {call.policy && (
        <p className="muted" data-testid="call-policy">
          Policy: {call.policy.decision} by {call.policy.decidedBy} — {call.policy.reason}
          {call.policy.operatorReason ? ` (operator: ${call.policy.operatorReason})` : ''}
        </p>
      )}
      <Progress call={call} withMessage />
      <NestedTrace nested={call.nested ?? []} />
      {error && <p className="callout bad">{error}</p>}
      {detail?.truncated && <p className="callout warn">Arguments or result exceeded the console's per-call limit and are shown truncated.</p>}
      {detail?.redacted && detail.redacted.length > 0 && <p className="callout">Redacted: {detail.redacted.join(', ')}</p>}
      {detail?.policy !== undefined && (
        <>
          <h4>Policy decision</h4>
          <JsonTree value={detail.policy} label="Policy decision" />
        </>
      )}
      <h4>Arguments</h4>
      {detail ? <JsonTree value={detail.arguments} label="Call arguments" /> : <p className="muted">Loading…</p>}
      {detail ? (detail.result === undefined ? <p className="muted">No result yet.</p> : <CallResult result={detail.result} label="Result" />) : null}
    </div>
  );
}

function EmptyCalls() {
  const bridge = useConsole((s) => s.data.bridge);
  const go = useUi((s) => s.go);
  const http = bridge?.snippets.find((s) => s.client.includes('HTTP') && s.format === 'json');
  return (
    <div className="empty-state" data-testid="calls-empty">
      <h3>No calls yet</h3>
      <p>Calls appear here the moment an agent uses a tool. Point an MCP client at Junction:</p>
      {bridge && (
        <p>
          Streamable HTTP endpoint <code>{bridge.mcpUrl}</code> <CopyButton text={bridge.mcpUrl} label="MCP endpoint URL" />
        </p>
      )}
      {http && <pre className="snippet-inline" tabIndex={0} aria-label="MCP client configuration">{http.text}</pre>}
      <p>
        For Claude Desktop (stdio) and other snippets see{' '}
        <button type="button" className="link" onClick={() => go('bridge')}>Bridge</button>, or try a tool yourself from{' '}
        <button type="button" className="link" onClick={() => go('run')}>Run a tool</button>.
      </p>
    </div>
  );
}

export function CallsView() {
  const calls = useConsole((s) => s.data.calls);
  const callIds = useConsole((s) => s.data.callIds);
  const selectedId = useUi((s) => s.selectedCallId);
  const setSelectedId = useUi((s) => s.selectCall);
  const [status, setStatus] = useState<CallStatus | 'all'>('all');
  const [text, setText] = useState('');
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const [layout, setLayout] = useState({ width: 1200, height: 700 });
  const scroller = useRef<HTMLDivElement>(null);
  const container = useRef<HTMLDivElement>(null);
  const now = useNow();
  const history = useHistory({ status, text });
  const live = useMemo(() => filterCalls(calls, callIds, { status, text }), [calls, callIds, status, text]);
  const rows = useMemo(() => mergeHistory(live, history.calls), [live, history.calls]);
  const win = rowWindow(scrollTop, viewport, ROW_HEIGHT, rows.length);
  const selected = selectedId ? (calls.get(selectedId) ?? history.calls.find((c) => c.callId === selectedId)) : undefined;
  const recordedOnly = rows.length - live.length;
  const dock = layout.width - TABLE_MIN_WIDTH >= RIGHT_PANEL_MIN ? 'right' : 'bottom';

  useLayoutEffect(() => {
    const el = scroller.current;
    const box = container.current;
    if (!el || !box) return;
    const observer = new ResizeObserver(() => {
      setViewport(el.clientHeight);
      setLayout({ width: box.clientWidth, height: box.clientHeight });
    });
    // No synchronous read here: it would force the page's first layout inside React's commit task. The
    // observer reports both sizes after the browser's own layout, before the first paint.
    observer.observe(el);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  // A call chosen elsewhere (the palette) scrolls into view.
  useEffect(() => {
    const el = scroller.current;
    if (!el || !selectedId) return;
    const index = rows.findIndex((r) => r.callId === selectedId);
    if (index < 0) return;
    const top = index * ROW_HEIGHT;
    if (top < el.scrollTop || top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = Math.max(0, top - el.clientHeight / 2);
    // Only a new selection scrolls; new rows arriving must not move the operator's view.
  }, [selectedId]);

  const moveSelection = (event: KeyboardEvent<HTMLDivElement>): void => {
    if (rows.length === 0) return;
    const index = rows.findIndex((r) => r.callId === selectedId);
    let target = index;
    if (event.key === 'ArrowDown') target = Math.min(rows.length - 1, index + 1);
    else if (event.key === 'ArrowUp') target = Math.max(0, index - 1);
    else if (event.key === 'Home') target = 0;
    else if (event.key === 'End') target = rows.length - 1;
    else if (event.key === 'Escape') {
      setSelectedId(undefined);
      return;
    } else return;
    event.preventDefault();
    const row = rows[target];
    if (!row) return;
    setSelectedId(row.callId);
    const el = scroller.current;
    if (el) {
      const top = target * ROW_HEIGHT;
      if (top < el.scrollTop) el.scrollTop = top;
      else if (top + ROW_HEIGHT > el.scrollTop + el.clientHeight) el.scrollTop = top + ROW_HEIGHT - el.clientHeight;
    }
  };

  const panelMax = dock === 'right' ? layout.width - TABLE_MIN_WIDTH - 8 : Math.max(200, layout.height - 4 * ROW_HEIGHT - 40);
  return (
    <section aria-labelledby="calls-title" className="view calls-view">
      <div className="view-head">
        <h2 id="calls-title">Live calls</h2>
        <div className="toolbar">
          <label className="field">
            Search{' '}
            <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="tool, agent, target, call id" />
          </label>
          <label className="field">
            Status{' '}
            <select value={status} onChange={(e) => setStatus(e.target.value as CallStatus | 'all')}>
              <option value="all">All</option>
              <option value="running">Running</option>
              <option value="ok">OK</option>
              <option value="error">Error</option>
            </select>
          </label>
          <span className="muted" aria-live="polite" data-testid="call-count">
            {rows.length} of {callIds.length + recordedOnly} calls
          </span>
          {history.nextBefore !== undefined && (
            <button type="button" onClick={history.loadOlder} disabled={history.loading}>
              Load older
            </button>
          )}
          {history.available && (
            <a className="button" href="/audit/export?format=jsonl" download>
              Export
            </a>
          )}
          {historyStatusLabel(history) && (
            <span className="muted" title={history.reason} data-testid="history-status">
              {historyStatusLabel(history)}
            </span>
          )}
        </div>
      </div>
      <ElicitationsPanel />
      <div ref={container} className={`calls-layout dock-${dock}`}>
        <div className="calls-main">
        <div role="table" aria-label="Live calls" aria-rowcount={rows.length} className="calls-table" data-testid="calls-table">
          <div role="rowgroup">
            <div role="row" className="call-row header">
              <span role="columnheader">Started</span>
              <span role="columnheader">Agent</span>
              <span role="columnheader">Tool</span>
              <span role="columnheader">Served by</span>
              <span role="columnheader">Status</span>
              <span role="columnheader" className="c-num">Duration</span>
              <span role="columnheader" className="c-num">Request</span>
              <span role="columnheader" className="c-num">Response</span>
            </div>
          </div>
          <div
            ref={scroller}
            role="rowgroup"
            className="calls-scroll"
            tabIndex={0}
            aria-label="Call rows; arrow keys select, Escape closes details"
            onScroll={(e) => setScrollTop(e.currentTarget.scrollTop)}
            onKeyDown={moveSelection}
          >
            <div className="calls-spacer" style={{ height: win.totalHeight }}>
              <div className="calls-window" style={{ transform: `translateY(${win.offset}px)` }}>
                {rows.slice(win.first, win.last).map((call) => (
                  <Row key={call.callId} call={call} now={call.status === 'running' ? now : 0} selected={call.callId === selectedId} onSelect={setSelectedId} />
                ))}
              </div>
            </div>
          </div>
        </div>
        {callIds.length === 0 && history.calls.length === 0 && <EmptyCalls />}
        </div>
        {selected && (
          <ResizablePanel id="call-detail" dock={dock} label={`Call ${selected.callId}`} min={dock === 'right' ? RIGHT_PANEL_MIN : 180} max={Math.max(dock === 'right' ? RIGHT_PANEL_MIN : 180, panelMax)} initial={dock === 'right' ? 560 : Math.round(Math.min(380, layout.height * 0.5))}>
            <Detail call={selected} onClose={() => setSelectedId(undefined)} />
          </ResizablePanel>
        )}
      </div>
    </section>
  );
}
