import assert from 'node:assert/strict';
/** Tallies of hostile or malformed inputs: how many were tried, refused, accepted, and what broke. */
export interface AttackTally {
  category: string;
  tried: number;
  /** Refused with a structured error (JSON-RPC error, `{ error: { code, message } }`, a hub Close or completion error). */
  refused: number;
  /** Accepted as valid and answered normally. */
  accepted: number;
  /** Inputs that crashed, hung, or earned an unstructured failure; empty when all is well. */
  violations: string[];
}

/** Every category tried something, and every input was refused or accepted without a violation. */
export function assertClean(tallies: AttackTally[]): void {
  for (const t of tallies) {
    assert.ok(t.tried > 0, `${t.category}: nothing was tried`);
    assert.deepEqual(t.violations, [], `${t.category}: ${t.violations.length} violations`);
    assert.equal(t.refused + t.accepted, t.tried, `${t.category}: every input was refused or accepted`);
  }
}

export function tally(category: string): AttackTally {
  return { category, tried: 0, refused: 0, accepted: 0, violations: [] };
}

export function violate(t: AttackTally, input: unknown, what: string): void {
  // Keep the evidence small: the first few violations with the input that caused them.
  if (t.violations.length < 5) t.violations.push(`${what} for ${JSON.stringify(input)?.slice(0, 160)}`);
  else if (t.violations.length === 5) t.violations.push('…');
}
