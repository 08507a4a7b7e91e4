/** The language-service calls code actions make, with the host's fixed formatting and preferences. */
import type ts from 'typescript';
import { typescript } from '../workspace/index.js';

let format: ts.FormatCodeSettings | undefined;
const formatSettings = (): ts.FormatCodeSettings => (format ??= typescript().getDefaultFormatCodeSettings('\n'));
/** Code fixes run with the service's default preferences: any explicit preference makes each call measurably slower. */
const FIX_PREFERENCES: ts.UserPreferences = {};
/** Refactorings may create files (e.g. move to a new file); those become create changes in the candidate. */
const REFACTOR_PREFERENCES: ts.UserPreferences = { allowTextChangesInNewFiles: true };

let supported: ReadonlySet<string> | undefined;

/** Diagnostic codes any built-in code fix handles. */
export function supportedFixCodes(): ReadonlySet<string> {
  return (supported ??= new Set(typescript().getSupportedCodeFixes()));
}

export function codeFixes(ls: ts.LanguageService, fileName: string, start: number, end: number, code: number): readonly ts.CodeFixAction[] {
  return ls.getCodeFixesAtPosition(fileName, start, end, [code], formatSettings(), FIX_PREFERENCES);
}

export type RefactorPosition = number | ts.TextRange;

export function refactorPosition(start: number, end: number): RefactorPosition {
  return start === end ? start : { pos: start, end };
}

export function applicableRefactors(ls: ts.LanguageService, fileName: string, at: RefactorPosition): ts.ApplicableRefactorInfo[] {
  return ls.getApplicableRefactors(fileName, at, REFACTOR_PREFERENCES, 'invoked', undefined, true);
}

export function refactorEdits(ls: ts.LanguageService, fileName: string, at: RefactorPosition, refactorName: string, actionName: string): ts.RefactorEditInfo | undefined {
  return ls.getEditsForRefactor(fileName, formatSettings(), at, refactorName, actionName, REFACTOR_PREFERENCES);
}

export function combinedFix(ls: ts.LanguageService, fileName: string, fixId: string): ts.CombinedCodeActions {
  return ls.getCombinedCodeFix({ type: 'file', fileName }, fixId, formatSettings(), FIX_PREFERENCES);
}
