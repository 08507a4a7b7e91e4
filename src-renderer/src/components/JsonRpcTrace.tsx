/**
 * A call as its JSON-RPC messages (rebuilt from the record: lib/jsonrpc-trace.ts), and the request open
 * for editing: sending it runs the edited call as the console, through the same dispatcher and policy.
 */
import { useState } from 'react';
import type { CallDetail, CallView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { useUi } from '../store/ui.js';
import { callTrace, parseToolsCall } from '../lib/jsonrpc-trace.js';

function EditAndReplay({ request }: { request: Record<string, unknown> }) {
  const channel = useConsole((s) => s.channel);
  const openCall = useUi((s) => s.openCall);
  const [text, setText] = useState(() => JSON.stringify(request, null, 2));
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const send = async (): Promise<void> => {
    const parsed = parseToolsCall(text);
    if (!parsed.ok) {
      setProblem(parsed.problem);
      return;
    }
    setProblem(undefined);
    setBusy(true);
    const reply = await channel?.invoke('runTool', { name: parsed.name, args: parsed.args });
    setBusy(false);
    if (!reply) setProblem('Not connected.');
    else if (reply.ok) openCall(reply.value.callId);
    else setProblem(`${reply.error.code}: ${reply.error.message}`);
  };
  return (
    <details className="edit-replay">
      <summary>Edit and send again</summary>
      <textarea aria-label="Request to send" rows={8} value={text} spellCheck={false} onChange={(e) => setText(e.target.value)} />
      {problem && (
        <p className="callout bad" role="alert">
          {problem}
        </p>
      )}
      <p className="run-bar">
        <button type="button" className="primary" disabled={busy} onClick={() => void send()}>
          {busy ? 'Sending…' : 'Send as console'}
        </button>{' '}
        <span className="muted">Runs as agent <code>console</code> through the policy; the new call opens when it ends.</span>
      </p>
    </details>
  );
}

export function JsonRpcTrace({ call, detail }: { call: CallView; detail: CallDetail | undefined }) {
  const messages = callTrace(call, detail);
  const [request] = messages;
  return (
    <div className="jsonrpc" data-testid="jsonrpc-trace">
      <p className="muted">Rebuilt from what Junction recorded: values as they were (redacted ones as [redacted]), ids as placeholders.</p>
      <ol className="jsonrpc-messages">
        {messages.map((m, i) => (
          <li key={i} className={`rpc rpc-${m.direction === 'to Junction' ? 'in' : 'out'}`}>
            <span className="pill">{m.direction === 'to Junction' ? 'agent → Junction' : 'Junction → agent'}</span> <span className="muted">{m.label}</span>
            <pre className="json" tabIndex={0} aria-label={`${m.label} message`}>{JSON.stringify(m.message, null, 2)}</pre>
          </li>
        ))}
      </ol>
      {request && detail && <EditAndReplay key={call.callId} request={request.message} />}
    </div>
  );
}
