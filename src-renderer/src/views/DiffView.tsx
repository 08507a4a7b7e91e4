/**
 * File diffs, unified or side by side. Long lines wrap (nothing is cut, neither column is clipped) and a
 * diagnostic is marked under the line it is on, so an error in the review is found in the diff.
 */
import { Fragment, useMemo, useState } from 'react';
import type { DiagnosticView, FileDiffView } from '../store/types.js';
import { sideBySide, unifiedRows } from '../lib/diff.js';

const SIGN = { add: '+', remove: '−', context: ' ' } as const;

/** Diagnostics by the 1-based line of the new text they are on. */
type Marks = ReadonlyMap<number, DiagnosticView[]>;

function marksByLine(marks: readonly DiagnosticView[]): Marks {
  const byLine = new Map<number, DiagnosticView[]>();
  for (const d of marks) byLine.set(d.line + 1, [...(byLine.get(d.line + 1) ?? []), d]);
  return byLine;
}

function MarkRow({ marks, columns }: { marks: DiagnosticView[] | undefined; columns: number }) {
  if (!marks) return null;
  return (
    <tr className="diag-mark" data-testid="diff-diagnostic">
      <td colSpan={columns}>
        {marks.map((d, i) => (
          <div key={i} className={`diag diag-${d.category}`}>
            <span aria-hidden="true">▲ </span>
            {d.category} {d.code} at column {d.column + 1}: {d.message}
          </div>
        ))}
      </td>
    </tr>
  );
}

function Unified({ diff, marks }: { diff: string; marks: Marks }) {
  const rows = useMemo(() => unifiedRows(diff), [diff]);
  return (
    <table className="diff unified">
      <tbody>
        {rows.map((row, i) =>
          row.kind === 'hunk' || row.kind === 'note' ? (
            <tr key={i} className={`dl-${row.kind}`}>
              <td colSpan={4}>{row.text}</td>
            </tr>
          ) : (
            <Fragment key={i}>
              <tr className={`dl-${row.kind}${row.newLine !== undefined && marks.has(row.newLine) ? ' has-diag' : ''}`}>
                <td className="ln">{row.oldLine ?? ''}</td>
                <td className="ln">{row.newLine ?? ''}</td>
                <td className="sign" aria-hidden="true">{SIGN[row.kind]}</td>
                <td className="code">{row.text}</td>
              </tr>
              <MarkRow marks={row.newLine === undefined ? undefined : marks.get(row.newLine)} columns={4} />
            </Fragment>
          ),
        )}
      </tbody>
    </table>
  );
}

function SideBySide({ diff, marks }: { diff: string; marks: Marks }) {
  const rows = useMemo(() => sideBySide(diff), [diff]);
  return (
    <table className="diff split">
      <colgroup>
        <col className="ln-col" />
        <col />
        <col className="ln-col" />
        <col />
      </colgroup>
      <tbody>
        {rows.map((row, i) =>
          row.kind === 'hunk' || row.kind === 'note' ? (
            <tr key={i} className={`dl-${row.kind}`}>
              <td colSpan={4}>{row.text}</td>
            </tr>
          ) : (
            <Fragment key={i}>
              <tr className={row.right && marks.has(row.right.line) ? 'has-diag' : undefined}>
                <td className="ln">{row.left?.line ?? ''}</td>
                <td className={`code ${row.left?.removed ? 'dl-remove' : row.left ? 'dl-context' : 'dl-none'}`}>{row.left?.text ?? ''}</td>
                <td className="ln">{row.right?.line ?? ''}</td>
                <td className={`code ${row.right?.added ? 'dl-add' : row.right ? 'dl-context' : 'dl-none'}`}>{row.right?.text ?? ''}</td>
              </tr>
              <MarkRow marks={row.right ? marks.get(row.right.line) : undefined} columns={4} />
            </Fragment>
          ),
        )}
      </tbody>
    </table>
  );
}

/** `marks`: diagnostics to show on their lines (of the new text), for any of these files. */
export function FileDiffs({ files, label, marks = [] }: { files: FileDiffView[]; label: string; marks?: readonly DiagnosticView[] }) {
  const [mode, setMode] = useState<'unified' | 'split'>('unified');
  return (
    <div className="diffs">
      <div className="toolbar" role="group" aria-label={`Diff layout for ${label}`}>
        <button type="button" aria-pressed={mode === 'unified'} onClick={() => setMode('unified')}>
          Unified
        </button>
        <button type="button" aria-pressed={mode === 'split'} onClick={() => setMode('split')}>
          Side by side
        </button>
      </div>
      {files.length === 0 && <p className="empty">No file changes.</p>}
      {files.map((f) => {
        const byLine = marksByLine(marks.filter((d) => d.path === f.path));
        return (
          <details key={f.path} open className="file-diff">
            <summary>
              <span className={`pill change-${f.change}`}>{f.change}</span> <code>{f.previousPath ? `${f.previousPath} → ${f.path}` : f.path}</code>
              {f.truncated && <span className="pill warn"> diff truncated</span>}
            </summary>
            {mode === 'unified' ? <Unified diff={f.diff} marks={byLine} /> : <SideBySide diff={f.diff} marks={byLine} />}
          </details>
        );
      })}
    </div>
  );
}
