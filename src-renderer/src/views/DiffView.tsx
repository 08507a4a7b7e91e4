import { useMemo, useState } from 'react';
import type { FileDiffView } from '../store/types.js';
import { sideBySide, unifiedRows } from '../lib/diff.js';

const SIGN = { add: '+', remove: '−', context: ' ' } as const;

function Unified({ diff }: { diff: string }) {
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
            <tr key={i} className={`dl-${row.kind}`}>
              <td className="ln">{row.oldLine ?? ''}</td>
              <td className="ln">{row.newLine ?? ''}</td>
              <td className="sign" aria-hidden="true">{SIGN[row.kind]}</td>
              <td>{row.text}</td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}

function SideBySide({ diff }: { diff: string }) {
  const rows = useMemo(() => sideBySide(diff), [diff]);
  return (
    <table className="diff split">
      <tbody>
        {rows.map((row, i) =>
          row.kind === 'hunk' || row.kind === 'note' ? (
            <tr key={i} className={`dl-${row.kind}`}>
              <td colSpan={4}>{row.text}</td>
            </tr>
          ) : (
            <tr key={i}>
              <td className="ln">{row.left?.line ?? ''}</td>
              <td className={row.left?.removed ? 'dl-remove' : row.left ? 'dl-context' : 'dl-none'}>{row.left?.text ?? ''}</td>
              <td className="ln">{row.right?.line ?? ''}</td>
              <td className={row.right?.added ? 'dl-add' : row.right ? 'dl-context' : 'dl-none'}>{row.right?.text ?? ''}</td>
            </tr>
          ),
        )}
      </tbody>
    </table>
  );
}

export function FileDiffs({ files, label }: { files: FileDiffView[]; label: string }) {
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
      {files.map((f) => (
        <details key={f.path} open className="file-diff">
          <summary>
            <span className={`pill change-${f.change}`}>{f.change}</span> <code>{f.previousPath ? `${f.previousPath} → ${f.path}` : f.path}</code>
            {f.truncated && <span className="pill warn"> diff truncated</span>}
          </summary>
          {mode === 'unified' ? <Unified diff={f.diff} /> : <SideBySide diff={f.diff} />}
        </details>
      ))}
    </div>
  );
}
