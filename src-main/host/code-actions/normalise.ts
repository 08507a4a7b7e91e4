/**
 * Turns language-service file changes into the host's candidate changes and a normalised record of the
 * operation (per path: change kind, edit count and content checksum). The record's checksum is what a
 * prepared fix-all promises and what staging must reproduce exactly. Pure: reads only the snapshot.
 */
import type ts from 'typescript';
import type { CandidateChange } from '../transactions/index.js';
import { isWithin, sha256, type Snapshot } from '../workspace/index.js';

export type ExclusionReason = 'commands' | 'interactive' | 'nonSourceEffect' | 'overlappingEdits' | 'providerFailed';

export interface NormalisedFile {
  path: string;
  change: 'modify' | 'create';
  edits: number;
  sha256: string;
}

export interface NormalisedOperation {
  changes: CandidateChange[];
  files: NormalisedFile[];
  editCount: number;
  checksum: string;
}

type FileGroup = { isNewFile: boolean; changes: ts.TextChange[] };

const byStart = (a: ts.TextChange, b: ts.TextChange) => a.span.start - b.span.start || a.span.length - b.span.length;

export type Normalised = { ok: NormalisedOperation } | { excluded: ExclusionReason; detail: string };

/** The workspace path of a language-service file name; undefined outside the workspace or in node_modules. */
export function workspacePathOf(realRoot: string, fileName: string): string | undefined {
  const normalised = fileName.replace(/\\/g, '/');
  const root = realRoot.replace(/\\/g, '/').replace(/\/+$/, '');
  if (!isWithin(root, normalised) || normalised.includes('/node_modules/')) return undefined;
  const path = normalised.slice(root.length + 1);
  return path === '' ? undefined : path;
}

/** Applies non-overlapping TypeScript text changes; undefined when two changes overlap. */
export function applyTsTextChanges(text: string, changes: readonly ts.TextChange[]): string | undefined {
  const sorted = [...changes].sort(byStart);
  let out = '';
  let cursor = 0;
  for (const change of sorted) {
    if (change.span.start < cursor) return undefined;
    out += text.slice(cursor, change.span.start) + change.newText;
    cursor = change.span.start + change.span.length;
  }
  return out + text.slice(cursor);
}

export function sameChange(a: ts.TextChange, b: ts.TextChange): boolean {
  return a.span.start === b.span.start && a.span.length === b.span.length && a.newText === b.newText;
}

/** Groups changes by file, dropping exact duplicates (the same edit proposed for two diagnostics). */
export function groupByFile(fileChanges: readonly ts.FileTextChanges[]): Map<string, FileGroup> {
  const byFile = new Map<string, FileGroup>();
  for (const fc of fileChanges) {
    let group = byFile.get(fc.fileName);
    if (!group) {
      group = { isNewFile: fc.isNewFile === true, changes: [] };
      byFile.set(fc.fileName, group);
    }
    for (const change of fc.textChanges) if (!group.changes.some((c) => sameChange(c, change))) group.changes.push(change);
  }
  return byFile;
}

/** The workspace path and current text a file's changes apply to, or why they fall outside the contract. */
function classify(realRoot: string, snapshot: Snapshot, fileName: string, group: FileGroup): { path: string; existing: string | undefined } | { excluded: ExclusionReason; detail: string } {
  const path = workspacePathOf(realRoot, fileName);
  if (path === undefined) return { excluded: 'nonSourceEffect', detail: `changes '${fileName}', outside the workspace sources` };
  const existing = snapshot.get(path)?.text;
  if (group.isNewFile && existing !== undefined) return { excluded: 'nonSourceEffect', detail: `creates '${path}', which already exists` };
  if (!group.isNewFile && existing === undefined) return { excluded: 'nonSourceEffect', detail: `changes '${path}', which is not a workspace document` };
  return { path, existing };
}

/**
 * A cheap identity of an action's changes against one snapshot: the sorted edits per path. Within one
 * immutable snapshot equal fingerprints mean equal resulting content, without building that content.
 */
export function fingerprintFileChanges(realRoot: string, snapshot: Snapshot, fileChanges: readonly ts.FileTextChanges[]): { ok: string } | { excluded: ExclusionReason; detail: string } {
  const parts: Array<[string, boolean, Array<[number, number, string]>]> = [];
  for (const [fileName, group] of groupByFile(fileChanges)) {
    const target = classify(realRoot, snapshot, fileName, group);
    if ('excluded' in target) return target;
    const sorted = [...group.changes].sort(byStart);
    if (sorted.some((c, i) => i > 0 && c.span.start < sorted[i - 1]!.span.start + sorted[i - 1]!.span.length)) {
      return { excluded: 'overlappingEdits', detail: `proposes overlapping edits to '${target.path}'` };
    }
    if (sorted.length > 0) parts.push([target.path, group.isNewFile, sorted.map((c) => [c.span.start, c.span.length, c.newText])]);
  }
  parts.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0));
  return { ok: parts.length === 0 ? '' : JSON.stringify(parts) };
}

export function normaliseFileChanges(realRoot: string, snapshot: Snapshot, fileChanges: readonly ts.FileTextChanges[]): Normalised {
  const files: NormalisedFile[] = [];
  const changes: CandidateChange[] = [];
  let editCount = 0;
  for (const [fileName, group] of groupByFile(fileChanges)) {
    const target = classify(realRoot, snapshot, fileName, group);
    if ('excluded' in target) return target;
    const { path, existing } = target;
    const content = applyTsTextChanges(existing ?? '', group.changes);
    if (content === undefined) return { excluded: 'overlappingEdits', detail: `proposes overlapping edits to '${path}'` };
    if (content === existing) continue;
    editCount += group.changes.length;
    const change = existing === undefined ? 'create' : 'modify';
    files.push({ path, change, edits: group.changes.length, sha256: sha256(content) });
    changes.push(change === 'create' ? { kind: 'create', path, content } : { kind: 'replace', path, content });
  }
  const order = (a: { path: string }, b: { path: string }) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0);
  files.sort(order);
  changes.sort(order);
  const checksum = sha256(JSON.stringify(files.map((f) => [f.path, f.change, f.sha256])));
  return { ok: { changes, files, editCount, checksum } };
}
