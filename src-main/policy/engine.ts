/**
 * Evaluates the approval policy for one call: ordered rules, the first whose every matcher holds decides;
 * with no match the call is allowed (as without a policy). Visibility rules (hide/show) take no part in
 * judging a call: they are judged when a catalogue is listed (visibility.ts). Pure: no I/O, no clock.
 */
import type { ListingFacts, PolicyAction, PolicyDocument, PolicyRule, PolicyRuleAction, ToolTarget } from '../contracts/index.js';
import { compileMatcher, pointerCandidates, type CompiledMatcher } from './matchers.js';

export interface CallFacts {
  tool: string;
  target: ToolTarget;
  /** The tool's MCP annotations as published. */
  annotations?: Readonly<Record<string, unknown>> | undefined;
  /** The MCP client's name from initialize (`http` for /api). */
  agentName: string;
  args: Readonly<Record<string, unknown>>;
}

export interface Evaluation {
  action: PolicyAction;
  ruleIndex: number | null;
  reason: string;
}

/** MCP's defaults for absent annotations: a tool is assumed to write, destructively, to an open world. */
const ANNOTATION_DEFAULTS: Readonly<Record<string, boolean>> = { destructiveHint: true, readOnlyHint: false, openWorldHint: true, idempotentHint: false };

/** Which family a rule belongs to: approval rules judge calls, visibility rules judge listings. */
export function isVisibilityAction(action: PolicyRuleAction): action is 'hide' | 'show' {
  return action === 'hide' || action === 'show';
}

export interface CompiledRule {
  rule: PolicyRule;
  tool?: RegExp;
  plugin?: RegExp;
  project?: RegExp;
  agent?: RegExp;
  matchers: ReadonlyArray<{ pointer: string; judge: CompiledMatcher }>;
}

export interface CompiledPolicy {
  readonly document: PolicyDocument;
  readonly rules: readonly CompiledRule[];
}

/** `*` matches any run of characters, `?` one character, `\` escapes the next; everything else is literal. */
export function globToRegExp(glob: string): RegExp {
  let source = '';
  for (let i = 0; i < glob.length; i += 1) {
    const c = glob[i]!;
    if (c === '\\' && i + 1 < glob.length) source += escapeRegExp(glob[++i]!);
    else if (c === '*') source += '.*';
    else if (c === '?') source += '.';
    else source += escapeRegExp(c);
  }
  return new RegExp(`^${source}$`, 'su');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, (c) => `\\${c}`);
}

/** Precompiles globs and regexes; the document must already be validated (rules.ts). */
export function compilePolicy(document: PolicyDocument): CompiledPolicy {
  return {
    document,
    rules: document.rules.map((rule) => ({
      rule,
      ...(rule.tool !== undefined ? { tool: globToRegExp(rule.tool) } : {}),
      ...(rule.plugin !== undefined ? { plugin: globToRegExp(rule.plugin) } : {}),
      ...(rule.project !== undefined ? { project: globToRegExp(rule.project) } : {}),
      ...(rule.agent !== undefined ? { agent: globToRegExp(rule.agent) } : {}),
      matchers: (rule.arguments ?? []).map(compileMatcher),
    })),
  };
}

type Match = { matched: true; because: string[] } | { matched: false };

/**
 * One argument matcher against the call's arguments. A deny or ask rule (closed) applies when the pointer
 * fans out into more candidates than can be judged; an allow rule then does not.
 */
function argumentHolds(matcher: { pointer: string; judge: CompiledMatcher }, args: unknown, action: PolicyRuleAction): { holds: boolean; because: string } {
  const closed = action !== 'allow';
  const found = pointerCandidates(args, matcher.pointer);
  if (found.tooMany) return { holds: closed, because: `argument ${matcher.pointer} matches too many arguments ignoring case to be judged, so the rule applies closed` };
  return matcher.judge(found.values, closed);
}

/** `facts.args` is read only by argument matchers, which visibility rules never have. */
export function matchRule(compiled: CompiledRule, facts: ListingFacts & { args?: CallFacts['args'] }): Match {
  const { rule } = compiled;
  const because: string[] = [];
  if (compiled.tool) {
    if (!compiled.tool.test(facts.tool)) return { matched: false };
    because.push(`tool '${facts.tool}' matches '${rule.tool}'`);
  }
  // `facts.target` is read only where a rule needs it: reading it routes the call.
  if (rule.source !== undefined) {
    if (facts.target.source !== rule.source) return { matched: false };
    because.push(`source is ${rule.source}`);
  }
  if (compiled.plugin) {
    const target = facts.target;
    const plugin = target.source === 'host' ? undefined : target.plugin;
    if (plugin === undefined || !compiled.plugin.test(plugin)) return { matched: false };
    because.push(`plugin '${plugin}' matches '${rule.plugin}'`);
  }
  if (compiled.project) {
    const target = facts.target;
    const project = target.source === 'bridge' ? target.project : undefined;
    if (project === undefined || !compiled.project.test(project)) return { matched: false };
    because.push(`project '${project}' matches '${rule.project}'`);
  }
  if (rule.role !== undefined) {
    const target = facts.target;
    if (target.source !== 'bridge' || target.role !== rule.role) return { matched: false };
    because.push(`role is ${rule.role}`);
  }
  if (compiled.agent) {
    if (!compiled.agent.test(facts.agentName)) return { matched: false };
    because.push(`agent '${facts.agentName}' matches '${rule.agent}'`);
  }
  for (const [hint, wanted] of Object.entries(rule.annotations ?? {})) {
    const actual = facts.annotations?.[hint] ?? ANNOTATION_DEFAULTS[hint];
    if (actual !== wanted) return { matched: false };
    because.push(`${hint} is ${String(wanted)}`);
  }
  for (const matcher of compiled.matchers) {
    const result = argumentHolds(matcher, facts.args ?? {}, rule.action);
    if (!result.holds) return { matched: false };
    because.push(result.because);
  }
  return { matched: true, because };
}

export function evaluate(policy: CompiledPolicy, facts: CallFacts): Evaluation {
  let approvalRules = 0;
  for (const [index, compiled] of policy.rules.entries()) {
    const action = compiled.rule.action;
    if (isVisibilityAction(action)) continue;
    approvalRules += 1;
    const match = matchRule(compiled, facts);
    if (!match.matched) continue;
    const why = match.because.length > 0 ? match.because.join(', ') : 'the rule matches every call';
    const note = compiled.rule.reason ? ` (${compiled.rule.reason})` : '';
    return { action, ruleIndex: index, reason: `rule ${index}: ${why}${note}` };
  }
  return { action: 'allow', ruleIndex: null, reason: approvalRules === 0 ? 'no approval policy rules; allowed' : 'no rule matched; allowed by default' };
}
