/** Policy rules in words, and the rule "always allow" writes. Pure. */
import type { CallApprovalView, PolicyArgumentMatcher, PolicyRule } from '../store/types.js';

/** A matcher's one operand (every key but `pointer`) in words; one the console does not know yet shows as its name and value. */
function operandText(matcher: PolicyArgumentMatcher): string {
  const [operand, value] = Object.entries(matcher).find(([key]) => key !== 'pointer') ?? ['equals', undefined];
  switch (operand) {
    case 'exists':
      return value ? 'exists' : 'absent';
    case 'regex':
      return `~ /${String(value)}/`;
    case 'equals':
      return `= ${JSON.stringify(value)}`;
    case 'greaterThan':
      return `> ${JSON.stringify(value)}`;
    default:
      return `${operand} ${JSON.stringify(value)}`;
  }
}

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
  for (const m of rule.arguments ?? []) parts.push(`${m.pointer || '(root)'} ${operandText(m)}`);
  return parts.length > 0 ? parts.join(', ') : 'every call';
}

/** A tool name as a glob that matches exactly that name (`*`, `?` and `\\` escaped). */
export function escapeGlob(name: string): string {
  return name.replace(/[*?\\]/g, (c) => `\\${c}`);
}

/**
 * The rule "always allow" writes for a held call, where, and what it lets through: the server inserts it
 * just before the rule that asked, with that rule's other matchers, for exactly this tool.
 */
export function alwaysAllowRule(approval: Pick<CallApprovalView, 'tool' | 'ruleIndex'>, rules: readonly PolicyRule[]): { rule: PolicyRule; index: number; scope: string } {
  const asked: PolicyRule = rules[approval.ruleIndex] ?? { action: 'ask' };
  const { reason: _reason, action: _action, ...matchers } = asked;
  const rule: PolicyRule = { ...matchers, tool: escapeGlob(approval.tool), action: 'allow', reason: 'always allowed by the operator on <the time you confirm>' };
  const { tool: _tool, ...others } = matchers;
  const kept = ruleMatchers({ ...others, action: 'allow' });
  const scope = kept === 'every call' ? 'from any agent and with any arguments' : `where the asking rule matched too (${kept})`;
  return { rule, index: approval.ruleIndex, scope: `From then on every call of ${approval.tool} ${scope} runs without asking.` };
}
