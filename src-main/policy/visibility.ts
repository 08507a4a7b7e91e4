/**
 * Which tools an agent session sees: the policy's visibility rules (`hide`, `show`), judged when a
 * catalogue is listed or a name resolved for that session. They use the approval rules' matchers minus
 * `arguments` (a listing has none), in file order: the first visibility rule that matches decides, and a
 * tool no visibility rule matches is shown. Approval rules take no part here, and visibility rules none
 * in judging a call: a hidden tool is unknown to that agent, so no approval rule ever sees its calls.
 * Pure, apart from the live adapter at the end.
 */
import type { ContentFacts, ListingFacts, ToolVisibility, VisibilityJudge } from '../contracts/index.js';
import { canonicalJson } from './canonical.js';
import { isVisibilityAction, matchRule, type CompiledPolicy, type CompiledRule } from './engine.js';
import type { PolicyStore } from './policy-store.js';

export interface VisibilityVerdict {
  visible: boolean;
  /** The deciding rule's index in the whole policy; null when no visibility rule matched. */
  ruleIndex: number | null;
}

function firstVisibilityRule(policy: CompiledPolicy, applies: (rule: CompiledRule) => boolean, facts: ListingFacts): VisibilityVerdict {
  for (const [index, compiled] of policy.rules.entries()) {
    if (!isVisibilityAction(compiled.rule.action) || !applies(compiled) || !matchRule(compiled, facts).matched) continue;
    return { visible: compiled.rule.action === 'show', ruleIndex: index };
  }
  return { visible: true, ruleIndex: null };
}

export function visibilityOf(policy: CompiledPolicy, facts: ListingFacts): VisibilityVerdict {
  return firstVisibilityRule(policy, () => true, facts);
}

/** A rule naming a tool or annotations is about tools; the others also decide a plugin's prompts and resources. */
const aboutContent = (compiled: CompiledRule) => compiled.rule.tool === undefined && compiled.rule.annotations === undefined;

/** Whether the agent sees the prompts and resources of the plugin `facts.target` names. */
export function contentVisibilityOf(policy: CompiledPolicy, facts: ContentFacts): VisibilityVerdict {
  // No rule read here names a tool, so the tool is never looked at.
  return firstVisibilityRule(policy, aboutContent, { tool: '', agentName: facts.agentName, get target() { return facts.target; } });
}

export function visibilityJudge(policy: CompiledPolicy): VisibilityJudge {
  const hidesAny = policy.rules.some((r) => r.rule.action === 'hide');
  return {
    hidesAny,
    visible: (facts) => !hidesAny || visibilityOf(policy, facts).visible,
    contentVisible: (facts) => !hidesAny || contentVisibilityOf(policy, facts).visible,
  };
}

/** The visibility rules' identity: a policy change that leaves them alone changes no catalogue. */
function visibilityKey(policy: CompiledPolicy): string {
  return canonicalJson(policy.document.rules.filter((r) => isVisibilityAction(r.action)));
}

/** The live visibility of a policy store: a new judge, and the listeners told, whenever its visibility rules change. */
export function storeVisibility(store: PolicyStore): ToolVisibility & { close(): void } {
  let policy = store.current().compiled;
  let judge = visibilityJudge(policy);
  const listeners = new Set<(before: VisibilityJudge, after: VisibilityJudge) => void>();
  const stop = store.onChanged(() => {
    const next = store.current().compiled;
    const changed = visibilityKey(next) !== visibilityKey(policy);
    policy = next;
    if (!changed) return;
    const before = judge;
    judge = visibilityJudge(next);
    for (const listener of [...listeners]) listener(before, judge);
  });
  return {
    current: () => judge,
    onChanged(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    close: stop,
  };
}
