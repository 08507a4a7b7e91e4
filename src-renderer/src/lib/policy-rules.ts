/** Policy rules, decisions and "always allow" in words, and what an always-allow changes. Pure. */
import type { CallApprovalView, PolicyArgumentMatcher, PolicyChangeView, PolicyDecisionKind, PolicyFinding, PolicyRule } from '../store/types.js';

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

/** Words for how a held call was decided, as the decision log and the Approvals view say it. */
export const DECISION_LABEL: Record<PolicyDecisionKind, string> = {
  'allow-once': 'allowed once',
  'allow-session': 'allowed for the session',
  always: 'always allowed',
  deny: 'denied',
};

/** A decided held call's outcome in words: the decision, or how the wait ended without one. */
export function decisionText(approval: Pick<CallApprovalView, 'state' | 'decision'>): string {
  if (approval.decision) return DECISION_LABEL[approval.decision];
  return approval.state === 'timedOut' ? 'timed out' : approval.state;
}

/** A decided call's arguments on one line, as much as fits in `max` characters (a truncated preview says so). */
export function argumentsLine(approval: Pick<CallApprovalView, 'arguments' | 'argumentsTruncated'>, max = 160): string {
  const text = typeof approval.arguments === 'string' && approval.argumentsTruncated ? approval.arguments : JSON.stringify(approval.arguments ?? null);
  return text.length > max || approval.argumentsTruncated ? `${text.slice(0, max)}…` : text;
}

/** What an "always allow" rule lets through, in words: the held call's tool and agent, and the asking rule's other matchers. */
export function alwaysAllowScope(approval: Pick<CallApprovalView, 'tool' | 'agentName'>, rule: PolicyRule): string {
  const { tool: _tool, agent: _agent, reason: _reason, ...others } = rule;
  const kept = ruleMatchers({ ...others, action: 'allow' });
  const where = kept === 'every call' ? 'with any arguments' : `where the asking rule matched too (${kept})`;
  return `From then on every call of ${approval.tool} by ${approval.agentName} ${where} runs without asking; other agents are still asked.`;
}

/**
 * The findings an inserted rule adds: `after` is the analysis of the policy with a rule inserted at
 * `inserted`, `before` that of the policy as it is (its indices shift past the insertion).
 */
export function findingsAddedBy(after: readonly PolicyFinding[], before: readonly PolicyFinding[], inserted: number): PolicyFinding[] {
  const shift = (i: number): number => (i >= inserted ? i + 1 : i);
  const known = new Set(before.map((f) => `${shift(f.ruleIndex)}:${shift(f.byRule)}:${f.kind}`));
  return after.filter((f) => !known.has(`${f.ruleIndex}:${f.byRule}:${f.kind}`));
}

/**
 * The "always allow" rules among `changes` (oldest first) that are still in force as far as this
 * console saw: no later change took the same rule out. Newest first.
 */
export function undoableAlwaysAllows(changes: readonly PolicyChangeView[]): PolicyChangeView[] {
  const removed = new Set(changes.filter((c) => c.kind === 'undone').map((c) => JSON.stringify(c.rule)));
  return changes.filter((c) => c.kind === 'always-allow' && !removed.has(JSON.stringify(c.rule))).reverse();
}
