/**
 * The plugin calls in flight on the hub (tool calls, and prompt gets and resource reads, whose plugin
 * may ask too), keyed by the bridge's requestId, with the agent requests (elicitation, sampling,
 * roots) each has pending. A pending agent request holds its call's whole-call deadline (a human's
 * wait is not the plugin's slowness) and is bounded per call and per connection: every pending one
 * occupies one of the connection's parallel hub invocations, so past half of them the plugin is
 * refused with TooManyRequests while its other hub methods (completions, progress, logs) still have
 * room. A key names one pending request of a call at a time (the agent answers by key).
 */
import type { AgentRequests } from '../../contracts/index.js';
import type { CallDeadline } from '../calls/index.js';

/** Nested requests one call may have pending at once; more are refused with TooManyRequests. */
export const MAX_PENDING_PER_CALL = 8;

export interface ActiveCall {
  connectionId: string;
  agentRequests: AgentRequests | undefined;
  deadline: CallDeadline;
  /** Pending elicitation/sampling/roots requests by the plugin's nested id. */
  nested: Map<string, AbortController>;
  /** The keys the pending requests were asked under. */
  keys: Set<string>;
}

export type NestedStart = { ok: true; controller: AbortController; end: () => void } | { ok: false; code: 'TooManyRequests' | 'InvalidRequest'; message: string };

/** The plugin calls in flight, keyed by the bridge's requestId, with their pending nested requests. */
export class ActiveCalls {
  private readonly calls = new Map<string, ActiveCall>();
  private readonly pendingByConnection = new Map<string, number>();

  constructor(
    /** Nested requests one connection may have pending across its calls. */
    readonly maxPendingPerConnection: number,
    /** How long one nested request may wait for its answer: the bound on how long it holds its call's deadline. */
    readonly agentRequestTimeoutMs: number,
  ) {}

  begin(requestId: string, connectionId: string, agentRequests: AgentRequests | undefined, deadline: CallDeadline): void {
    this.calls.set(requestId, { connectionId, agentRequests, deadline, nested: new Map(), keys: new Set() });
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

  /** Registers one pending agent request of `call` and holds its deadline until `end`; refused past the bounds, for a reused id or for a key already pending. */
  nest(call: ActiveCall, nestedId: string, key?: string): NestedStart {
    const onConnection = this.pendingByConnection.get(call.connectionId) ?? 0;
    if (key !== undefined && call.keys.has(key)) {
      return { ok: false, code: 'InvalidRequest', message: `The key '${key}' already names a pending request of this call; each pending request needs a key of its own.` };
    }
    if (call.nested.size >= MAX_PENDING_PER_CALL || call.nested.has(nestedId)) {
      return { ok: false, code: 'TooManyRequests', message: `A call may have at most ${MAX_PENDING_PER_CALL} pending agent requests, each with a distinct id.` };
    }
    if (onConnection >= this.maxPendingPerConnection) {
      return { ok: false, code: 'TooManyRequests', message: `A plugin connection may have at most ${this.maxPendingPerConnection} pending agent requests across its calls.` };
    }
    const controller = new AbortController();
    call.nested.set(nestedId, controller);
    if (key !== undefined) call.keys.add(key);
    this.pendingByConnection.set(call.connectionId, onConnection + 1);
    const release = call.deadline.hold();
    let ended = false;
    return {
      ok: true,
      controller,
      end: () => {
        if (ended) return;
        ended = true;
        release();
        call.nested.delete(nestedId);
        if (key !== undefined) call.keys.delete(key);
        const left = (this.pendingByConnection.get(call.connectionId) ?? 1) - 1;
        if (left > 0) this.pendingByConnection.set(call.connectionId, left);
        else this.pendingByConnection.delete(call.connectionId);
      },
    };
  }

  /** Calls in flight and nested requests pending, for leak checks. */
  counts(): { calls: number; nested: number } {
    let nested = 0;
    for (const call of this.calls.values()) nested += call.nested.size;
    return { calls: this.calls.size, nested };
  }
}
