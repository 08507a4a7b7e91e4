/** Turns unified diff text into rows for the side-by-side view. Pure. */
export type DiffRowKind = 'context' | 'change' | 'hunk' | 'meta';

export interface SideBySideRow {
  kind: DiffRowKind;
  left?: { line: number; text: string; removed: boolean };
  right?: { line: number; text: string; added: boolean };
  text?: string;
}

const HUNK = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

export function sideBySide(diff: string): SideBySideRow[] {
  const rows: SideBySideRow[] = [];
  let oldLine = 0;
  let newLine = 0;
  let removed: Array<{ line: number; text: string }> = [];
  let added: Array<{ line: number; text: string }> = [];

  const flush = (): void => {
    const n = Math.max(removed.length, added.length);
    for (let i = 0; i < n; i++) {
      const l = removed[i];
      const r = added[i];
      const row: SideBySideRow = { kind: 'change' };
      if (l) row.left = { ...l, removed: true };
      if (r) row.right = { ...r, added: true };
      rows.push(row);
    }
    removed = [];
    added = [];
  };

  for (const line of diff.split('\n')) {
    const hunk = HUNK.exec(line);
    if (hunk) {
      flush();
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[2]);
      rows.push({ kind: 'hunk', text: line });
    } else if (line.startsWith('---') || line.startsWith('+++') || line.startsWith('Index:') || line.startsWith('====') || line.startsWith('\\')) {
      flush();
      rows.push({ kind: 'meta', text: line });
    } else if (line.startsWith('-')) {
      removed.push({ line: oldLine++, text: line.slice(1) });
    } else if (line.startsWith('+')) {
      added.push({ line: newLine++, text: line.slice(1) });
    } else if (line.startsWith(' ')) {
      flush();
      const text = line.slice(1);
      rows.push({ kind: 'context', left: { line: oldLine++, text, removed: false }, right: { line: newLine++, text, added: false } });
    }
  }
  flush();
  return rows;
}

export type UnifiedLineKind = 'add' | 'remove' | 'context' | 'hunk' | 'meta';

export function classifyUnifiedLine(line: string): UnifiedLineKind {
  if (line.startsWith('@@')) return 'hunk';
  if (line.startsWith('+++') || line.startsWith('---') || line.startsWith('Index:') || line.startsWith('====')) return 'meta';
  if (line.startsWith('+')) return 'add';
  if (line.startsWith('-')) return 'remove';
  return 'context';
}
