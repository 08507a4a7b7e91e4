/**
 * Every tool call, live and recorded: a windowed table (10,000 rows stay cheap) and the detail of the
 * selected call (readable, or as its JSON-RPC messages with edit-and-replay). A held call is a state of
 * its own here, decided from its detail exactly as in Approvals.
 */
import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { BridgeView, CallApprovalView, CallDetail, CallView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { heldCalls } from '../store/reducer.js';
import { callUrl, useUi } from '../store/ui.js';
import { agentParts, callState, decisionLabel, executionMs, filterCalls, mergeHistory, NONE_HELD, rowWindow, STATE_FILTERS, type CallState, type HeldCalls, type StateFilter } from '../lib/calls.js';
import { curlCommand, jsonRpcRequest } from '../lib/call-export.js';
import { exportHref } from '../lib/history-export.js';
import { formatBytes, formatCount, formatDuration, formatSpan, formatTime } from '../lib/format.js';
import { useCommandResult } from '../lib/use-command-result.js';
import { useNow } from '../lib/use-now.js';
import { useHistory } from '../lib/use-history.js';
import { historyStatusLabel } from '../lib/history-status.js';
import { CallResult } from '../components/CallResult.js';
import { CopyButton } from '../components/CopyButton.js';
import { HeldCallCard } from '../components/HeldCall.js';
import { JsonRpcTrace } from '../components/JsonRpcTrace.js';
import { JsonTree } from '../components/JsonTree.js';
import { ResizablePanel } from '../components/ResizablePanel.js';
import { ElicitationsPanel, NestedTrace } from './Elicitations.js';

/** Must match `.call-row { height }` in styles.css. */
export const ROW_HEIGHT = 28;
/** Must match the sum of the minimum column widths, gaps and padding of `.call-row` in styles.css. */
const TABLE_MIN_WIDTH = 844;
/** The detail panel docks to the right only when it gets at least this much beside a full-width table. */
const RIGHT_PANEL_MIN = 400;
/** Rows of the list that stay visible above a detail panel docked below. */
const ROWS_KEPT = 8;

const STATE_LABEL: Record<CallState, string> = { running: 'running', held: 'held', ok: 'ok', error: 'error', refused: 'refused' };

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

function StatePill({ call, state }: { call: CallView; state: CallState }) {
  const text = state === 'error' && call.errorCode ? call.errorCode : STATE_LABEL[state];
  return (
    <span className={`pill state-${state}`} title={state === 'refused' ? call.errorCode : undefined}>
      {text}
    </span>
  );
}

/** The agent's name may be cut; the part that tells its sessions apart (`#3`) always shows. */
function AgentCell({ agent }: { agent: string }) {
  const { name, session } = agentParts(agent);
  return (
    <span role="cell" className="c-agent" title={agent}>
      <span className="agent-name">{name}</span>
      {session && <span className="agent-session">{session}</span>}
    </span>
  );
}

/** Memoised: under load most rows keep their call object, so only new and changed rows re-render. */
const Row = memo(function Row({ call, held, now, selected, onSelect }: { call: CallView; held: CallApprovalView | undefined; now: number; selected: boolean; onSelect: (callId: string) => void }) {
  const state: CallState = held ? 'held' : callState(call, NONE_HELD);
  const served = servedByLabel(call);
  const duration = state === 'running' ? now - call.startedAt : executionMs(call);
  const decision = held ? 'waiting for you' : decisionLabel(call.policy);
  return (
    <div role="row" className={`call-row state-${state}${selected ? ' selected' : ''}`} aria-selected={selected} data-call-id={call.callId} onClick={() => onSelect(call.callId)}>
      <span role="cell" className="c-time">{formatTime(call.startedAt)}</span>
      <AgentCell agent={call.agent} />
      <span role="cell" className="c-tool" title={call.tool}>{call.tool}</span>
      <span role="cell" className="c-target" title={call.servedBy ? `${served} (connection ${call.servedBy.connectionId})` : served}>{served}</span>
      <span role="cell" className="c-status">
        <StatePill call={call} state={state} />
        {call.nested && call.nested.length > 0 && (
          <span className="muted" title="Requests to the agent (elicitation, sampling)" data-testid="nested-count">
            {' '}⤷{call.nested.length}
          </span>
        )}
        {state === 'running' && <Progress call={call} withMessage={false} />}
        {held && <span className="muted small">&nbsp;{formatSpan(held.expiresAt - now)}</span>}
      </span>
      <span role="cell" className="c-decision" title={call.policy?.reason ?? decision} data-testid="call-decision">{decision ?? ''}</span>
      <span role="cell" className="c-num" title={call.policy?.heldMs ? `${formatDuration(call.durationMs)} in all, ${formatDuration(call.policy.heldMs)} of it waiting for the operator` : undefined}>
        {state === 'held' ? '—' : formatDuration(duration)}
      </span>
      <span role="cell" className="c-num c-size" title={`request ${formatBytes(call.requestBytes)}, response ${formatBytes(call.responseBytes)}`}>
        {formatBytes(call.requestBytes)} → {formatBytes(call.responseBytes)}
      </span>
    </div>
  );
});

function needsToken(bridge: BridgeView | undefined): boolean {
  return bridge?.snippets.some((s) => s.text.includes('Authorization')) ?? false;
}

/** "ran 12 ms · waited 40.1 s for the operator" */
function durationText(call: CallView): string {
  const held = call.policy?.heldMs;
  if (call.durationMs === undefined) return call.status === 'running' ? 'still running' : '—';
  if (call.policy?.decision === 'deny') return `not run${held ? ` · waited ${formatDuration(held)} for the operator` : ''}`;
  return held ? `ran ${formatDuration(executionMs(call))} · waited ${formatDuration(held)} for the operator (${formatDuration(call.durationMs)} in all)` : formatDuration(call.durationMs);
}

function policyText(call: CallView): string | undefined {
  const p = call.policy;
  if (!p) return undefined;
  const who = decisionLabel(p) ?? 'no rule matched: allowed';
  return `${who} — ${p.reason}${p.operatorReason ? ` (operator: ${p.operatorReason})` : ''}`;
}

function Readable({ call, detail }: { call: CallView; detail: CallDetail | undefined }) {
  return (
    <>
      {detail?.truncated && <p className="callout warn">Arguments or result exceeded the console's per-call limit and are shown truncated.</p>}
      {detail?.redacted && detail.redacted.length > 0 && <p className="callout">Redacted: {detail.redacted.join(', ')}</p>}
      <h4>Arguments</h4>
      {detail ? <JsonTree value={detail.arguments} label="Call arguments" /> : <p className="muted">Loading…</p>}
      {detail ? detail.result === undefined ? <p className="muted">{call.status === 'running' ? 'No result yet.' : 'No result recorded.'}</p> : <CallResult result={detail.result} label="Result" /> : null}
    </>
  );
}

function Detail({ callId, live, held, onClose }: { callId: string; live: CallView | undefined; held: CallApprovalView | undefined; onClose: () => void }) {
  const run = useConsole((s) => s.run);
  const bridge = useConsole((s) => s.data.bridge);
  const openTool = useUi((s) => s.openTool);
  const [tab, setTab] = useState<'readable' | 'jsonrpc'>('readable');
  const { value: detail, error } = useCommandResult('callDetail', { callId }, [callId, live?.status]);
  const call = live ?? detail?.call;
  if (!call) {
    return (
      <div className="call-detail" data-testid="call-detail">
        <p className={error ? 'callout bad' : 'muted'}>{error ?? `Loading call ${callId}…`}</p>
        <button type="button" onClick={onClose}>Close</button>
      </div>
    );
  }
  const state: CallState = held ? 'held' : callState(call, NONE_HELD);
  const args = detail && typeof detail.arguments === 'object' && detail.arguments !== null && !Array.isArray(detail.arguments) ? (detail.arguments as Record<string, unknown>) : undefined;
  return (
    <div className="call-detail" data-testid="call-detail">
      <header className="detail-head">
        <h3>
          {call.tool} <StatePill call={call} state={state} />
        </h3>
        <div className="detail-actions">
          <CopyButton text={callUrl(window.location, call.callId)} label="link">Copy link</CopyButton>
          {args && !detail?.truncated && (
            <>
              <CopyButton text={curlCommand(bridge?.apiUrl ?? '', call.tool, args, needsToken(bridge))} label="as curl">Copy as curl</CopyButton>
              <CopyButton text={jsonRpcRequest(call.tool, args)} label="as JSON-RPC">Copy as JSON-RPC</CopyButton>
              <button type="button" className="secondary" onClick={() => openTool(call.tool, args)}>Run again…</button>
            </>
          )}
          {call.status !== 'running' && (
            <button type="button" onClick={() => void run('replay', { callId: call.callId }, `Replayed ${call.tool}; the new call is at the top.`, { kind: 'call', id: call.callId, label: `call ${call.tool}` })}>
              Replay
            </button>
          )}
          <button type="button" onClick={onClose} aria-label="Close call details">
            Close
          </button>
        </div>
      </header>
      {held && <HeldCallCard approval={held} testId="call-detail-held" />}
      <dl className="facts compact">
        <dt>Call</dt>
        <dd>
          <code>{call.callId}</code>
          {call.replayOf && <> · replay of <code>{call.replayOf}</code></>}
        </dd>
        <dt>Agent</dt>
        <dd>{call.agent} <span className="muted">via {call.transport}{call.sessionId ? ` · session ${call.sessionId}` : ''}</span></dd>
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
        <dd data-testid="detail-duration">{durationText(call)} · request {formatBytes(call.requestBytes)} · response {formatBytes(call.responseBytes)}</dd>
        {call.traceparent && (
          <>
            <dt>Trace</dt>
            <dd data-testid="detail-trace">
              <code>{call.traceparent}</code> <CopyButton text={call.traceparent} label="traceparent">Copy</CopyButton>
            </dd>
          </>
        )}
        {policyText(call) && (
          <>
            <dt>Decision</dt>
            <dd data-testid="call-policy">{policyText(call)}</dd>
          </>
        )}
      </dl>
      <Progress call={call} withMessage />
      <NestedTrace nested={call.nested ?? []} />
      {error && <p className="callout bad">{error}</p>}
      {!held && (
        <>
          <div className="toolbar" role="group" aria-label="Detail view">
            <button type="button" aria-pressed={tab === 'readable'} onClick={() => setTab('readable')}>Readable</button>
            <button type="button" aria-pressed={tab === 'jsonrpc'} onClick={() => setTab('jsonrpc')}>JSON-RPC</button>
          </div>
          {tab === 'readable' ? <Readable call={call} detail={detail} /> : <JsonRpcTrace call={call} detail={detail} />}
        </>
      )}
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

/**
 * The count line. Its semantics: "N shown" are the calls matching the filter among those loaded (the
 * live log and the recorded pages fetched so far; "older" says more may match further back), and the
 * total is the console's live log, which the filter and the search never change.
 */
function CountLine({ shown, live, more }: { shown: number; live: number; more: boolean }) {
  return (
    <span className="muted" aria-live="polite" data-testid="call-count" title="Shown: the calls matching the filter among those loaded. Live log: every call this console holds, whatever the filter.">
      {formatCount(shown)} shown{more ? ' (more older)' : ''} · {formatCount(live)} in the live log
    </span>
  );
}

export function CallsView() {
  const calls = useConsole((s) => s.data.calls);
  const callIds = useConsole((s) => s.data.callIds);
  const callApprovals = useConsole((s) => s.data.callApprovals);
  const selectedId = useUi((s) => s.selectedCallId);
  const setSelectedId = useUi((s) => s.selectCall);
  const [status, setStatus] = useState<StateFilter>('all');
  const [text, setText] = useState('');
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const [layout, setLayout] = useState({ width: 1200, height: 700 });
  const scroller = useRef<HTMLDivElement>(null);
  const container = useRef<HTMLDivElement>(null);
  const now = useNow();
  const history = useHistory({ status, text });
  // Derived from the approvals list alone, so a burst of call events does not rebuild it.
  const held: HeldCalls = useMemo(() => heldCalls({ callApprovals }), [callApprovals]);
  const live = useMemo(() => filterCalls(calls, callIds, { status, text }, held), [calls, callIds, status, text, held]);
  const rows = useMemo(() => mergeHistory(live, history.calls), [live, history.calls]);
  const win = rowWindow(scrollTop, viewport, ROW_HEIGHT, rows.length);
  const selected = selectedId ? (calls.get(selectedId) ?? history.calls.find((c) => c.callId === selectedId)) : undefined;
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

  // A call chosen elsewhere (the palette, the address) scrolls into view.
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

  // Docked below, the panel leaves the header row and ROWS_KEPT rows of the list in view.
  const listFloor = (ROWS_KEPT + 1) * ROW_HEIGHT + 8;
  const panelMax = dock === 'right' ? layout.width - TABLE_MIN_WIDTH - 8 : Math.max(160, layout.height - listFloor);
  const panelMin = dock === 'right' ? RIGHT_PANEL_MIN : Math.min(160, panelMax);
  return (
    <section aria-labelledby="calls-title" className="view calls-view">
      <div className="view-head">
        <h2 id="calls-title">Live calls</h2>
        <div className="toolbar">
          <label className="field">
            Search{' '}
            <input type="search" value={text} onChange={(e) => setText(e.target.value)} placeholder="words of tool, agent, target, id" title="Every word must match; the last one as a prefix from three letters on (LOGI finds login)" />
          </label>
          <label className="field">
            Status{' '}
            <select value={status} onChange={(e) => setStatus(e.target.value as StateFilter)}>
              {STATE_FILTERS.map((f) => (
                <option key={f.value} value={f.value}>
                  {f.label}
                </option>
              ))}
            </select>
          </label>
          <CountLine shown={rows.length} live={callIds.length} more={history.nextBefore !== undefined} />
          {history.nextBefore !== undefined && (
            <button type="button" onClick={history.loadOlder} disabled={history.loading}>
              Load older
            </button>
          )}
          {history.available && (
            <a className="button" href={exportHref({ status, text })} download title="Downloads the recorded calls this filter and search match">
              Export
            </a>
          )}
          {historyStatusLabel(history) && (
            <span className="muted" title={history.reason} data-testid="history-status">
              {historyStatusLabel(history)}
            </span>
          )}
          <ElicitationsPanel />
        </div>
      </div>
      <div ref={container} className={`calls-layout dock-${dock}`}>
        <div className="calls-main" style={selectedId && dock === 'bottom' ? { minHeight: Math.min(listFloor, layout.height) } : undefined}>
          <div role="table" aria-label="Live calls" aria-rowcount={rows.length} className="calls-table" data-testid="calls-table">
            <div role="rowgroup">
              <div role="row" className="call-row header">
                <span role="columnheader">Started</span>
                <span role="columnheader">Agent</span>
                <span role="columnheader">Tool</span>
                <span role="columnheader">Served by</span>
                <span role="columnheader">Status</span>
                <span role="columnheader">Decision</span>
                <span role="columnheader" className="c-num">Run time</span>
                <span role="columnheader" className="c-num">Size</span>
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
                  {rows.slice(win.first, win.last).map((call) => {
                    const waiting = held.get(call.callId);
                    return <Row key={call.callId} call={call} held={waiting} now={call.status === 'running' ? now : 0} selected={call.callId === selectedId} onSelect={setSelectedId} />;
                  })}
                </div>
              </div>
            </div>
          </div>
          {callIds.length === 0 && history.calls.length === 0 && <EmptyCalls />}
        </div>
        {selectedId && (
          <ResizablePanel
            id="call-detail"
            dock={dock}
            label={`Call ${selectedId}`}
            min={panelMin}
            max={Math.max(panelMin, panelMax)}
            initial={dock === 'right' ? 560 : Math.round(Math.min(380, panelMax, layout.height * 0.5))}
          >
            <Detail key={selectedId} callId={selectedId} live={selected} held={held.get(selectedId)} onClose={() => setSelectedId(undefined)} />
          </ResizablePanel>
        )}
      </div>
    </section>
  );
}
