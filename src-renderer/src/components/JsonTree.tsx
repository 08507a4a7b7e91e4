/**
 * A collapsible, keyboard-navigable JSON tree (ARIA tree pattern): objects and arrays expand, leaves show
 * typed values. Levels below `openDepth` start collapsed so large results stay readable.
 */
import { useState, type KeyboardEvent } from 'react';

/** What the audit trail and the console's call log put in place of a secret. */
const REDACTED = '[redacted]';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

function isContainer(value: unknown): value is Json[] | Record<string, Json> {
  return typeof value === 'object' && value !== null;
}

function entries(value: Json[] | Record<string, Json>): Array<[string, unknown]> {
  return Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
}

function Leaf({ value }: { value: unknown }) {
  if (value === null) return <span className="jt-null">null</span>;
  if (value === REDACTED) {
    return (
      <mark className="redacted" title="Redacted before it was recorded or shown">
        {JSON.stringify(value)}
      </mark>
    );
  }
  if (typeof value === 'string') return <span className="jt-string">{JSON.stringify(value)}</span>;
  if (typeof value === 'number') return <span className="jt-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="jt-bool">{String(value)}</span>;
  return <span className="jt-null">{String(value)}</span>;
}

function summary(value: Json[] | Record<string, Json>): string {
  const n = Array.isArray(value) ? value.length : Object.keys(value).length;
  return Array.isArray(value) ? `[${n}]` : `{${n}}`;
}

function moveFocus(event: KeyboardEvent<HTMLElement>): void {
  const tree = event.currentTarget.closest('[role="tree"]');
  if (!tree) return;
  const items = [...tree.querySelectorAll<HTMLElement>('[role="treeitem"] > .jt-row')];
  const index = items.indexOf(event.target as HTMLElement);
  if (index < 0) return;
  const target = event.key === 'ArrowDown' ? items[index + 1] : event.key === 'ArrowUp' ? items[index - 1] : undefined;
  if (target) {
    event.preventDefault();
    target.focus();
  }
}

function Node({ name, value, depth, openDepth }: { name: string | undefined; value: unknown; depth: number; openDepth: number }) {
  const container = isContainer(value);
  const [open, setOpen] = useState(depth < openDepth);
  const onKey = (event: KeyboardEvent<HTMLElement>): void => {
    if (event.key === 'ArrowRight' && container && !open) {
      event.preventDefault();
      setOpen(true);
    } else if (event.key === 'ArrowLeft' && container && open) {
      event.preventDefault();
      setOpen(false);
    } else if ((event.key === 'Enter' || event.key === ' ') && container) {
      event.preventDefault();
      setOpen((o) => !o);
    } else moveFocus(event);
  };
  return (
    <li role="treeitem" aria-expanded={container ? open : undefined} aria-selected={false}>
      <span className="jt-row" tabIndex={depth === 0 ? 0 : -1} onKeyDown={onKey} onClick={() => container && setOpen((o) => !o)}>
        {container ? <span className="jt-toggle" aria-hidden="true">{open ? '▾' : '▸'}</span> : <span className="jt-toggle" aria-hidden="true" />}
        {name !== undefined && <span className="jt-key">{name}: </span>}
        {container ? <span className="jt-summary">{summary(value)}</span> : <Leaf value={value} />}
      </span>
      {container && open && (
        <ul role="group">
          {entries(value).map(([k, v]) => (
            <Node key={k} name={k} value={v} depth={depth + 1} openDepth={openDepth} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function JsonTree({ value, label, openDepth = 2 }: { value: unknown; label: string; openDepth?: number }) {
  return (
    <ul className="json-tree" role="tree" aria-label={label}>
      <Node name={undefined} value={value} depth={0} openDepth={openDepth} />
    </ul>
  );
}
