/**
 * The contract between the catalogue (which lists and resolves tools for an agent session) and whatever
 * decides which tools that agent sees: the visibility rules of the approval policy.
 */
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

/** Whether one agent session sees one tool, under one version of the policy. */
export interface VisibilityJudge {
  /** False when no rule could hide anything, so a listing need not gather facts at all. */
  readonly hidesAny: boolean;
  visible(facts: ListingFacts): boolean;
}

export interface ToolVisibility {
  current(): VisibilityJudge;
  /** Told with the judges before and after every change of the visibility rules. */
  onChanged(listener: (before: VisibilityJudge, after: VisibilityJudge) => void): () => void;
}
