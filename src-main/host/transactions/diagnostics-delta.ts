/**
 * Which diagnostics a change adds or removes. Positions shift with every edit, so two diagnostics
 * are the same when path, code, category and message match; duplicates count as a multiset.
 */
import type { DiagnosticView } from '../../contracts/index.js';
import type { DiagnosticsDelta } from './transaction.js';

function key(d: DiagnosticView): string {
  return `${d.path}\0${d.code}\0${d.category}\0${d.message}`;
}

function subtract(from: readonly DiagnosticView[], other: readonly DiagnosticView[]): DiagnosticView[] {
  const counts = new Map<string, number>();
  for (const d of other) counts.set(key(d), (counts.get(key(d)) ?? 0) + 1);
  const out: DiagnosticView[] = [];
  for (const d of from) {
    const k = key(d);
    const n = counts.get(k) ?? 0;
    if (n > 0) counts.set(k, n - 1);
    else out.push(d);
  }
  return out;
}

export function diagnosticsDelta(before: readonly DiagnosticView[], after: readonly DiagnosticView[]): DiagnosticsDelta {
  return { added: subtract(after, before), removed: subtract(before, after) };
}
