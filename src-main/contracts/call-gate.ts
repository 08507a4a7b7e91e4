/**
 * The contract between the dispatcher (every call passes it) and whatever decides whether a call may run:
 * the approval policy. The gate may hold a call for the operator; it answers with the arguments the call
 * must run with, or a structured refusal, and always with its decision as data.
 */
import type { PolicyDecisionView } from './console.js';
import type { StructuredError } from './errors.js';
import type { AgentTransport, CallContext, ToolDescriptor, ToolTarget } from './tool-source.js';

export interface GateRequest {
  callId: string;
  tool: string;
  descriptor: ToolDescriptor;
  target: ToolTarget;
  /** Where the call would go now, routed again (a held call's plugin may have been replaced); absent when the target cannot change. */
  retarget?(): ToolTarget;
  /** Who asked, for display (client name/version plus session label). */
  agent: string;
  /** The MCP client's name (`http` for /api); rules match on it. */
  agentName: string;
  /** The agent session a session-wide approval applies to. */
  session: string;
  transport: AgentTransport;
  args: Record<string, unknown>;
  signal: AbortSignal;
  progress?: CallContext['progress'];
}

export type GateVerdict =
  | { allowed: true; decision: PolicyDecisionView; args: Record<string, unknown> }
  | { allowed: false; decision: PolicyDecisionView; error: StructuredError };

export interface CallGate {
  /** A verdict at once when the policy decides; a promise only when the call is held for the operator. */
  authorize(request: GateRequest): GateVerdict | Promise<GateVerdict>;
}
