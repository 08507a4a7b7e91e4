/**
 * The console's one JSON tree: collapsible and keyboard-navigable (ARIA tree pattern), every value in
 * full (nothing is cut; a long string says how long it is), redacted values marked. With `sizes` each
 * object and array states its exact size in UTF-8 bytes, so an operator sees everything an approval
 * would let through. Levels below `openDepth` start collapsed so large results stay readable.
 */
import { useMemo, useState, type KeyboardEvent } from 'react';

/** What the audit trail and the console's call log put in place of a secret. */
const REDACTED = '[redacted]';
/** Strings longer than this say their length. */
const LONG_STRING = 80;

type Container = unknown[] | Record<string, unknown>;

const encoder = new TextEncoder();

export function jsonBytes(value: unknown): number {
  return encoder.encode(JSON.stringify(value) ?? 'null').length;
}

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

function entries(value: Container): Array<[string, unknown]> {
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
  if (typeof value === 'string') {
    return (
      <>
        <span className="jt-string">{JSON.stringify(value)}</span>
        {value.length > LONG_STRING && <span className="jt-meta"> ({value.length} characters)</span>}
      </>
    );
  }
  if (typeof value === 'number') return <span className="jt-number">{String(value)}</span>;
  if (typeof value === 'boolean') return <span className="jt-bool">{String(value)}</span>;
  return <span className="jt-null">{String(value)}</span>;
}

function summary(value: Container): string {
  const n = Array.isArray(value) ? value.length : Object.keys(value).length;
  return Array.isArray(value) ? `[${n} item${n === 1 ? '' : 's'}]` : `{${n} key${n === 1 ? '' : 's'}}`;
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

interface NodeProps {
  name: string | undefined;
  value: unknown;
  depth: number;
  openDepth: number;
  sizes: boolean;
}

function Node({ name, value, depth, openDepth, sizes }: NodeProps) {
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
        <span className="jt-toggle" aria-hidden="true">{container ? (open ? '▾' : '▸') : ''}</span>
        {name !== undefined && <span className="jt-key">{name}: </span>}
        {container ? (
          <>
            <span className="jt-summary">{summary(value)}</span>
            {sizes && <span className="jt-meta"> {jsonBytes(value)} bytes</span>}
          </>
        ) : (
          <Leaf value={value} />
        )}
      </span>
      {container && open && (
        <ul role="group">
          {entries(value).map(([k, v]) => (
            <Node key={k} name={k} value={v} depth={depth + 1} openDepth={openDepth} sizes={sizes} />
          ))}
        </ul>
      )}
    </li>
  );
}

export function JsonTree({ value, label, openDepth = 2, sizes = false }: { value: unknown; label: string; openDepth?: number; sizes?: boolean }) {
  // Rebuilt only for a new value: a parent re-rendering every second (a countdown) must not walk a large tree.
  const root = useMemo(() => <Node name={undefined} value={value} depth={0} openDepth={openDepth} sizes={sizes} />, [value, openDepth, sizes]);
  return (
    <ul className="json-tree" role="tree" aria-label={label}>
      {root}
    </ul>
  );
}
