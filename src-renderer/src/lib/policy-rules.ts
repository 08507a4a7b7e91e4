/** Policy rules in words, and the rule "always allow" writes. Pure. */
import type { CallApprovalView, PolicyRule } from '../store/types.js';

/** What a rule matches, as one line: `tool remove-*, role runtime, /path ~ /^src\//`. */
export function ruleMatchers(rule: PolicyRule): string {
  const parts: string[] = [];
  if (rule.tool !== undefined) parts.push(`tool ${rule.tool}`);
  if (rule.source !== undefined) parts.push(`source ${rule.source}`);
  if (rule.plugin !== undefined) parts.push(`plugin ${rule.plugin}`);
  if (rule.project !== undefined) parts.push(`project ${rule.project}`);
  if (rule.role !== undefined) parts.push(`role ${rule.role}`);
  if (rule.agent !== undefined) parts.push(`agent ${rule.agent}`);
  for (const [hint, value] of Object.entries(rule.annotations ?? {})) parts.push(`${hint}=${String(value)}`);
  for (const m of rule.arguments ?? []) {
    const test = m.exists !== undefined ? (m.exists ? 'exists' : 'absent') : m.regex !== undefined ? `~ /${m.regex}/` : `= ${JSON.stringify(m.equals)}`;
    parts.push(`${m.pointer || '(root)'} ${test}`);
  }
  return parts.length > 0 ? parts.join(', ') : 'every call';
}

/** The rule "always allow" inserts for a held call (the server writes it just before the rule that asked), and what it covers. */
export function alwaysAllowRule(approval: Pick<CallApprovalView, 'tool' | 'ruleIndex'>): { rule: PolicyRule; index: number; scope: string } {
  return {
    rule: { tool: approval.tool, action: 'allow' },
    index: approval.ruleIndex,
    scope: `From then on every call of ${approval.tool}, from any agent and with any arguments, runs without asking.`,
  };
}
