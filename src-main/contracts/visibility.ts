/**
 * The contract between the catalogue (which lists and resolves tools for an agent session) and whatever
 * decides which tools that agent sees: the visibility rules of the approval policy.
 */
import type { PolicyRule } from './console.js';
import type { ToolTarget } from './tool-source.js';

/** What a listing knows of one tool for one agent session; no arguments exist yet. */
export interface ListingFacts {
  tool: string;
  /** Read only when a rule needs it: reading it routes the tool. */
  readonly target: ToolTarget;
  annotations?: Readonly<Record<string, unknown>> | undefined;
  /** The MCP client's name (`http` for /api). */
  agentName: string;
}

/** What a listing knows of one plugin's prompts and resources for one agent session. */
export type ContentFacts = Pick<ListingFacts, 'target' | 'agentName'>;

/** Whether one agent session sees one tool, or one plugin's prompts and resources, under one version of the policy. */
export interface VisibilityJudge {
  /** False when no rule could hide anything, so a listing need not gather facts at all. */
  readonly hidesAny: boolean;
  visible(facts: ListingFacts): boolean;
  /** Judged by the visibility rules that name no `tool` and no `annotations` (those are about tools only). */
  contentVisible(facts: ContentFacts): boolean;
}

export interface ToolVisibility {
  current(): VisibilityJudge;
  /** Told with the judges before and after every change of the visibility rules. */
  onChanged(listener: (before: VisibilityJudge, after: VisibilityJudge) => void): () => void;
}

/** Text (a tool or agent name) as a policy glob matching that text only (`*`, `?` and `\\` escaped). */
export function exactGlob(tool: string): string {
  return tool.replace(/[\\*?]/g, (c) => `\\${c}`);
}

/** The rule the console's "agents see this" switch writes to hide `tool` from every agent. */
export function visibilitySwitchRule(tool: string): PolicyRule {
  return { tool: exactGlob(tool), action: 'hide', reason: 'hidden from agents by the operator' };
}

/** True for a rule that hides exactly `tool` from everyone and nothing else: what the switch writes (or a hand edit equal to it). */
export function isVisibilitySwitch(rule: PolicyRule, tool: string): boolean {
  return rule.action === 'hide' && rule.tool === exactGlob(tool) && Object.keys(rule).every((k) => k === 'tool' || k === 'action' || k === 'reason');
}
