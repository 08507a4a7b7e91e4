/**
 * Fix-all evaluation. Document scope is the language service's combined fix for one file; project scope
 * aggregates the per-file combined fixes over every workspace source file of the program. A file's
 * batch that would overlap an already accepted edit is left out whole rather than applied in part.
 */
import { join } from 'node:path';
import type ts from 'typescript';
import { JunctionError, next } from '../../contracts/index.js';
import type { Snapshot } from '../workspace/index.js';
import type { FixAllScope } from './descriptors.js';
import { combinedFix } from './language-service-calls.js';
import { groupByFile, normaliseFileChanges, sameChange, workspacePathOf, type NormalisedOperation } from './normalise.js';

function overlaps(a: ts.TextChange, b: ts.TextChange): boolean {
  if (sameChange(a, b)) return false;
  // Two different insertions at one point have no defined order, so they conflict too.
  if (a.span.length === 0 && b.span.length === 0) return a.span.start === b.span.start;
  return a.span.start < b.span.start + b.span.length && b.span.start < a.span.start + a.span.length;
}

/** Accepts each batch whose edits overlap nothing accepted so far; returns the merged changes. */
export function mergeBatches(batches: readonly (readonly ts.FileTextChanges[])[]): ts.FileTextChanges[] {
  const accepted = new Map<string, { isNewFile: boolean; changes: ts.TextChange[] }>();
  for (const batch of batches) {
    const grouped = groupByFile(batch);
    const conflicts = [...grouped].some(([fileName, group]) => group.changes.some((c) => accepted.get(fileName)?.changes.some((a) => overlaps(a, c))));
    if (conflicts) continue;
    for (const [fileName, group] of grouped) {
      const target = accepted.get(fileName);
      if (target) target.changes.push(...group.changes.filter((c) => !target.changes.some((a) => sameChange(a, c))));
      else accepted.set(fileName, { isNewFile: group.isNewFile, changes: [...group.changes] });
    }
  }
  return [...accepted].map(([fileName, group]) => ({ fileName, isNewFile: group.isNewFile, textChanges: group.changes }));
}

function unsupported(detail: string): JunctionError {
  return new JunctionError('ActionUnsupported', `The fix-all operation ${detail}; it cannot be staged as a source-only change.`, { next: next('resolveTargetAgain', 'list-code-actions'), details: { detail } });
}

export interface FixAllRequest {
  ls: ts.LanguageService;
  realRoot: string;
  snapshot: Snapshot;
  path: string;
  fixId: string;
  scope: FixAllScope;
}

function scopeFiles(request: FixAllRequest): string[] {
  if (request.scope === 'document') return [join(request.realRoot, request.path)];
  const program = request.ls.getProgram();
  if (!program) return [];
  return program
    .getSourceFiles()
    .map((sf) => sf.fileName)
    .filter((fileName) => {
      const path = workspacePathOf(request.realRoot, fileName);
      return path !== undefined && request.snapshot.has(path);
    })
    .sort();
}

export function evaluateFixAll(request: FixAllRequest): NormalisedOperation {
  const batches: ts.FileTextChanges[][] = [];
  for (const fileName of scopeFiles(request)) {
    const combined = combinedFix(request.ls, fileName, request.fixId);
    if (combined.commands && combined.commands.length > 0) throw unsupported(`runs ${combined.commands.length} command(s)`);
    batches.push([...combined.changes]);
  }
  const normalised = normaliseFileChanges(request.realRoot, request.snapshot, mergeBatches(batches));
  if ('excluded' in normalised) throw unsupported(normalised.detail);
  return normalised.ok;
}

export function assertWithinMaxChanges(operation: NormalisedOperation, maxChanges: number): void {
  if (operation.editCount > maxChanges) {
    throw new JunctionError('ChangeLimitExceeded', `The fix-all operation makes ${operation.editCount} edits, more than maxChanges ${maxChanges}; raise maxChanges or use a narrower scope.`, {
      next: next('fixArguments', 'prepare-fix-all'),
      details: { editCount: operation.editCount, maxChanges, documents: operation.files.length },
    });
  }
}
