/** The plugin calls in flight on the hub, keyed by the bridge's requestId, with the agent requests each has pending. */
import type { AgentRequests } from '../../contracts/index.js';

/** Nested requests one call may have pending at once; more are refused with TooManyRequests. */
export const MAX_PENDING_PER_CALL = 8;

export interface ActiveCall {
  connectionId: string;
  agentRequests: AgentRequests | undefined;
  /** Pending elicitation/sampling requests by the plugin's nested id. */
  nested: Map<string, AbortController>;
}

/** The plugin calls in flight, keyed by the bridge's requestId, with their pending nested requests. */
export class ActiveCalls {
  private readonly calls = new Map<string, ActiveCall>();

  begin(requestId: string, connectionId: string, agentRequests: AgentRequests | undefined): void {
    this.calls.set(requestId, { connectionId, agentRequests, nested: new Map() });
  }

  /** Ends the call and cancels what it still waits for (the agent hears notifications/cancelled). */
  end(requestId: string): void {
    const call = this.calls.get(requestId);
    if (!call) return;
    this.calls.delete(requestId);
    for (const controller of call.nested.values()) controller.abort(new Error('The tool call ended.'));
  }

  get(requestId: string, connectionId: string): ActiveCall | undefined {
    const call = this.calls.get(requestId);
    return call?.connectionId === connectionId ? call : undefined;
  }

  /** Calls in flight and nested requests pending, for leak checks. */
  counts(): { calls: number; nested: number } {
    let nested = 0;
    for (const call of this.calls.values()) nested += call.nested.size;
    return { calls: this.calls.size, nested };
  }
}

