/**
 * MCP requests nested in a call (elicitation, sampling) for the call trace, the operator's choice of
 * who answers elicitations, and a form per elicitation waiting for the operator.
 */
import { useState } from 'react';
import type { NestedRequestView, PendingElicitationView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { formatDuration } from '../lib/format.js';

type FieldValue = string | number | boolean | string[];

interface FieldSchema {
  type?: string;
  title?: string;
  description?: string;
  enum?: string[];
  oneOf?: Array<{ const: string; title?: string }>;
  default?: FieldValue;
}

/** The trace of a call's nested requests, in the order they started. */
export function NestedTrace({ nested }: { nested: readonly NestedRequestView[] }) {
  if (nested.length === 0) return null;
  return (
    <>
      <h4>Requests to the agent</h4>
      <ol className="nested-trace" aria-label="Requests to the agent">
        {nested.map((n) => (
          <li key={n.nestedId} data-nested-kind={n.kind}>
            <span className={`pill status-${n.status === 'pending' ? 'running' : n.status}`}>{n.status === 'error' && n.errorCode ? n.errorCode : n.status}</span> {n.kind}
            {n.outcome && <span className="muted"> → {n.outcome}</span>}
            {n.durationMs !== undefined && <span className="muted"> · {formatDuration(n.durationMs)}</span>}
            <div className="muted">{n.summary}</div>
          </li>
        ))}
      </ol>
    </>
  );
}

function initialValues(schema: Record<string, unknown>): Record<string, FieldValue> {
  const properties = (schema['properties'] ?? {}) as Record<string, FieldSchema>;
  const values: Record<string, FieldValue> = {};
  for (const [name, field] of Object.entries(properties)) if (field.default !== undefined) values[name] = field.default;
  return values;
}

function Field({ name, field, value, onChange }: { name: string; field: FieldSchema; value: FieldValue | undefined; onChange: (v: FieldValue | undefined) => void }) {
  const label = field.title ?? name;
  const choices = field.enum?.map((v) => ({ value: v, title: v })) ?? field.oneOf?.map((o) => ({ value: o.const, title: o.title ?? o.const }));
  if (choices) {
    return (
      <label className="field">
        {label}{' '}
        <select value={typeof value === 'string' ? value : ''} onChange={(e) => onChange(e.target.value || undefined)}>
          <option value="">—</option>
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.title}
            </option>
          ))}
        </select>
      </label>
    );
  }
  if (field.type === 'boolean') {
    return (
      <label className="field">
        <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.target.checked)} /> {label}
      </label>
    );
  }
  const numeric = field.type === 'number' || field.type === 'integer';
  return (
    <label className="field">
      {label}{' '}
      <input
        type={numeric ? 'number' : 'text'}
        value={value === undefined ? '' : String(value)}
        title={field.description}
        onChange={(e) => onChange(e.target.value === '' ? undefined : numeric ? Number(e.target.value) : e.target.value)}
      />
    </label>
  );
}

function ElicitationForm({ elicitation }: { elicitation: PendingElicitationView }) {
  const run = useConsole((s) => s.run);
  const [values, setValues] = useState<Record<string, FieldValue>>(() => initialValues(elicitation.requestedSchema));
  const [busy, setBusy] = useState(false);
  const properties = (elicitation.requestedSchema['properties'] ?? {}) as Record<string, FieldSchema>;
  const answer = async (action: 'accept' | 'decline' | 'cancel') => {
    setBusy(true);
    try {
      await run('answerElicitation', { elicitationId: elicitation.elicitationId, action, ...(action === 'accept' ? { content: values } : {}) }, `Elicitation ${action}ed`);
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
        void answer('accept');
      }}
    >
      <p>
        <strong>{elicitation.tool}</strong> <span className="muted">for {elicitation.agent}</span>: {elicitation.message}
      </p>
      {Object.entries(properties).map(([name, field]) => (
        <Field
          key={name}
          name={name}
          field={field}
          value={values[name]}
          onChange={(v) =>
            setValues((current) => {
              if (v !== undefined) return { ...current, [name]: v };
              const { [name]: _cleared, ...rest } = current;
              return rest;
            })
          }
        />
      ))}
      <div className="toolbar">
        <button type="submit" className="primary" disabled={busy}>
          Accept
        </button>
        <button type="button" disabled={busy} onClick={() => void answer('decline')}>
          Decline
        </button>
        <button type="button" disabled={busy} onClick={() => void answer('cancel')}>
          Cancel
        </button>
      </div>
    </form>
  );
}

/** Who answers elicitations, and the ones waiting for the operator. */
export function ElicitationsPanel() {
  const elicitations = useConsole((s) => s.data.elicitations);
  const run = useConsole((s) => s.run);
  if (!elicitations) return null;
  return (
    <div className="elicitations" aria-label="Elicitations">
      <label className="field">
        Elicitations answered by{' '}
        <select
          value={elicitations.answerer}
          onChange={(e) => void run('setElicitationAnswerer', { answerer: e.target.value === 'console' ? 'console' : 'agent' }, 'Elicitation answerer changed')}
        >
          <option value="agent">the agent</option>
          <option value="console">this console</option>
        </select>
      </label>
      {elicitations.pending.map((e) => (
        <ElicitationForm key={e.elicitationId} elicitation={e} />
      ))}
    </div>
  );
}
