/**
 * Run a tool as the agent `console`, Inspector-style: pick a tool, fill the form generated from its input
 * schema (or edit raw JSON), run it through the same dispatcher as any agent, and read the result.
 */
import { useEffect, useMemo, useState } from 'react';
import type { RunToolResult, ToolCatalogueEntry } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { useUi } from '../store/ui.js';
import { argsFromValues, formFields, valuesFromArgs, type FormField, type FormValues } from '../lib/schema-form.js';
import { CallResult } from '../components/CallResult.js';
import { JsonTree } from '../components/JsonTree.js';
import { useToolCatalogue } from '../lib/use-tools.js';

function Field({ field, value, onChange }: { field: FormField; value: string; onChange: (v: string) => void }) {
  const id = `arg-${field.name}`;
  const label = (
    <label htmlFor={id}>
      <code>{field.name}</code>
      {field.required && <span className="req" aria-label="required">*</span>} <span className="muted">{field.kind}</span>
    </label>
  );
  let input: React.ReactNode;
  if (field.kind === 'enum' || field.kind === 'boolean') {
    const options = field.kind === 'boolean' ? ['true', 'false'] : (field.options ?? []);
    input = (
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">{field.required ? 'choose…' : '(leave out)'}</option>
        {options.map((o) => (
          <option key={o} value={o}>{o}</option>
        ))}
      </select>
    );
  } else if (field.kind === 'json') {
    input = <textarea id={id} rows={4} value={value} placeholder={field.placeholder ?? 'JSON'} onChange={(e) => onChange(e.target.value)} spellCheck={false} />;
  } else {
    input = <input id={id} type={field.kind === 'string' ? 'text' : 'number'} value={value} placeholder={field.placeholder} onChange={(e) => onChange(e.target.value)} />;
  }
  return (
    <div className="form-field">
      {label}
      {input}
      {field.description && <p className="muted hint">{field.description}</p>}
    </div>
  );
}

function Runner({ tool }: { tool: ToolCatalogueEntry }) {
  const channel = useConsole((s) => s.channel);
  const prefill = useUi((s) => s.runArgs);
  const openCall = useUi((s) => s.openCall);
  const fields = useMemo(() => formFields(tool.inputSchema), [tool.inputSchema]);
  const [values, setValues] = useState<FormValues>(() => (prefill ? valuesFromArgs(fields, prefill) : {}));
  const [rawMode, setRawMode] = useState(false);
  const [raw, setRaw] = useState(() => JSON.stringify(prefill ?? {}, null, 2));
  const [problems, setProblems] = useState<string[]>([]);
  const [running, setRunning] = useState(false);
  const [outcome, setOutcome] = useState<RunToolResult | undefined>(undefined);
  const [failure, setFailure] = useState<string | undefined>(undefined);

  const currentArgs = (): { ok: true; args: Record<string, unknown> } | { ok: false; problems: string[] } => {
    if (!rawMode) return argsFromValues(fields, values);
    try {
      const parsed: unknown = JSON.parse(raw || '{}');
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
    if (toRaw) setRaw(JSON.stringify(current.args, null, 2));
    else setValues(valuesFromArgs(fields, current.args));
    setRawMode(toRaw);
  };

  const run = async (): Promise<void> => {
    const current = currentArgs();
    if (!current.ok) {
      setProblems(current.problems);
      return;
    }
    setProblems([]);
    setRunning(true);
    setFailure(undefined);
    const reply = await channel?.invoke('runTool', { name: tool.name, args: current.args });
    setRunning(false);
    if (!reply) setFailure('Not connected.');
    else if (reply.ok) setOutcome(reply.value);
    else setFailure(`${reply.error.code}: ${reply.error.message}`);
  };

  return (
    <div className="runner" data-testid="tool-runner">
      <h3>
        <code>{tool.name}</code> <span className="pill">{tool.source}</span>
      </h3>
      {tool.description && <p className="tool-description">{tool.description}</p>}
      <form
        onSubmit={(e) => {
          e.preventDefault();
          void run();
        }}
        aria-label={`Arguments for ${tool.name}`}
      >
        <div className="toolbar" role="group" aria-label="Argument editor">
          <button type="button" aria-pressed={!rawMode} onClick={() => switchMode(false)}>Form</button>
          <button type="button" aria-pressed={rawMode} onClick={() => switchMode(true)}>Raw JSON</button>
        </div>
        {rawMode ? (
          <textarea className="raw-args" aria-label="Arguments as JSON" rows={10} value={raw} onChange={(e) => setRaw(e.target.value)} spellCheck={false} />
        ) : fields.length === 0 ? (
          <p className="muted">This tool takes no arguments.</p>
        ) : (
          <div className="form-grid">
            {fields.map((f) => (
              <Field key={f.name} field={f} value={values[f.name] ?? ''} onChange={(v) => setValues((old) => ({ ...old, [f.name]: v }))} />
            ))}
          </div>
        )}
        {problems.length > 0 && (
          <ul className="callout bad" role="alert">
            {problems.map((p) => <li key={p}>{p}</li>)}
          </ul>
        )}
        <p className="run-bar">
          <button type="submit" className="primary" disabled={running}>{running ? 'Running…' : 'Run as console'}</button>{' '}
          <span className="muted">Runs through the same dispatcher and admission limits as any agent call, as agent <code>console</code>, and shows in Live calls.</span>
        </p>
      </form>
      {failure && <p className="callout bad" role="alert">{failure}</p>}
      {outcome && (
        <div className="run-outcome" data-testid="run-outcome">
          <p>
            <button type="button" className="link" onClick={() => openCall(outcome.callId)}>Open this call in Live calls</button>
          </p>
          <CallResult result={outcome.result} label="Result" />
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
