/**
 * Arguments as a collapsible tree: every value in full (nothing is cut), each object and array with its
 * exact size in UTF-8 bytes, so an operator can see everything an approval would let through.
 */
import { useMemo } from 'react';

const encoder = new TextEncoder();

function bytesOf(value: unknown): number {
  return encoder.encode(JSON.stringify(value) ?? 'null').length;
}

function Leaf({ name, value }: { name: string | undefined; value: unknown }) {
  const text = JSON.stringify(value) ?? 'null';
  return (
    <div className="jt-leaf">
      {name !== undefined && <span className="jt-key">{name}: </span>}
      <span>{text}</span>
      {typeof value === 'string' && value.length > 80 && <span className="jt-meta"> ({value.length} characters)</span>}
    </div>
  );
}

function Node({ name, value, depth }: { name: string | undefined; value: unknown; depth: number }) {
  if (value === null || typeof value !== 'object') return <Leaf name={name} value={value} />;
  const entries: Array<[string, unknown]> = Array.isArray(value) ? value.map((v, i) => [String(i), v]) : Object.entries(value);
  const shape = Array.isArray(value) ? `[${entries.length} item${entries.length === 1 ? '' : 's'}]` : `{${entries.length} key${entries.length === 1 ? '' : 's'}}`;
  return (
    <details open={depth < 3}>
      <summary>
        {name !== undefined && <span className="jt-key">{name}: </span>}
        {shape} <span className="jt-meta">{bytesOf(value)} bytes</span>
      </summary>
      {entries.map(([key, child]) => (
        <Node key={key} name={key} value={child} depth={depth + 1} />
      ))}
    </details>
  );
}

export function JsonTree({ value, label }: { value: unknown; label: string }) {
  const root = useMemo(() => <Node name={undefined} value={value} depth={0} />, [value]);
  return (
    <div className="args-tree" role="group" aria-label={label} tabIndex={0}>
      {root}
    </div>
  );
}
