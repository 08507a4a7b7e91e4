/**
 * Canonical JSON (object keys sorted recursively, arrays kept in order) and the digest an operator's
 * decision is bound to. Two argument objects that differ only in key order are the same call.
 */
import { createHash } from 'node:crypto';

export function canonicalJson(value: unknown): string {
  if (value === undefined) return 'null';
  if (value === null || typeof value !== 'object') return JSON.stringify(value) ?? 'null';
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  const entries = Object.keys(value)
    .sort()
    .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
    .map((k) => `${JSON.stringify(k)}:${canonicalJson((value as Record<string, unknown>)[k])}`);
  return `{${entries.join(',')}}`;
}

/** What an operator's decision is bound to: the agent session, the tool, the exact arguments, where the call goes and the rule (by content) that holds it. */
export interface DecisionBinding {
  session: string;
  tool: string;
  args: unknown;
  target: unknown;
  rule: unknown;
}

export function decisionDigest(binding: DecisionBinding): string {
  return createHash('sha256')
    .update(canonicalJson({ session: binding.session, tool: binding.tool, args: binding.args, target: binding.target, rule: binding.rule }))
    .digest('hex');
}
