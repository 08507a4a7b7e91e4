/**
 * Read-only plugin views over a host snapshot: a document accessor and a resolver for paths and positions.
 * Accepts any source with `paths()` and `get(path)`, which the host's immutable Snapshot provides. Pure.
 */
import { JunctionError, next } from '../../../contracts/index.js';
import type { DocumentView, ResolvedLocation, SnapshotIdentity, SnapshotView, WorkspaceResolver } from '../../../../plugins/host-api/index.js';

export interface SnapshotSource {
  paths(): readonly string[];
  get(path: string): DocumentView | undefined;
}

export function createSnapshotView(identity: SnapshotIdentity, source: SnapshotSource): SnapshotView {
  const frozenIdentity = Object.freeze({ ...identity });
  return Object.freeze({
    identity: frozenIdentity,
    paths: () => [...source.paths()].sort(),
    document: (path: string) => source.get(path),
  });
}

function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) starts.push(i + 1);
    else if (c === 13 && text.charCodeAt(i + 1) !== 10) starts.push(i + 1);
  }
  return starts;
}

function lineOf(starts: readonly number[], offset: number): number {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

function rangeInvalid(message: string, details: Record<string, unknown>): JunctionError {
  return new JunctionError('RangeInvalid', message, { next: next('fixArguments'), details });
}

export function createResolver(view: SnapshotView): WorkspaceResolver {
  const starts = new Map<string, number[]>();
  const docOf = (input: string): DocumentView => {
    const path = input.replace(/\\/g, '/').replace(/^\.\//, '');
    const doc = view.document(path);
    if (!doc) throw new JunctionError('DocumentNotFound', `No document '${input}' in snapshot ${view.identity.snapshotId}.`, { next: next('refreshSnapshot', 'workspace-status'), details: { path: input } });
    return doc;
  };
  const startsOf = (doc: DocumentView): number[] => {
    let s = starts.get(doc.path);
    if (!s) {
      s = lineStarts(doc.text);
      starts.set(doc.path, s);
    }
    return s;
  };
  const at = (doc: DocumentView, offset: number): ResolvedLocation => {
    const s = startsOf(doc);
    const line = lineOf(s, offset);
    return Object.freeze({ snapshot: view.identity, path: doc.path, offset, line, column: offset - s[line]! });
  };
  return Object.freeze({
    resolvePath: (path: string) => docOf(path).path,
    resolveOffset(path: string, offset: number) {
      const doc = docOf(path);
      if (!Number.isInteger(offset) || offset < 0 || offset > doc.text.length) throw rangeInvalid(`Offset ${offset} is outside '${doc.path}' (length ${doc.text.length}).`, { path: doc.path, offset });
      return at(doc, offset);
    },
    resolveLineColumn(path: string, line: number, column: number) {
      const doc = docOf(path);
      const s = startsOf(doc);
      const start = s[line];
      const end = line + 1 < s.length ? s[line + 1]! : doc.text.length;
      if (!Number.isInteger(line) || !Number.isInteger(column) || start === undefined || column < 0 || start + column > end) {
        throw rangeInvalid(`Line ${line}, column ${column} is outside '${doc.path}'.`, { path: doc.path, line, column });
      }
      return at(doc, start + column);
    },
  });
}
