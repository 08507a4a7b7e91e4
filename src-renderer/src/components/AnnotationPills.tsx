/** A tool's MCP annotations as pills: read-only, destructive, idempotent, open world. */
const PILLS: ReadonlyArray<[hint: string, label: string, tone: string]> = [
  ['readOnlyHint', 'read-only', 'ok'],
  ['destructiveHint', 'destructive', 'bad'],
  ['idempotentHint', 'idempotent', ''],
  ['openWorldHint', 'open world', 'warn'],
];

export function AnnotationPills({ annotations }: { annotations: Record<string, unknown> | undefined }) {
  const a = annotations ?? {};
  return (
    <>
      {PILLS.filter(([hint]) => a[hint] === true).map(([hint, label, tone]) => (
        <span key={hint} className={`pill ${tone}`}>
          {label}
        </span>
      ))}
    </>
  );
}
