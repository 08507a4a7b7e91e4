/**
 * Turns unified diff text into display rows: file headers (`Index:`, `====`, `---`, `+++`) are dropped
 * because the view names the file itself; hunk headers become a readable line range; every line carries
 * its old and new line numbers. Pure.
 */
export type DiffRowKind = 'context' | 'change' | 'hunk' | 'note';

export interface SideBySideRow {
  kind: DiffRowKind;
  left?: { line: number; text: string; removed: boolean };
  right?: { line: number; text: string; added: boolean };
  text?: string;
}

export type UnifiedRowKind = 'add' | 'remove' | 'context' | 'hunk' | 'note';

export interface UnifiedRow {
  kind: UnifiedRowKind;
  oldLine?: number;
  newLine?: number;
  text: string;
}

const HUNK = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ ?(.*)$/;

function range(start: number, count: number): string {
  if (count === 0) return `after ${start}`;
  return count === 1 ? `${start}` : `${start}–${start + count - 1}`;
}

/** `@@ -10,3 +20,4 @@ fn` → `lines 10–12 → 20–23 · fn` */
export function hunkLabel(header: string): string {
  const m = HUNK.exec(header);
  if (!m) return header;
  const label = `lines ${range(Number(m[1]), m[2] === undefined ? 1 : Number(m[2]))} → ${range(Number(m[3]), m[4] === undefined ? 1 : Number(m[4]))}`;
  return m[5] ? `${label} · ${m[5]}` : label;
}

/**
 * Walks the diff once, calling `emit` for each meaningful line with its line numbers. A hunk's header
 * says how many old and new lines it holds, so a removed line reading `-- x` is never taken for a file header.
 */
function walk(diff: string, emit: (row: UnifiedRow) => void): void {
  let oldLine = 0;
  let newLine = 0;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of diff.split('\n')) {
    const inHunk = oldLeft > 0 || newLeft > 0;
    const hunk = inHunk ? null : HUNK.exec(line);
    if (hunk) {
      oldLine = Number(hunk[1]);
      newLine = Number(hunk[3]);
      oldLeft = hunk[2] === undefined ? 1 : Number(hunk[2]);
      newLeft = hunk[4] === undefined ? 1 : Number(hunk[4]);
      emit({ kind: 'hunk', text: hunkLabel(line) });
    } else if (line.startsWith('\\')) {
      emit({ kind: 'note', text: line.slice(1).trim() });
    } else if (!inHunk) {
      // File headers (Index:, ====, ---, +++) name the file, which the view already shows.
    } else if (line.startsWith('-')) {
      oldLeft -= 1;
      emit({ kind: 'remove', oldLine: oldLine++, text: line.slice(1) });
    } else if (line.startsWith('+')) {
      newLeft -= 1;
      emit({ kind: 'add', newLine: newLine++, text: line.slice(1) });
    } else {
      // A context line; some producers drop the leading space of an empty one.
      oldLeft -= 1;
      newLeft -= 1;
      emit({ kind: 'context', oldLine: oldLine++, newLine: newLine++, text: line.slice(1) });
    }
  }
}

export function unifiedRows(diff: string): UnifiedRow[] {
  const rows: UnifiedRow[] = [];
  walk(diff, (row) => rows.push(row));
  return rows;
}

export function sideBySide(diff: string): SideBySideRow[] {
  const rows: SideBySideRow[] = [];
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
  walk(diff, (row) => {
    if (row.kind === 'remove') removed.push({ line: row.oldLine ?? 0, text: row.text });
    else if (row.kind === 'add') added.push({ line: row.newLine ?? 0, text: row.text });
    else {
      flush();
      if (row.kind === 'context') rows.push({ kind: 'context', left: { line: row.oldLine ?? 0, text: row.text, removed: false }, right: { line: row.newLine ?? 0, text: row.text, added: false } });
      else rows.push({ kind: row.kind, text: row.text });
    }
  });
  flush();
  return rows;
}
