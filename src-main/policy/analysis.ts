/**
 * Which rules of a policy can never decide a call: a rule is covered by an earlier one when every call
 * it matches is matched by that rule first (first match wins). Covered with another action it is
 * shadowed (it never applies; the earlier rule decides instead), with the same action redundant. The
 * check is conservative: it reports only what it can prove from the rules' text. Pure.
 */
import type { PolicyFinding, PolicyRule } from '../contracts/index.js';
import { canonicalJson } from './canonical.js';
import { globToRegExp, isVisibilityAction } from './engine.js';

const GLOB_FIELDS = ['tool', 'plugin', 'project', 'agent'] as const;
/** Fields whose `*` also matches a call that has no such value: every call has a tool and an agent. */
const ALWAYS_PRESENT = new Set<string>(['tool', 'agent']);

function hasWildcard(glob: string): boolean {
  return /(?<!\\)[*?]/.test(glob);
}

function unescapeGlob(glob: string): string {
  return glob.replace(/\\(.)/g, '$1');
}

/** True when glob `a` matches everything glob `b` matches (b absent: every value, or none for optional fields). */
function globCovers(field: string, a: string | undefined, b: string | undefined): boolean {
  if (a === undefined) return true;
  if (b === undefined) return a === '*' && ALWAYS_PRESENT.has(field);
  if (a === b || a === '*') return true;
  return !hasWildcard(b) && globToRegExp(a).test(unescapeGlob(b));
}

/** True when every call `later` matches is matched by `earlier` too. */
export function ruleCovers(earlier: PolicyRule, later: PolicyRule): boolean {
  for (const field of GLOB_FIELDS) if (!globCovers(field, earlier[field], later[field])) return false;
  if (earlier.source !== undefined && earlier.source !== (later.source ?? (later.role !== undefined ? 'bridge' : undefined))) return false;
  if (earlier.role !== undefined && earlier.role !== later.role) return false;
  for (const [hint, value] of Object.entries(earlier.annotations ?? {})) {
    if ((later.annotations as Record<string, boolean | undefined> | undefined)?.[hint] !== value) return false;
  }
  const matchers = earlier.arguments ?? [];
  if (matchers.length === 0) return true;
  // A matcher decides closed for deny and ask (more calls) and open for allow: an allow rule's matcher covers only another allow rule's.
  if (earlier.action === 'allow' && later.action !== 'allow') return false;
  const laterMatchers = new Set((later.arguments ?? []).map((m) => canonicalJson(m)));
  return matchers.every((m) => laterMatchers.has(canonicalJson(m)));
}

export function analysePolicy(rules: readonly PolicyRule[]): PolicyFinding[] {
  const findings: PolicyFinding[] = [];
  for (const [index, rule] of rules.entries()) {
    // Approval rules judge calls and visibility rules listings: one never covers the other.
    const family = isVisibilityAction(rule.action);
    const by = rules.slice(0, index).findIndex((earlier) => isVisibilityAction(earlier.action) === family && ruleCovers(earlier, rule));
    if (by === -1) continue;
    const earlier = rules[by]!;
    const same = earlier.action === rule.action;
    findings.push({
      ruleIndex: index,
      kind: same ? 'redundant' : 'shadowed',
      byRule: by,
      message: same
        ? `Rule ${index} (${rule.action}) never decides ${family ? 'a listing' : 'a call'}: rule ${by} matches every ${family ? 'tool' : 'call'} it matches and also says ${earlier.action}.`
        : `Rule ${index} (${rule.action}) never applies: rule ${by} (${earlier.action}) matches every ${family ? 'tool' : 'call'} it matches first.`,
    });
  }
  return findings;
}
