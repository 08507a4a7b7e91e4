/**
 * Every agent tool call, whatever its transport, goes through here: lookup, the lone-surrogate guard,
 * the call to its source, and the observer events the console and webhooks consume.
 */
import { randomUUID } from 'node:crypto';
import type { CallView } from '../control/api.js';
import { findLoneSurrogate } from '../shared/json.js';
import type { AgentScope } from '../shared/project-pin.js';
import { errorOutcome, thrownOutcome, type AgentTransport, type CallContext, type ToolOutcome } from '../shared/tool-source.js';
import type { Catalogue } from './catalogue.js';

export interface CallObserver {
  started(call: CallView, args: unknown): void;
  progress(callId: string, progress: NonNullable<CallView['progress']>): void;
  finished(call: CallView, result: unknown): void;
}

export interface DispatchRequest {
  name: string;
  args: Record<string, unknown>;
  agent: string;
  transport: AgentTransport;
  signal: AbortSignal;
  progress?: CallContext['progress'];
  /** Size of the request as received, for the console; computed from args when absent. */
  requestBytes?: number;
  /** A caller that must correlate the call with the console's events (the console itself) picks its id. */
  callId?: string;
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

export function createDispatcher(catalogue: Catalogue, observers: readonly CallObserver[] = [], admission?: Admission): Dispatcher {
  const notify = <K extends keyof CallObserver>(method: K, ...args: Parameters<CallObserver[K]>) => {
    for (const observer of observers) {
      try {
        (observer[method] as (...a: Parameters<CallObserver[K]>) => void)(...args);
      } catch {
        // An observer (console, webhook) must never change the outcome of an agent's call.
      }
    }
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
      };
      notify('started', { ...call }, request.args);
      const outcome = await run(request, call.callId).catch((error: unknown) => thrownOutcome(error));
      const errorCode = outcome.result.isError ? errorCodeOf(outcome.result.structuredContent) : undefined;
      notify('finished', {
        ...call,
        status: outcome.result.isError ? 'error' : 'ok',
        durationMs: Date.now() - call.startedAt,
        responseBytes: byteLength(outcome.result),
        ...(errorCode ? { errorCode } : {}),
        ...(outcome.servedBy ? { servedBy: outcome.servedBy } : {}),
      }, outcome.result);
      return outcome;

      async function run(req: DispatchRequest, callId: string): Promise<ToolOutcome> {
        if (!entry) {
          const explained = catalogue.sources().map((source) => source.explainMissing?.(req.name, req.scope)).find((o) => o !== undefined);
          if (explained) return explained;
          return errorOutcome(
            { code: 'ToolNotFound', message: `Tool '${req.name}' is not in the catalogue.`, next: { kind: 'inspectStatus', tools: ['server-status'] } },
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
        const context: CallContext = {
          callId,
          agent: req.agent,
          transport: req.transport,
          signal: req.signal,
          ...(req.scope ? { scope: req.scope } : {}),
          progress: (update) => {
            notify('progress', callId, update);
            req.progress?.(update);
          },
        };
        const slot = admission?.acquire(req.agent);
        if (slot && !slot.ok) {
          return errorOutcome({ code: 'Overloaded', message: slot.message, next: { kind: 'retryLater', tools: [req.name] } }, 'unavailable');
        }
        try {
          return await entry.source.callTool(req.name, req.args, context);
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
