/**
 * Every agent tool call, whatever its transport, goes through here: lookup, the lone-surrogate guard,
 * the approval policy (which may hold the call for the operator), the call to its source, and the
 * observer events the console, webhooks and the audit trail consume.
 */
import { randomUUID } from 'node:crypto';
import type { CallView, NestedRequestView, PolicyDecisionView } from '../control/api.js';
import type { CallGate } from '../shared/call-gate.js';
import { findLoneSurrogate } from '../shared/json.js';
import type { AgentScope } from '../shared/project-pin.js';
import { closestNames, didYouMean } from '../shared/suggest.js';
import { errorOutcome, thrownOutcome, type AgentRequests, type AgentTransport, type CallContext, type ToolOutcome } from '../shared/tool-source.js';
import type { Catalogue } from './catalogue.js';
import { withConsoleElicitations, type ConsoleElicitations } from './console-elicitations.js';
import { traceAgentRequests } from './nested-trace.js';

export interface CallObserver {
  started(call: CallView, args: unknown): void;
  progress(callId: string, progress: NonNullable<CallView['progress']>): void;
  finished(call: CallView, result: unknown): void;
  /** An elicitation or sampling request of the call started or ended. */
  nested?(nested: NestedRequestView): void;
}

export interface DispatchRequest {
  name: string;
  args: Record<string, unknown>;
  agent: string;
  /** The MCP client's name for policy rules; defaults to `agent`. */
  agentName?: string;
  /** The agent session an "allow for this session" decision covers; defaults to `agent`. */
  session?: string;
  transport: AgentTransport;
  signal: AbortSignal;
  progress?: CallContext['progress'];
  /** The calling agent session, for elicitation, sampling and log lines (MCP transports only). */
  agentRequests?: AgentRequests;
  /** Size of the request as received, for the console; computed from args when absent. */
  requestBytes?: number;
  /** A caller that must correlate the call with the console's events (the console itself) picks its id. */
  callId?: string;
  /** The recorded call this one replays (the operator's replay from the console). */
  replayOf?: string;
  /** The agent's session and route pin, for sources that serve several projects. */
  scope?: AgentScope;
}

export interface Dispatcher {
  call(request: DispatchRequest): Promise<ToolOutcome>;
}

/**
 * Per-agent admission: a rate limit and a cap on calls in flight, so one runaway agent cannot starve
 * the others or grow memory without bound. Refusals come back as ordinary structured tool errors.
 */
export interface Admission {
  /** Takes one call from the agent's rate budget; a refusal carries how long to wait. */
  take(agent: string): { ok: true } | { ok: false; message: string; retryAfterMs: number };
  /** Reserves an in-flight slot; `release` must be called exactly when the call ends. */
  acquire(agent: string): { ok: true; release: () => void } | { ok: false; message: string };
}

const byteLength = (value: unknown) => Buffer.byteLength(JSON.stringify(value) ?? '', 'utf8');

export interface DispatcherOptions {
  /** When set, the operator may answer elicitations in the console instead of the agent. */
  elicitations?: ConsoleElicitations;
}

export function createDispatcher(catalogue: Catalogue, observers: readonly CallObserver[] = [], admission?: Admission, gate?: CallGate, options: DispatcherOptions = {}): Dispatcher {
  const notify = <K extends keyof CallObserver>(method: K, ...args: Parameters<NonNullable<CallObserver[K]>>) => {
    for (const observer of observers) {
      try {
        (observer[method] as ((...a: Parameters<NonNullable<CallObserver[K]>>) => void) | undefined)?.(...args);
      } catch {
        // An observer (console, webhook) must never change the outcome of an agent's call.
      }
    }
  };

  const agentRequestsFor = (req: DispatchRequest, callId: string): Pick<CallContext, 'agentRequests'> => {
    const routed = options.elicitations ? withConsoleElicitations(req.agentRequests, options.elicitations, { callId, tool: req.name, agent: req.agent }) : req.agentRequests;
    return routed ? { agentRequests: traceAgentRequests(routed, callId, (nested) => notify('nested', nested)) } : {};
  };

  return {
    async call(request) {
      const entry = catalogue.resolve(request.name);
      const call: CallView = {
        callId: request.callId ?? randomUUID(),
        agent: request.agent,
        transport: request.transport,
        tool: request.name,
        target: entry?.source.id ?? 'none',
        status: 'running',
        startedAt: Date.now(),
        requestBytes: request.requestBytes ?? byteLength(request.args),
        ...(request.replayOf ? { replayOf: request.replayOf } : {}),
      };
      notify('started', { ...call }, request.args);
      let policy: PolicyDecisionView | undefined;
      const outcome = await run(request, call.callId).catch((error: unknown) => thrownOutcome(error));
      const errorCode = outcome.result.isError ? errorCodeOf(outcome.result.structuredContent) : undefined;
      notify('finished', {
        ...call,
        status: outcome.result.isError ? 'error' : 'ok',
        durationMs: Date.now() - call.startedAt,
        responseBytes: byteLength(outcome.result),
        ...(errorCode ? { errorCode } : {}),
        ...(outcome.servedBy ? { servedBy: outcome.servedBy } : {}),
        ...(policy ? { policy } : {}),
      }, outcome.result);
      return outcome;

      async function run(req: DispatchRequest, callId: string): Promise<ToolOutcome> {
        if (!entry) {
          const explained = catalogue.sources().map((source) => source.explainMissing?.(req.name, req.scope)).find((o) => o !== undefined);
          if (explained) return explained;
          const suggestions = closestNames(req.name, catalogue.listTools(req.scope).map((t) => t.name));
          return errorOutcome(
            {
              code: 'ToolNotFound',
              message: `Tool '${req.name}' is not in the catalogue.${didYouMean(suggestions)}`,
              next: { kind: 'inspectStatus', tools: ['server-status'] },
              ...(suggestions.length ? { details: { suggestions } } : {}),
            },
            'notFound',
          );
        }
        const rate = admission?.take(req.agent);
        if (rate && !rate.ok) {
          return errorOutcome(
            { code: 'Overloaded', message: rate.message, next: { kind: 'retryLater', tools: [req.name] }, details: { retryAfterMs: rate.retryAfterMs } },
            'rateLimited',
          );
        }
        const surrogateAt = findLoneSurrogate(req.args);
        if (surrogateAt) {
          return errorOutcome(
            { code: 'InvalidArguments', message: `Argument ${surrogateAt} holds a lone UTF-16 surrogate, which cannot be delivered intact; send valid Unicode text.`, next: { kind: 'fixArguments', tools: [req.name] }, details: { path: surrogateAt } },
            'binding',
          );
        }
        const progress: NonNullable<CallContext['progress']> = (update) => {
          notify('progress', callId, update);
          req.progress?.(update);
        };
        const context: CallContext = {
          callId,
          agent: req.agent,
          agentName: req.agentName ?? req.agent,
          transport: req.transport,
          signal: req.signal,
          ...(req.scope ? { scope: req.scope } : {}),
          progress,
          ...agentRequestsFor(req, callId),
        };
        const slot = admission?.acquire(req.agent);
        if (slot && !slot.ok) {
          return errorOutcome({ code: 'Overloaded', message: slot.message, next: { kind: 'retryLater', tools: [req.name] } }, 'unavailable');
        }
        try {
          let args = req.args;
          if (gate) {
            const verdict = await gate.authorize({
              callId,
              tool: req.name,
              descriptor: entry.descriptor,
              target: entry.source.targetOf?.(req.name) ?? { source: 'host' },
              agent: req.agent,
              agentName: req.agentName ?? req.agent,
              session: req.session ?? req.agent,
              transport: req.transport,
              args: req.args,
              signal: req.signal,
              // Through the call's own progress, so the console's live row shows the wait as well as the agent.
              progress,
            });
            policy = verdict.decision;
            if (!verdict.allowed) return errorOutcome(verdict.error, 'forbidden');
            args = verdict.args;
          }
          return await entry.source.callTool(req.name, args, context);
        } finally {
          slot?.release();
        }
      }
    },
  };
}

function errorCodeOf(structured: unknown): string | undefined {
  if (structured && typeof structured === 'object' && 'error' in structured) {
    const error = (structured as { error: unknown }).error;
    if (error && typeof error === 'object' && 'code' in error && typeof error.code === 'string') return error.code;
  }
  return undefined;
}
