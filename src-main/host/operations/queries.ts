/** Read-only questions about a workspace's effective snapshot: documents, diagnostics, symbols, references. */
import { join } from 'node:path';
import type ts from 'typescript';
import type { DiagnosticView } from '../../contracts/index.js';
import { JunctionError, next } from '../../contracts/index.js';
import { clipUtf16, lineStarts, resolvePosition, toLineColumn, type Position } from '../transactions/index.js';
import { collectDiagnostics, isWithin, normaliseRelativePath, type SnapshotIdentity, type Workspace } from '../workspace/index.js';
import { boundCounted, takeBounded, type Bounded } from './bounded.js';

export interface Location {
  path: string;
  start: number;
  length: number;
  line: number;
  column: number;
}

export interface DocumentText {
  snapshot: SnapshotIdentity;
  path: string;
  text: string;
  start: number;
  end: number;
  length: number;
  lineCount: number;
}

export interface SymbolItem extends Location {
  name: string;
  kind: string;
  containerName: string;
}

export interface ReferenceItem extends Location {
  isDefinition: boolean;
  isWriteAccess: boolean;
  lineText: string;
}

const MAX_LINE_TEXT = 200;

function documentOf(workspace: Workspace, rawPath: string): { path: string; text: string } {
  const path = normaliseRelativePath(rawPath);
  const doc = workspace.snapshot().get(path);
  if (!doc) {
    throw new JunctionError('DocumentNotFound', `No document '${path}' in the current snapshot.`, { next: next('refreshSnapshot', 'workspace-status'), details: { path } });
  }
  return { path, text: doc.text };
}

export function readDocument(workspace: Workspace, rawPath: string, range?: { start: Position; end: Position }): DocumentText {
  const { path, text } = documentOf(workspace, rawPath);
  const starts = lineStarts(text);
  const start = range ? resolvePosition(path, text, range.start, starts) : 0;
  const end = range ? resolvePosition(path, text, range.end, starts) : text.length;
  if (end < start) {
    throw new JunctionError('RangeInvalid', `${path}: the range ends (${end}) before it starts (${start}).`, { next: next('fixArguments'), details: { path, start, end } });
  }
  return { snapshot: workspace.identity(), path, text: text.slice(start, end), start, end, length: text.length, lineCount: starts.length };
}

export function diagnostics(workspace: Workspace, paths: string[] | undefined, limit: number): Bounded<DiagnosticView> {
  const snapshot = workspace.snapshot();
  const found = collectDiagnostics(workspace.languageService(snapshot), snapshot, workspace.realRoot, {
    ...(paths ? { paths: paths.map(normaliseRelativePath) } : {}),
    stopAfter: limit + 1,
  });
  return takeBounded(found, limit);
}

/** Maps a language-service file name back to a workspace path; undefined outside the workspace. */
function workspacePath(workspace: Workspace, fileName: string): string | undefined {
  if (!isWithin(workspace.realRoot, fileName) || fileName.includes('/node_modules/')) return undefined;
  const path = fileName.slice(workspace.realRoot.length + 1);
  return workspace.snapshot().has(path) ? path : undefined;
}

function location(workspace: Workspace, path: string, span: ts.TextSpan): Location {
  const text = workspace.snapshot().get(path)?.text ?? '';
  return { path, start: span.start, length: span.length, ...toLineColumn(lineStarts(text), span.start) };
}

export function findSymbols(workspace: Workspace, query: string, limit: number): Bounded<SymbolItem> {
  if (limit === 0) {
    const probe = workspace.languageService().getNavigateToItems(query, 1, undefined, true);
    return { items: [], hasMore: probe.length > 0 };
  }
  const service = workspace.languageService();
  const raw = service.getNavigateToItems(query, limit + 1, undefined, true);
  function* items(): Generator<SymbolItem> {
    for (const item of raw) {
      const path = workspacePath(workspace, item.fileName);
      if (path === undefined) continue;
      yield { name: item.name, kind: item.kind, containerName: item.containerName, ...location(workspace, path, item.textSpan) };
    }
  }
  return takeBounded(items(), limit);
}

export function findReferences(workspace: Workspace, rawPath: string, position: Position, limit: number): Bounded<ReferenceItem> {
  const { path, text } = documentOf(workspace, rawPath);
  const offset = resolvePosition(path, text, position);
  const symbols = workspace.languageService().findReferences(join(workspace.realRoot, path), offset) ?? [];
  const entries = symbols.flatMap((s) => s.references.flatMap((r) => {
    const refPath = workspacePath(workspace, r.fileName);
    return refPath === undefined ? [] : [{ path: refPath, entry: r }];
  }));
  return boundCounted(entries, limit, ({ path: refPath, entry }) => {
    const loc = location(workspace, refPath, entry.textSpan);
    const docText = workspace.snapshot().get(refPath)?.text ?? '';
    const starts = lineStarts(docText);
    const lineEnd = starts[loc.line + 1] ?? docText.length;
    const lineText = docText.slice(starts[loc.line] ?? 0, lineEnd).replace(/\r?\n$/, '');
    return { ...loc, isDefinition: entry.isDefinition ?? false, isWriteAccess: entry.isWriteAccess, lineText: clipUtf16(lineText, MAX_LINE_TEXT) };
  });
}
