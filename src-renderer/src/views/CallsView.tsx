import { memo, useEffect, useLayoutEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import type { CallDetail, CallStatus, CallView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { filterCalls, mergeHistory, rowWindow } from '../lib/calls.js';
import { formatBytes, formatDuration, formatTime } from '../lib/format.js';
import { useNow } from '../lib/use-now.js';
import { useHistory } from '../lib/use-history.js';
import { ElicitationsPanel, NestedTrace } from './Elicitations.js';

/** Must match `.call-row { height }` in styles.css. */
export const ROW_HEIGHT = 28;

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

/** Memoised: under load most rows keep their call object, so only new and changed rows re-render. */
const Row = memo(function Row({ call, now, selected, onSelect }: { call: CallView; now: number; selected: boolean; onSelect: (callId: string) => void }) {
  const duration = call.status === 'running' ? now - call.startedAt : call.durationMs;
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
      <span role="cell" className="c-target">{call.target}</span>
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

const REDACTED_JSON = '"[redacted]"';

/** JSON text with every redacted value marked, so the operator sees what was hidden rather than an odd string. */
function Json({ value, label }: { value: unknown; label: string }) {
  const parts = JSON.stringify(value, null, 2).split(REDACTED_JSON);
  return (
    <pre className="json" tabIndex={0} aria-label={label}>
      {parts.map((part, i) => (
        <span key={i}>
          {part}
          {i < parts.length - 1 && (
            <mark className="redacted" title="Redacted before it was recorded or shown">
              {REDACTED_JSON}
            </mark>
          )}
        </span>
      ))}
    </pre>
  );
}

function Drawer({ call, onClose }: { call: CallView; onClose: () => void }) {
  const channel = useConsole((s) => s.channel);
  const run = useConsole((s) => s.run);
  const [detail, setDetail] = useState<CallDetail | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  useEffect(() => {
    let live = true;
    void channel?.invoke('callDetail', { callId: call.callId }).then((r) => {
      if (!live) return;
      if (r.ok) {
        setDetail(r.value);
        setError(undefined);
      } else setError(`${r.error.code}: ${r.error.message}`);
    });
    return () => {
      live = false;
    };
  }, [channel, call.callId, call.status]);
  return (
    <aside className="drawer" aria-label={`Call ${call.callId}`}>
      <header>
        <h3>
          {call.tool} <span className={`pill status-${call.status}`}>{call.status}</span>
        </h3>
        <button type="button" onClick={onClose} aria-label="Close call details">
          Close
        </button>
      </header>
      <p className="muted">
        {call.callId} · {call.agent} via {call.transport} → {call.target}
        {call.replayOf && <> · replay of <code>{call.replayOf}</code></>}
      </p>
      {call.policy && (
        <p className="muted" data-testid="call-policy">
          Policy: {call.policy.decision} by {call.policy.decidedBy} — {call.policy.reason}
          {call.policy.operatorReason ? ` (operator: ${call.policy.operatorReason})` : ''}
        </p>
      )}
      <Progress call={call} withMessage />
      {call.status !== 'running' && (
        <p>
          <button type="button" onClick={() => void run('replay', { callId: call.callId }, `Replayed ${call.tool}; the new call is at the top.`)}>
            Replay
          </button>
        </p>
      )}
      <NestedTrace nested={call.nested ?? []} />
      {error && <p className="callout bad">{error}</p>}
      {detail?.truncated && <p className="callout warn">Arguments or result exceeded the console's per-call limit and are shown truncated.</p>}
      {detail?.redacted && detail.redacted.length > 0 && <p className="callout">Redacted: {detail.redacted.join(', ')}</p>}
      {detail?.policy !== undefined && (
        <>
          <h4>Policy decision</h4>
          <Json value={detail.policy} label="Policy decision" />
        </>
      )}
      <h4>Arguments</h4>
      {detail ? <Json value={detail.arguments} label="Call arguments" /> : <pre className="json">Loading…</pre>}
      <h4>Result</h4>
      {detail ? detail.result === undefined ? <pre className="json">(no result yet)</pre> : <Json value={detail.result} label="Call result" /> : <pre className="json">Loading…</pre>}
    </aside>
  );
}

export function CallsView() {
  const calls = useConsole((s) => s.data.calls);
  const callIds = useConsole((s) => s.data.callIds);
  const [status, setStatus] = useState<CallStatus | 'all'>('all');
  const [text, setText] = useState('');
  const [selectedId, setSelectedId] = useState<string | undefined>(undefined);
  const [scrollTop, setScrollTop] = useState(0);
  const [viewport, setViewport] = useState(600);
  const scroller = useRef<HTMLDivElement>(null);
  const now = useNow();
  const history = useHistory({ status, text });
  const live = useMemo(() => filterCalls(calls, callIds, { status, text }), [calls, callIds, status, text]);
  const rows = useMemo(() => mergeHistory(live, history.calls), [live, history.calls]);
  const win = rowWindow(scrollTop, viewport, ROW_HEIGHT, rows.length);
  const selected = selectedId ? (calls.get(selectedId) ?? history.calls.find((c) => c.callId === selectedId)) : undefined;
  const recordedOnly = rows.length - live.length;

  useLayoutEffect(() => {
    const el = scroller.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setViewport(el.clientHeight));
    observer.observe(el);
    setViewport(el.clientHeight);
    return () => observer.disconnect();
  }, []);

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

  return (
    <section aria-labelledby="calls-title" className="view calls-view">
      <h2 id="calls-title">Live calls</h2>
      <ElicitationsPanel />
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
        {!history.available && history.reason && <span className="muted" title={history.reason}>History unavailable</span>}
      </div>
      <div className="calls-layout">
        <div role="table" aria-label="Live calls" aria-rowcount={rows.length} className="calls-table">
          <div role="row" className="call-row header">
            <span role="columnheader">Started</span>
            <span role="columnheader">Agent</span>
            <span role="columnheader">Tool</span>
            <span role="columnheader">Target</span>
            <span role="columnheader">Status</span>
            <span role="columnheader" className="c-num">Duration</span>
            <span role="columnheader" className="c-num">Request</span>
            <span role="columnheader" className="c-num">Response</span>
          </div>
          <div
            ref={scroller}
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
        {selected && <Drawer call={selected} onClose={() => setSelectedId(undefined)} />}
      </div>
    </section>
  );
}
