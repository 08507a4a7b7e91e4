/**
 * Candidate changes (what an agent, a code action or a plugin proposes) applied to a snapshot.
 * Changes in one batch apply in order, each seeing the result of the previous ones. Paths must
 * already be normalised workspace-relative POSIX paths.
 */
import { JunctionError, next } from '../../contracts/index.js';
import type { Snapshot } from '../workspace/index.js';
import { applyTextEdits, type TextEdit } from './text-edits.js';

export type CandidateChange =
  | { kind: 'edit'; path: string; edits: TextEdit[] }
  | { kind: 'replace'; path: string; content: string }
  | { kind: 'create'; path: string; content: string }
  | { kind: 'delete'; path: string }
  | { kind: 'rename'; path: string; newPath: string };

export interface AppliedCandidate {
  snapshot: Snapshot;
  /** New path → path before this batch, for documents renamed by the batch. */
  renames: Map<string, string>;
}

function notFound(path: string): JunctionError {
  return new JunctionError('DocumentNotFound', `No document '${path}' in the snapshot.`, { next: next('refreshSnapshot', 'workspace-status'), details: { path } });
}

function exists(path: string): JunctionError {
  return new JunctionError('DocumentExists', `A document '${path}' already exists.`, { next: next('fixArguments'), details: { path } });
}

/** Applies a batch; throws a structured error (and produces nothing) if any change is invalid. */
export function applyCandidate(base: Snapshot, changes: readonly CandidateChange[]): AppliedCandidate {
  const texts = new Map<string, string | null>();
  const current = (path: string): string | undefined => {
    const staged = texts.get(path);
    if (staged === null) return undefined;
    return staged ?? base.get(path)?.text;
  };
  const renames = new Map<string, string>();
  for (const change of changes) {
    const text = current(change.path);
    switch (change.kind) {
      case 'edit':
        if (text === undefined) throw notFound(change.path);
        texts.set(change.path, applyTextEdits(change.path, text, change.edits));
        break;
      case 'replace':
        if (text === undefined) throw notFound(change.path);
        texts.set(change.path, change.content);
        break;
      case 'create':
        if (text !== undefined) throw exists(change.path);
        texts.set(change.path, change.content);
        break;
      case 'delete':
        if (text === undefined) throw notFound(change.path);
        texts.set(change.path, null);
        renames.delete(change.path);
        break;
      case 'rename': {
        if (text === undefined) throw notFound(change.path);
        if (current(change.newPath) !== undefined) throw exists(change.newPath);
        texts.set(change.path, null);
        texts.set(change.newPath, text);
        const origin = renames.get(change.path) ?? change.path;
        renames.delete(change.path);
        if (origin !== change.newPath) renames.set(change.newPath, origin);
        break;
      }
    }
  }
  const writes = new Map<string, string>();
  const deletes = new Set<string>();
  for (const [path, text] of texts) {
    if (text === null) {
      if (base.has(path)) deletes.add(path);
    } else if (base.get(path)?.text !== text) {
      writes.set(path, text);
    }
  }
  return { snapshot: base.derive(writes, deletes), renames };
}

/** Composes rename origins across batches: result maps a head path to its path in the older snapshot. */
export function composeOrigins(earlier: ReadonlyMap<string, string>, later: ReadonlyMap<string, string>, head: Snapshot): Map<string, string> {
  const out = new Map<string, string>();
  const movedAway = new Set(later.values());
  for (const [path, origin] of earlier) if (!movedAway.has(path) && head.has(path)) out.set(path, origin);
  for (const [path, before] of later) {
    const origin = earlier.get(before) ?? before;
    if (origin !== path) out.set(path, origin);
    else out.delete(path);
  }
  return out;
}
