/** Compiler diagnostics of a snapshot as console/tool views, bounded while they are collected. */
import { join } from 'node:path';
import type ts from 'typescript';
import { typescript } from './typescript.js';
import type { DiagnosticView } from '../../contracts/index.js';
import { isSourcePath } from './loader.js';
import type { Snapshot } from './snapshot.js';

let categories: Record<ts.DiagnosticCategory, DiagnosticView['category']> | undefined;
function categoryOf(category: ts.DiagnosticCategory): DiagnosticView['category'] {
  const { DiagnosticCategory } = typescript();
  categories ??= {
    [DiagnosticCategory.Error]: 'error',
    [DiagnosticCategory.Warning]: 'warning',
    [DiagnosticCategory.Suggestion]: 'suggestion',
    [DiagnosticCategory.Message]: 'message',
  };
  return categories[category];
}

function toView(path: string, d: ts.Diagnostic): DiagnosticView {
  const position = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start) : { line: 0, character: 0 };
  return {
    path,
    line: position.line,
    column: position.character,
    code: `TS${d.code}`,
    message: typescript().flattenDiagnosticMessageText(d.messageText, '\n'),
    category: categoryOf(d.category),
  };
}

export interface DiagnosticsQuery {
  paths?: readonly string[];
  /** Stop once this many were collected (callers pass limit + 1 to learn whether more exist). */
  stopAfter?: number;
  errorsOnly?: boolean;
  /** Parse errors only: no type checker, so it costs a fraction of a full check. */
  syntacticOnly?: boolean;
}

/** Syntactic and semantic diagnostics of the snapshot's program files (all, or `paths`), in path order. */
export function collectDiagnostics(service: ts.LanguageService, snapshot: Snapshot, realRoot: string, query: DiagnosticsQuery = {}): DiagnosticView[] {
  const program = query.syntacticOnly ? undefined : service.getProgram();
  const out: DiagnosticView[] = [];
  const stopAfter = query.stopAfter ?? Number.POSITIVE_INFINITY;
  const paths = (query.paths ?? snapshot.paths()).filter((p) => snapshot.has(p));
  for (const path of paths) {
    if (out.length >= stopAfter) break;
    const fileName = join(realRoot, path);
    if (program ? !program.getSourceFile(fileName) : !isSourcePath(path)) continue;
    const found = query.syntacticOnly ? service.getSyntacticDiagnostics(fileName) : [...service.getSyntacticDiagnostics(fileName), ...service.getSemanticDiagnostics(fileName)];
    for (const d of found) {
      if (query.errorsOnly && d.category !== typescript().DiagnosticCategory.Error) continue;
      out.push(toView(path, d));
      if (out.length >= stopAfter) break;
    }
  }
  return out;
}
