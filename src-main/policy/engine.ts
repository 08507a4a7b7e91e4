/**
 * Evaluates the approval policy for one call: ordered rules, the first whose every matcher holds decides;
 * with no match the call is allowed (as without a policy). Pure: no I/O, no clock.
 */
import type { PolicyAction, PolicyArgumentMatcher, PolicyDocument, PolicyRule, ToolTarget } from '../contracts/index.js';
import { canonicalJson } from './canonical.js';
import { MAX_REGEX_INPUT } from './regex-safety.js';

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

interface CompiledRule {
  rule: PolicyRule;
  tool?: RegExp;
  plugin?: RegExp;
  project?: RegExp;
  agent?: RegExp;
  regexes: ReadonlyMap<number, RegExp>;
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

export function escapeGlob(text: string): string {
  return text.replace(/[\\*?]/g, (c) => `\\${c}`);
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
      regexes: new Map((rule.arguments ?? []).flatMap((m, i) => (m.regex !== undefined ? [[i, new RegExp(m.regex, 'u')] as const] : []))),
    })),
  };
}

/** RFC 6901: `''` is the whole value; `~1` is `/`, `~0` is `~`; array steps are decimal indexes. */
export function resolvePointer(value: unknown, pointer: string): { found: true; value: unknown } | { found: false } {
  if (pointer === '') return { found: true, value };
  let current: unknown = value;
  for (const raw of pointer.slice(1).split('/')) {
    const step = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(current)) {
      if (!/^(0|[1-9]\d*)$/.test(step) || Number(step) >= current.length) return { found: false };
      current = current[Number(step)];
    } else if (current !== null && typeof current === 'object' && Object.hasOwn(current, step)) {
      current = (current as Record<string, unknown>)[step];
    } else {
      return { found: false };
    }
  }
  return { found: true, value: current };
}

type Match = { matched: true; because: string[] } | { matched: false };

function textOf(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

/**
 * A regex is never run on a value longer than MAX_REGEX_INPUT: such a value satisfies ask and deny rules
 * and never satisfies allow rules, so an oversized argument cannot slip past a rule meant to stop it.
 */
function argumentHolds(matcher: PolicyArgumentMatcher, regex: RegExp | undefined, args: unknown, action: PolicyAction): { holds: boolean; because: string } {
  const found = resolvePointer(args, matcher.pointer);
  const at = `argument ${matcher.pointer || '(root)'}`;
  if (matcher.exists !== undefined) return { holds: found.found === matcher.exists, because: `${at} ${matcher.exists ? 'exists' : 'is absent'}` };
  if (!found.found) return { holds: false, because: `${at} is absent` };
  if (regex) {
    const text = textOf(found.value);
    if (text === undefined) return { holds: false, because: `${at} is not text` };
    if (text.length > MAX_REGEX_INPUT) return { holds: action !== 'allow', because: `${at} is longer than ${MAX_REGEX_INPUT} characters, so /${matcher.regex}/ is not run and the rule applies closed` };
    return { holds: regex.test(text), because: `${at} matches /${matcher.regex}/` };
  }
  return { holds: canonicalJson(found.value) === canonicalJson(matcher.equals), because: `${at} equals ${canonicalJson(matcher.equals)}` };
}

function matchRule(compiled: CompiledRule, facts: CallFacts): Match {
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
  for (const [i, matcher] of (rule.arguments ?? []).entries()) {
    const result = argumentHolds(matcher, compiled.regexes.get(i), facts.args, rule.action);
    if (!result.holds) return { matched: false };
    because.push(result.because);
  }
  return { matched: true, because };
}

export function evaluate(policy: CompiledPolicy, facts: CallFacts): Evaluation {
  for (const [index, compiled] of policy.rules.entries()) {
    const match = matchRule(compiled, facts);
    if (!match.matched) continue;
    const why = match.because.length > 0 ? match.because.join(', ') : 'the rule matches every call';
    const note = compiled.rule.reason ? ` (${compiled.rule.reason})` : '';
    return { action: compiled.rule.action, ruleIndex: index, reason: `rule ${index}: ${why}${note}` };
  }
  return { action: 'allow', ruleIndex: null, reason: policy.rules.length === 0 ? 'no approval policy rules; allowed' : 'no rule matched; allowed by default' };
}
