/**
 * Elicitations the operator answers (answerer `console`) as a real prompt: a banner on every view with
 * how long the question has waited (or how long is left), the tab title, and a modal dialog with the form
 * the requested schema describes. The banner lists sampling requests too (their dialog: SamplingDialog).
 */
import { useEffect, useMemo, useState } from 'react';
import type { PendingElicitationView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { useUi } from '../store/ui.js';
import { answerProblems, elicitationFields, initialAnswer, type AnswerValue, type ElicitationField } from '../lib/elicitation-form.js';
import { formatSpan } from '../lib/format.js';
import { useNow } from '../lib/use-now.js';
import { PromptDialog } from './PromptDialog.js';

/** How long a request has waited, or how long it has left when it has a deadline. */
export function Waiting({ item }: { item: { createdAt: number; expiresAt?: number } }) {
  const now = useNow();
  return (
    <span role="timer" aria-live="off" data-testid="elicitation-countdown">
      {item.expiresAt !== undefined ? `${formatSpan(item.expiresAt - now)} left` : `waiting ${formatSpan(now - item.createdAt)}`}
    </span>
  );
}

/** Elicitations and sampling requests waiting for the operator, oldest first, as the banner lists them. */
function usePrompts(): Array<{ id: string; tool: string; what: string; createdAt: number; expiresAt?: number }> {
  const elicitations = useConsole((s) => s.data.elicitations);
  return useMemo(
    () =>
      [
        ...(elicitations?.pending ?? []).map((e) => ({ id: e.elicitationId, tool: e.tool, what: 'asks you a question', createdAt: e.createdAt, ...(e.expiresAt !== undefined ? { expiresAt: e.expiresAt } : {}) })),
        ...(elicitations?.sampling ?? []).map((p) => ({ id: p.samplingId, tool: p.tool, what: 'asks you for a model reply', createdAt: p.createdAt })),
      ].sort((a, b) => a.createdAt - b.createdAt),
    [elicitations],
  );
}

export function ElicitationBanner() {
  const prompts = usePrompts();
  const answer = useUi((s) => s.answer);
  const first = prompts[0];
  if (!first) return null;
  return (
    <div className="banner" role="alert" data-testid="elicitation-banner">
      <span>
        {prompts.length === 1 ? `${first.tool} ${first.what}` : `${prompts.length} requests from tools wait for your answer`} · <Waiting item={first} />
      </span>
      <button type="button" className="primary" onClick={() => answer(first.id)}>
        Answer now
      </button>
    </div>
  );
}

function Field({ field, value, onChange }: { field: ElicitationField; value: AnswerValue | undefined; onChange: (v: AnswerValue | undefined) => void }) {
  const id = `elicit-${field.name}`;
  const hint = [field.description, field.format ? `format ${field.format}` : '', field.min !== undefined || field.max !== undefined ? `${field.min ?? '…'} to ${field.max ?? '…'}` : ''].filter(Boolean).join(' · ');
  const label = (
    <label htmlFor={id}>
      {field.label}
      {field.required && <span className="req" aria-label="required">*</span>}
    </label>
  );
  let input: React.ReactNode;
  switch (field.kind) {
    case 'boolean':
      return (
        <div className="form-field checkbox">
          <label>
            <input id={id} type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} /> {field.label}
            {field.required && <span className="req" aria-label="required">*</span>}
          </label>
          {hint && <p className="muted hint">{hint}</p>}
        </div>
      );
    case 'choice':
      input = (
        <select id={id} value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value || undefined)}>
          <option value="">—</option>
          {field.options?.map((o) => (
            <option key={o.value} value={o.value}>
              {o.title}
            </option>
          ))}
        </select>
      );
      break;
    case 'choices': {
      const chosen = Array.isArray(value) ? value : [];
      return (
        <fieldset className="form-field">
          <legend>
            {field.label}
            {field.required && <span className="req" aria-label="required">*</span>}
          </legend>
          {field.options?.map((o) => (
            <label key={o.value} className="field">
              <input type="checkbox" checked={chosen.includes(o.value)} onChange={(e) => onChange(e.target.checked ? [...chosen, o.value] : chosen.filter((c) => c !== o.value))} /> {o.title}
            </label>
          ))}
          {hint && <p className="muted hint">{hint}</p>}
        </fieldset>
      );
    }
    case 'number':
    case 'integer':
      input = (
        <input
          id={id}
          type="number"
          step={field.kind === 'integer' ? 1 : 'any'}
          min={field.min}
          max={field.max}
          value={typeof value === 'number' ? String(value) : ''}
          onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
        />
      );
      break;
    case 'text':
      input = (
        <input
          id={id}
          type={field.format === 'email' ? 'email' : field.format === 'uri' ? 'url' : field.format === 'date' ? 'date' : 'text'}
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        />
      );
      break;
  }
  return (
    <div className="form-field">
      {label}
      {input}
      {hint && <p className="muted hint">{hint}</p>}
    </div>
  );
}

function Form({ elicitation, close }: { elicitation: PendingElicitationView; close: () => void }) {
  const run = useConsole((s) => s.run);
  const fields = useMemo(() => elicitationFields(elicitation.requestedSchema), [elicitation.requestedSchema]);
  const [values, setValues] = useState<Record<string, AnswerValue>>(() => initialAnswer(fields));
  const [problems, setProblems] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const subject = { kind: 'call' as const, id: elicitation.callId, label: `call ${elicitation.tool}` };
  const send = async (action: 'accept' | 'decline' | 'cancel'): Promise<void> => {
    if (action === 'accept') {
      const found = answerProblems(fields, values);
      setProblems(found);
      if (found.length > 0) return;
    }
    setBusy(true);
    try {
      const result = await run('answerElicitation', { elicitationId: elicitation.elicitationId, action, ...(action === 'accept' ? { content: values } : {}) }, `Answered ${elicitation.tool}: ${action}`, subject);
      if (result.ok) close();
      else setProblems([`${result.error.code}: ${result.error.message}`]);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      className="elicitation"
      aria-label={`Elicitation from ${elicitation.tool}`}
      onSubmit={(e) => {
        e.preventDefault();
        void send('accept');
      }}
    >
      <h2 id="elicitation-title">{elicitation.tool} asks</h2>
      <p className="muted">
        for agent {elicitation.agent} · <Waiting item={elicitation} /> · the answer goes to the tool, not to the agent
      </p>
      <p className="elicitation-message">{elicitation.message}</p>
      <div className="form-grid">
        {fields.map((f) => (
          <Field
            key={f.name}
            field={f}
            value={values[f.name]}
            onChange={(v) =>
              setValues((current) => {
                if (v !== undefined) return { ...current, [f.name]: v };
                const { [f.name]: _cleared, ...rest } = current;
                return rest;
              })
            }
          />
        ))}
      </div>
      {problems.length > 0 && (
        <ul className="callout bad" role="alert">
          {problems.map((p) => (
            <li key={p}>{p}</li>
          ))}
        </ul>
      )}
      <div className="decision">
        <button type="submit" className="primary" disabled={busy}>
          Accept
        </button>
        <button type="button" disabled={busy} onClick={() => void send('decline')}>
          Decline
        </button>
        <button type="button" disabled={busy} onClick={() => void send('cancel')}>
          Cancel request
        </button>
        <button type="button" className="secondary" onClick={close}>
          Later
        </button>
      </div>
    </form>
  );
}

/** The modal for the elicitation being answered; it closes by itself when the request is withdrawn. */
export function ElicitationDialog() {
  const answering = useUi((s) => s.answering);
  const answer = useUi((s) => s.answer);
  const elicitation = useConsole((s) => s.data.elicitations?.pending.find((e) => e.elicitationId === answering));
  const known = useConsole((s) => answering === undefined || [...(s.data.elicitations?.pending ?? []).map((e) => e.elicitationId), ...(s.data.elicitations?.sampling ?? []).map((p) => p.samplingId)].includes(answering));
  useEffect(() => {
    // A request answered elsewhere or withdrawn closes its dialog.
    if (!known) answer(undefined);
  }, [known, answer]);
  return (
    <PromptDialog open={Boolean(elicitation)} labelledBy="elicitation-title" testId="elicitation-dialog" onClose={() => answer(undefined)}>
      {elicitation && <Form key={elicitation.elicitationId} elicitation={elicitation} close={() => answer(undefined)} />}
    </PromptDialog>
  );
}
