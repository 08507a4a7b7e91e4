/**
 * A tool's sampling request (`sampling/createMessage`) answered by the operator (answerer `console`): the
 * messages the tool sent, the parameters it asked for, a warning about whom the text is trusted by, and
 * the operator's reply written as the model.
 */
import { useState } from 'react';
import type { PendingSamplingView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { useUi } from '../store/ui.js';
import { samplingMessages, samplingParameters } from '../lib/sampling.js';
import { JsonTree } from './JsonTree.js';
import { Waiting } from './ElicitationDialog.js';
import { PromptDialog } from './PromptDialog.js';

function Form({ sampling, close }: { sampling: PendingSamplingView; close: () => void }) {
  const run = useConsole((s) => s.run);
  const [text, setText] = useState('');
  const [model, setModel] = useState('operator');
  const [problem, setProblem] = useState<string | undefined>(undefined);
  const [busy, setBusy] = useState(false);
  const subject = { kind: 'call' as const, id: sampling.callId, label: `call ${sampling.tool}` };
  const send = async (action: 'accept' | 'decline'): Promise<void> => {
    if (action === 'accept' && text.trim() === '') {
      setProblem('Write the reply the tool receives, or decline.');
      return;
    }
    setBusy(true);
    try {
      const result = await run('answerSampling', { samplingId: sampling.samplingId, action, ...(action === 'accept' ? { text, model: model.trim() || 'operator' } : {}) }, `Answered ${sampling.tool}: ${action}`, subject);
      if (result.ok) close();
      else setProblem(`${result.error.code}: ${result.error.message}`);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="elicitation"
      aria-label={`Sampling request from ${sampling.tool}`}
      onSubmit={(e) => {
        e.preventDefault();
        void send('accept');
      }}
    >
      <h2 id="sampling-title">{sampling.tool} asks for a model reply</h2>
      <p className="muted">
        for agent {sampling.agent} · <Waiting item={sampling} />
      </p>
      <p className="callout warn" data-testid="sampling-warning">
        You answer as the model: the tool takes your text for a model&apos;s and may act on it. The messages below come from the tool, and through it perhaps from content nobody checked; read them before you reply, and never paste secrets into a reply.
      </p>
      <h3>Messages</h3>
      <ol className="sampling-messages" aria-label="Messages the tool sent">
        {samplingMessages(sampling).map((m, i) => (
          <li key={i}>
            <span className="pill">{m.role}</span>{' '}
            {m.kind === 'text' ? <span className="sampling-text">{m.text}</span> : m.kind === 'image' ? <img className="result-image" src={m.src} alt={`Image in message ${i + 1}`} /> : <JsonTree value={m.value} label={`Message ${i + 1}`} />}
          </li>
        ))}
      </ol>
      <h3>Parameters</h3>
      <dl className="facts compact" data-testid="sampling-parameters">
        {samplingParameters(sampling).map(([name, value]) => (
          <div key={name} className="fact">
            <dt>{name}</dt>
            <dd>{value}</dd>
          </div>
        ))}
      </dl>
      <div className="form-field">
        <label htmlFor="sampling-reply">Reply (as the model)</label>
        <textarea id="sampling-reply" rows={6} value={text} onChange={(e) => setText(e.target.value)} />
      </div>
      <div className="form-field">
        <label htmlFor="sampling-model">Model name the tool is told</label>
        <input id="sampling-model" type="text" value={model} onChange={(e) => setModel(e.target.value)} />
      </div>
      {problem && (
        <p className="callout bad" role="alert">
          {problem}
        </p>
      )}
      <div className="decision">
        <button type="submit" className="primary" disabled={busy}>
          Send reply
        </button>
        <button type="button" disabled={busy} onClick={() => void send('decline')}>
          Decline
        </button>
        <button type="button" className="secondary" onClick={close}>
          Later
        </button>
      </div>
    </form>
  );
}

export function SamplingDialog() {
  const answering = useUi((s) => s.answering);
  const answer = useUi((s) => s.answer);
  const sampling = useConsole((s) => s.data.elicitations?.sampling.find((p) => p.samplingId === answering));
  return (
    <PromptDialog open={Boolean(sampling)} labelledBy="sampling-title" testId="sampling-dialog" onClose={() => answer(undefined)}>
      {sampling && <Form key={sampling.samplingId} sampling={sampling} close={() => answer(undefined)} />}
    </PromptDialog>
  );
}
