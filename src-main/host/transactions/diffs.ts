/** Unified diffs between two snapshots, one entry per changed document, in path order. */
import { createRequire } from 'node:module';
import type { FileDiffView } from '../../contracts/index.js';
import type { Snapshot } from '../workspace/index.js';
import { clipUtf16 } from './text-edits.js';

type DiffLibrary = typeof import('diff');
let library: DiffLibrary | undefined;
/** Loaded with the first diff (staging needs an open workspace), not at start. */
const diffLibrary = (): DiffLibrary => (library ??= createRequire(import.meta.url)('diff') as DiffLibrary);

export interface FileDiff {
  path: string;
  change: FileDiffView['change'];
  previousPath?: string;
  /** Full unified diff; views may truncate it, the domain never does. */
  diff: string;
}

function patch(oldPath: string | null, newPath: string | null, before: string, after: string): string {
  return diffLibrary().createTwoFilesPatch(oldPath === null ? '/dev/null' : `a/${oldPath}`, newPath === null ? '/dev/null' : `b/${newPath}`, before, after, undefined, undefined, { context: 3 });
}

/** `origins` maps a path in `after` to its path in `before` for renamed documents. */
export function diffSnapshots(before: Snapshot, after: Snapshot, origins: ReadonlyMap<string, string> = new Map()): FileDiff[] {
  const out: FileDiff[] = [];
  const renamedFrom = new Set(origins.values());
  for (const path of after.paths()) {
    const doc = after.get(path)!;
    const origin = origins.get(path);
    const previous = before.get(origin ?? path);
    if (origin !== undefined && previous !== undefined) {
      out.push({ path, change: 'rename', previousPath: origin, diff: patch(origin, path, previous.text, doc.text) });
    } else if (previous === undefined) {
      out.push({ path, change: 'create', diff: patch(null, path, '', doc.text) });
    } else if (previous.sha256 !== doc.sha256) {
      out.push({ path, change: 'modify', diff: patch(path, path, previous.text, doc.text) });
    }
  }
  for (const path of before.paths()) {
    if (!after.has(path) && !renamedFrom.has(path)) {
      out.push({ path, change: 'delete', diff: patch(path, null, before.get(path)!.text, '') });
    }
  }
  return out.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Bounds a diff for display; the flag tells the reader the text is incomplete. */
export function toFileDiffView(diff: FileDiff, maxChars: number): FileDiffView {
  const view: FileDiffView = { path: diff.path, change: diff.change, diff: clipUtf16(diff.diff, maxChars), truncated: diff.diff.length > maxChars };
  if (diff.previousPath !== undefined) view.previousPath = diff.previousPath;
  return view;
}
