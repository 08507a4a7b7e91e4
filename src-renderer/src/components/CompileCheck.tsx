/**
 * What a commit approval says about compiling (the diagnostics the transaction adds in its changed files
 * and their importers, computed at review), shown the same way wherever a revision is reviewed: the
 * approval card and Transactions.
 */
import type { CompileCheckView, DiagnosticView } from '../store/types.js';

export function DiagnosticList({ items }: { items: readonly DiagnosticView[] }) {
  return (
    <ul>
      {items.map((d, i) => (
        <li key={i} className={`diag diag-${d.category}`}>
          <code>
            {d.path}:{d.line + 1}:{d.column + 1}
          </code>{' '}
          {d.category} {d.code}: {d.message}
        </li>
      ))}
    </ul>
  );
}

export function CompileCheck({ compile }: { compile: CompileCheckView | undefined }) {
  if (!compile) return null;
  const files = `${compile.checkedFiles} checked file(s): the changed files and their importers`;
  if (compile.addedCount === 0) {
    return (
      <p className="callout ok" data-testid="compile-check">
        Compiles: no new diagnostics in {files}
        {compile.removedCount > 0 ? `; fixes ${compile.removedCount}` : ''}.
      </p>
    );
  }
  return (
    <div className={`callout ${compile.errorsAdded > 0 ? 'bad' : 'warn'}`} data-testid="compile-check" role="alert">
      <strong>{compile.errorsAdded > 0 ? `Adds ${compile.errorsAdded} compiler error(s)` : `Adds ${compile.addedCount} diagnostic(s)`}</strong> in {files}:
      <DiagnosticList items={compile.added} />
      {compile.addedCount > compile.added.length && <p>…and {compile.addedCount - compile.added.length} more.</p>}
    </div>
  );
}
