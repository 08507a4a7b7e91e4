/**
 * Fix-capable diagnostics per document, cached by snapshot. A snapshot is immutable and the language
 * service's answer depends only on it, so an entry never goes stale; the bound only limits memory.
 * Suggestion diagnostics in particular are recomputed by the service on every request.
 */
import type ts from 'typescript';
import { supportedFixCodes } from './language-service-calls.js';

const CAPACITY = 512;

export class DiagnosticsCache {
  private readonly entries = new Map<string, readonly ts.Diagnostic[]>();

  get(snapshotId: string, path: string, ls: ts.LanguageService, fileName: string): readonly ts.Diagnostic[] {
    const key = `${snapshotId}\u0000${path}`;
    const hit = this.entries.get(key);
    if (hit) return hit;
    const supported = supportedFixCodes();
    const found = [...ls.getSyntacticDiagnostics(fileName), ...ls.getSemanticDiagnostics(fileName), ...ls.getSuggestionDiagnostics(fileName)]
      .filter((d) => d.start !== undefined && supported.has(String(d.code)))
      .sort((a, b) => a.start! - b.start! || a.code - b.code);
    if (this.entries.size >= CAPACITY) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(key, found);
    return found;
  }
}
