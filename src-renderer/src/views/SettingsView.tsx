/** The effective configuration: each value, where it came from, and the few that can change at run time. */
import { useEffect, useState } from 'react';
import type { SettingsView as SettingsData, SettingView } from '../store/types.js';
import { useConsole } from '../store/store.js';
import { DataTable, type Column } from '../components/DataTable.js';

function Editor({ setting, onSaved }: { setting: SettingView; onSaved: (view: SettingsData) => void }) {
  const run = useConsole((s) => s.run);
  const [value, setValue] = useState(String(setting.value ?? ''));
  const editable = setting.editable;
  if (!editable) return null;
  const save = async (): Promise<void> => {
    const result = await run('updateSetting', { key: setting.key, value: editable.kind === 'int' ? Number(value) : value }, `${setting.key} set to ${value}`);
    if (result.ok) onSaved(result.value);
  };
  return (
    <form
      className="inline-edit"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {editable.kind === 'enum' ? (
        <select aria-label={`New value for ${setting.key}`} value={value} onChange={(e) => setValue(e.target.value)}>
          {editable.values.map((v) => (
            <option key={v} value={v}>{v}</option>
          ))}
        </select>
      ) : (
        <input aria-label={`New value for ${setting.key}`} type="number" min={editable.min} max={editable.max} value={value} onChange={(e) => setValue(e.target.value)} />
      )}
      <button type="submit" disabled={value === String(setting.value ?? '')}>Apply</button>
    </form>
  );
}

function display(value: SettingView['value']): string {
  if (value === null) return '—';
  if (Array.isArray(value)) return value.length ? value.join(', ') : '(none)';
  return String(value);
}

function columns(onSaved: (view: SettingsData) => void): ReadonlyArray<Column<SettingView>> {
  return [
    { header: 'Setting', rowHeader: true, cell: (s) => <code>{s.key}</code> },
    { header: 'Value', cell: (s) => <code className={s.secret ? 'secret' : undefined}>{display(s.value)}</code> },
    {
      header: 'From',
      cell: (s) => (
        <>
          <span className={`pill origin-${s.origin.replace(' ', '-')}`}>{s.origin}</span>
          {s.source && <span className="muted small">{s.source}</span>}
        </>
      ),
    },
    { header: 'Change at run time', cell: (s) => (s.editable ? <Editor key={String(s.value)} setting={s} onSaved={onSaved} /> : <span className="muted">restart</span>) },
    { header: 'Meaning', className: 'muted', cell: (s) => s.description },
  ];
}

export function SettingsView() {
  const channel = useConsole((s) => s.channel);
  const [settings, setSettings] = useState<SettingsData | undefined>(undefined);
  const [error, setError] = useState<string | undefined>(undefined);
  const [changedOnly, setChangedOnly] = useState(false);
  // Asked again when the elicitation answerer changes elsewhere (Live calls, another console), so both agree.
  const answerer = useConsole((s) => s.data.elicitations?.answerer);
  useEffect(() => {
    void channel?.invoke('settings', {}).then((r) => (r.ok ? setSettings(r.value) : setError(`${r.error.code}: ${r.error.message}`)));
  }, [channel, answerer]);
  const rows = settings?.settings.filter((s) => !changedOnly || s.origin !== 'default') ?? [];
  return (
    <section aria-labelledby="settings-title" className="view">
      <h2 id="settings-title">Settings</h2>
      <p className="muted">
        Command line wins over <code>JUNCTION_*</code> environment variables, which win over the settings file{settings?.settingsPath ? <> (<code>{settings.settingsPath}</code>)</> : null}. Changes made here last until Junction stops.
      </p>
      {error && <p className="callout bad">{error}</p>}
      <label className="field">
        <input type="checkbox" checked={changedOnly} onChange={(e) => setChangedOnly(e.target.checked)} /> Only values that are not defaults
      </label>
      {settings && <DataTable rows={rows} columns={columns(setSettings)} rowKey={(s) => s.key} dense className="settings" testId="settings-table" rowTestId={(s) => `setting-${s.key}`} />}
    </section>
  );
}
