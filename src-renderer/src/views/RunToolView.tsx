/**
 * Run a tool as the agent `console`, Inspector-style: pick a tool, fill the form generated from its input
 * schema (or edit raw JSON), run it through the same dispatcher and policy as any agent, and read the
 * result. A run the policy holds says so here and can be decided here; the form and the run survive
 * leaving the view (store/runs.ts).
 */
import { useEffect, useMemo, useState } from 'react';
import type { ToolCatalogueEntry } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { pendingCallApprovals } from '../store/reducer.js';
import { EMPTY_RUN, useRuns } from '../store/runs.js';
import { useUi } from '../store/ui.js';
import { argsFromValues, formFields, valuesFromArgs, type FormField, type FormValues } from '../lib/schema-form.js';
import { AnnotationPills } from '../components/AnnotationPills.js';
import { CallResult } from '../components/CallResult.js';
import { HeldCallCard } from '../components/HeldCall.js';
import { JsonTree } from '../components/JsonTree.js';
import { useToolCatalogue } from '../lib/use-tools.js';

function Field({ field, values, onChange }: { field: FormField; values: FormValues; onChange: (path: string, v: string) => void }) {
  if (field.kind === 'object') {
    return (
      <fieldset className="form-field form-group">
        <legend>
          <code>{field.name}</code>
          {field.required && <span className="req" aria-label="required">*</span>} <span className="muted">object</span>
        </legend>
        {field.description && <p className="muted hint">{field.description}</p>}
        <div className="form-grid">
          {(field.fields ?? []).map((f) => (
            <Field key={f.path} field={f} values={values} onChange={onChange} />
          ))}
        </div>
      </fieldset>
    );
  }
  const id = `arg-${field.path}`;
  const value = values[field.path] ?? '';
  const bounds = field.min !== undefined || field.max !== undefined ? ` ${field.min ?? '…'}–${field.max ?? '…'}` : '';
  const label = (
    <label htmlFor={id}>
      <code>{field.name}</code>
      {field.required && <span className="req" aria-label="required">*</span>} <span className="muted">{field.kind}{bounds}{field.nullable ? ' or null' : ''}</span>
    </label>
  );
  let input: React.ReactNode;
  if (field.kind === 'enum' || field.kind === 'boolean') {
    const options = field.kind === 'boolean' ? ['true', 'false'] : (field.options ?? []);
    input = (
      <select id={id} value={value} onChange={(e) => onChange(field.path, e.target.value)}>
        <option value="">{field.required ? 'choose…' : '(leave out)'}</option>
        {options.map((o) => (
          <option key={o} value={o}>{o}</option>
        ))}
        {field.nullable && <option value="null">null</option>}
      </select>
    );
  } else if (field.kind === 'json') {
    input = <textarea id={id} rows={4} value={value} placeholder={field.placeholder ?? 'JSON'} onChange={(e) => onChange(field.path, e.target.value)} spellCheck={false} />;
  } else if (field.kind === 'string') {
    input = <input id={id} type="text" value={value} placeholder={field.placeholder} onChange={(e) => onChange(field.path, e.target.value)} />;
  } else {
    input = <input id={id} type="number" step={field.kind === 'integer' ? 1 : 'any'} min={field.min} max={field.max} value={value} placeholder={field.placeholder} onChange={(e) => onChange(field.path, e.target.value)} />;
  }
  return (
    <div className="form-field">
      {label}
      {input}
      {field.description && <p className="muted hint">{field.description}</p>}
    </div>
  );
}

/** The held approval of this tool's console run, if the policy holds it. */
function useHeldRun(tool: string, since: number | undefined) {
  return useConsole((s) => (since === undefined ? undefined : pendingCallApprovals(s.data).find((a) => a.transport === 'console' && a.tool === tool && a.requestedAt >= since - 1000)));
}

function Runner({ tool }: { tool: ToolCatalogueEntry }) {
  const channel = useConsole((s) => s.channel);
  const prefill = useUi((s) => s.runArgs);
  const openCall = useUi((s) => s.openCall);
  const run = useRuns((s) => s.runs[tool.name] ?? EMPTY_RUN);
  const edit = useRuns((s) => s.edit);
  const start = useRuns((s) => s.start);
  const fields = useMemo(() => formFields(tool.inputSchema), [tool.inputSchema]);
  const [problems, setProblems] = useState<string[]>([]);
  const held = useHeldRun(tool.name, run.runningSince);

  // "Run again" from a call fills the form once, replacing what was there; then the prefill is spent.
  useEffect(() => {
    if (!prefill) return;
    edit(tool.name, { values: valuesFromArgs(fields, prefill), raw: JSON.stringify(prefill, null, 2), outcome: undefined });
    useUi.setState({ runArgs: undefined });
  }, [prefill, fields, tool.name, edit]);

  const currentArgs = (): { ok: true; args: Record<string, unknown> } | { ok: false; problems: string[] } => {
    if (!run.rawMode) return argsFromValues(fields, run.values);
    try {
      const parsed: unknown = JSON.parse(run.raw || '{}');
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return { ok: false, problems: ['the arguments must be a JSON object'] };
      return { ok: true, args: parsed as Record<string, unknown> };
    } catch (error) {
      return { ok: false, problems: [`not valid JSON: ${(error as Error).message}`] };
    }
  };

  const switchMode = (toRaw: boolean): void => {
    const current = currentArgs();
    if (!current.ok) {
      setProblems(current.problems);
      return;
    }
    setProblems([]);
    edit(tool.name, toRaw ? { raw: JSON.stringify(current.args, null, 2), rawMode: true } : { values: valuesFromArgs(fields, current.args), rawMode: false });
  };

  const submit = (): void => {
    const current = currentArgs();
    if (!current.ok) {
      setProblems(current.problems);
      return;
    }
    setProblems([]);
    void start(channel, tool.name, current.args);
  };

  const running = run.runningSince !== undefined;
  return (
    <div className="runner" data-testid="tool-runner">
      <h3>
        <code>{tool.name}</code> <span className="pill">{tool.source}</span> <AnnotationPills annotations={tool.annotations} />
      </h3>
      {tool.description && <p className="tool-description">{tool.description}</p>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        aria-label={`Arguments for ${tool.name}`}
      >
        <div className="toolbar" role="group" aria-label="Argument editor">
          <button type="button" aria-pressed={!run.rawMode} onClick={() => switchMode(false)}>Form</button>
          <button type="button" aria-pressed={run.rawMode} onClick={() => switchMode(true)}>Raw JSON</button>
        </div>
        {run.rawMode ? (
          <textarea className="raw-args" aria-label="Arguments as JSON" rows={10} value={run.raw} onChange={(e) => edit(tool.name, { raw: e.target.value })} spellCheck={false} />
        ) : fields.length === 0 ? (
          <p className="muted">This tool takes no arguments.</p>
        ) : (
          <div className="form-grid">
            {fields.map((f) => (
              <Field key={f.path} field={f} values={run.values} onChange={(path, v) => edit(tool.name, { values: { ...run.values, [path]: v } })} />
            ))}
          </div>
        )}
        {problems.length > 0 && (
          <ul className="callout bad" role="alert">
            {problems.map((p) => <li key={p}>{p}</li>)}
          </ul>
        )}
        <p className="run-bar">
          <button type="submit" className="primary" disabled={running}>{held ? 'Held for approval…' : running ? 'Running…' : 'Run as console'}</button>{' '}
          <span className="muted">Runs through the same dispatcher, policy and admission limits as any agent call, as agent <code>console</code>, and shows in Live calls.</span>
        </p>
      </form>
      {held && (
        <div data-testid="run-held">
          <p className="callout warn">The approval policy holds this run: {held.reason}. Decide it here or in Approvals.</p>
          <HeldCallCard approval={held} testId="run-held-card" />
        </div>
      )}
      {run.failure && <p className="callout bad" role="alert">{run.failure}</p>}
      {run.outcome && !running && (
        <div className="run-outcome" data-testid="run-outcome">
          <p>
            <button type="button" className="link" onClick={() => run.outcome && openCall(run.outcome.callId)}>Open this call in Live calls</button>
          </p>
          <CallResult result={run.outcome.result} label="Result" />
        </div>
      )}
      <details className="schema">
        <summary>Input schema</summary>
        <JsonTree value={tool.inputSchema} label={`Input schema of ${tool.name}`} openDepth={3} />
      </details>
    </div>
  );
}

export function RunToolView() {
  const { tools, error } = useToolCatalogue();
  const chosen = useUi((s) => s.runTool);
  const openTool = useUi((s) => s.openTool);
  const [filter, setFilter] = useState('');
  const needle = filter.trim().toLowerCase();
  const visible = (tools ?? []).filter((t) => !needle || t.name.toLowerCase().includes(needle) || (t.description ?? '').toLowerCase().includes(needle));
  const tool = tools?.find((t) => t.name === chosen);
  useEffect(() => {
    if (!chosen && tools && tools[0]) openTool(tools[0].name);
  }, [chosen, tools, openTool]);
  return (
    <section aria-labelledby="run-title" className="view run-view">
      <h2 id="run-title">Run a tool</h2>
      {error && <p className="callout bad">{error}</p>}
      <div className="run-layout">
        <div className="tool-list">
          <label className="field">
            Filter <input type="search" value={filter} onChange={(e) => setFilter(e.target.value)} placeholder="name or description" />
          </label>
          <ul aria-label="Tools">
            {visible.map((t) => (
              <li key={t.name}>
                <button type="button" aria-current={t.name === chosen} onClick={() => openTool(t.name)} title={t.description}>
                  <code>{t.name}</code> <span className="muted">{t.source}</span>
                </button>
              </li>
            ))}
          </ul>
          {tools && visible.length === 0 && <p className="empty">No tool matches.</p>}
        </div>
        {tool ? <Runner key={tool.name} tool={tool} /> : <p className="empty">{tools ? 'Choose a tool.' : 'Loading the catalogue…'}</p>}
      </div>
    </section>
  );
}
