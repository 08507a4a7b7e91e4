/**
 * Ctrl/Cmd+K: one filterable list to jump to a view, a plugin, a tool (opens the runner) or a recent call.
 * Combobox + listbox pattern: typing filters, arrows move, Enter goes, Escape closes and returns focus.
 */
import { useEffect, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { useConsole } from '../store/store.js';
import { useUi } from '../store/ui.js';
import { VIEWS } from '../views/registry.js';
import { formatTime } from '../lib/format.js';
import { useToolCatalogue } from '../lib/use-tools.js';

export interface PaletteItem {
  id: string;
  group: 'View' | 'Plugin' | 'Tool' | 'Call';
  label: string;
  hint?: string;
  run(): void;
}

const RECENT_CALLS = 50;
const MAX_SHOWN = 60;

export function CommandPalette() {
  const open = useUi((s) => s.paletteOpen);
  const setOpen = useUi((s) => s.setPalette);
  if (!open) return null;
  return <Palette close={() => setOpen(false)} />;
}

function Palette({ close }: { close: () => void }) {
  const plugins = useConsole((s) => s.data.plugins);
  const calls = useConsole((s) => s.data.calls);
  const callIds = useConsole((s) => s.data.callIds);
  const { tools } = useToolCatalogue();
  const ui = useUi();
  const [query, setQuery] = useState('');
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);
  const returnFocus = useRef<Element | null>(document.activeElement);

  useEffect(() => {
    input.current?.focus();
    const previous = returnFocus.current;
    return () => {
      if (previous instanceof HTMLElement) previous.focus();
    };
  }, []);

  const items = useMemo((): PaletteItem[] => {
    const out: PaletteItem[] = VIEWS.map((v) => ({ id: `view:${v.id}`, group: 'View', label: v.label, hint: v.hint, run: () => ui.go(v.id) }));
    for (const p of plugins) out.push({ id: `plugin:${p.connectionId}`, group: 'Plugin', label: p.name || p.connectionId, hint: `${p.role} · ${p.state}`, run: () => ui.openPlugin(p.connectionId) });
    for (const t of tools ?? []) out.push({ id: `tool:${t.name}`, group: 'Tool', label: t.name, hint: `run · ${t.source}`, run: () => ui.openTool(t.name) });
    for (const id of callIds.slice(-RECENT_CALLS).reverse()) {
      const c = calls.get(id);
      if (c) out.push({ id: `call:${id}`, group: 'Call', label: `${c.tool} · ${c.agent}`, hint: `${formatTime(c.startedAt)} · ${c.status === 'error' ? (c.errorCode ?? 'error') : c.status} · ${id.slice(0, 8)}`, run: () => ui.openCall(id) });
    }
    return out;
  }, [plugins, tools, calls, callIds, ui.go, ui.openPlugin, ui.openTool, ui.openCall]);

  const needle = query.trim().toLowerCase();
  const shown = (needle ? items.filter((i) => `${i.group} ${i.label} ${i.hint ?? ''}`.toLowerCase().includes(needle)) : items).slice(0, MAX_SHOWN);
  const current = Math.min(active, Math.max(0, shown.length - 1));

  const choose = (item: PaletteItem | undefined): void => {
    if (!item) return;
    returnFocus.current = null;
    close();
    item.run();
  };

  const onKey = (e: KeyboardEvent<HTMLInputElement>): void => {
    if (e.key === 'ArrowDown') setActive((current + 1) % Math.max(1, shown.length));
    else if (e.key === 'ArrowUp') setActive((current - 1 + shown.length) % Math.max(1, shown.length));
    else if (e.key === 'Enter') choose(shown[current]);
    else if (e.key === 'Escape') close();
    else return;
    e.preventDefault();
  };

  return (
    <div className="palette-backdrop" onMouseDown={(e) => e.target === e.currentTarget && close()}>
      <div className="palette" role="dialog" aria-modal="true" aria-label="Command palette" data-testid="palette">
        <input
          ref={input}
          type="text"
          role="combobox"
          aria-expanded="true"
          aria-controls="palette-list"
          aria-activedescendant={shown[current] ? `pal-${current}` : undefined}
          aria-label="Jump to a view, plugin, tool or call"
          placeholder="Jump to a view, plugin, tool or call…"
          value={query}
          onChange={(e) => {
            setQuery(e.target.value);
            setActive(0);
          }}
          onKeyDown={onKey}
        />
        <ul id="palette-list" role="listbox" aria-label="Matches">
          {shown.map((item, i) => (
            <li
              key={item.id}
              id={`pal-${i}`}
              role="option"
              aria-selected={i === current}
              className={i === current ? 'active' : undefined}
              onMouseDown={(e) => {
                e.preventDefault();
                choose(item);
              }}
            >
              <span className="pal-group">{item.group}</span> <span className="pal-label">{item.label}</span> {item.hint && <span className="muted pal-hint">{item.hint}</span>}
            </li>
          ))}
          {shown.length === 0 && <li className="muted" role="option" aria-selected={false} aria-disabled="true">Nothing matches.</li>}
        </ul>
      </div>
    </div>
  );
}
