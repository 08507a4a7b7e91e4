/**
 * Every agent tool call, whatever its transport, goes through here: lookup, the lone-surrogate guard,
 * the approval policy (which may hold the call for the operator), the call to its source, and the
 * observer events the console, webhooks and the audit trail consume.
 */
import type { AgentLogLevel, CallView, NestedRequestView, PolicyDecisionView, CallGate, AgentScope } from '../contracts/index.js';
import { boundedText, VIEW_TEXT_CHARS, findLoneSurrogate, closestNames, didYouMean, jsonTextOf, textByteLength, timeOrderedId, validTraceparent, withFields } from '../shared/index.js';
import { errorOutcome, thrownOutcome, type AgentRequests, type AgentTransport, type CallContext, type CallJson, type ToolOutcome } from '../contracts/index.js';
import type { Catalogue, CatalogueEntry } from './catalogue.js';
import { withConsoleElicitations, type ConsoleElicitations } from './console-elicitations.js';
import { RoutedGateRequest } from './gate-request.js';
import { traceAgentRequests } from './nested-trace.js';

export interface CallObserver {
  started(call: CallView): void;
  progress(callId: string, progress: NonNullable<CallView['progress']>): void;
  /** `json` holds the arguments and result as the call received and answered them, serialised once for every observer. */
  finished(call: CallView, result: unknown, json: CallJson): void;
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
  /** The `traceparent` as the agent sent it (`_meta`, or the HTTP header); kept only when valid. */
  traceparent?: unknown;
  /** Told when the source says the call runs long (a plugin answered `Processing`). */
  longRunning?: CallContext['longRunning'];
  /** The task the caller made of the call, if it made one; read when the call ends, for its view. */
  taskId?: () => string | undefined;
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

const PROGRESS_MESSAGE_CHARS = 1024;

function progressView(update: NonNullable<CallView['progress']>): NonNullable<CallView['progress']> {
  return update.message === undefined ? update : { ...update, message: boundedText(update.message, PROGRESS_MESSAGE_CHARS) };
}

export interface DispatcherOptions {
  /** When set, the operator may answer elicitations in the console instead of the agent. */
  elicitations?: ConsoleElicitations;
}

/**
 * A call's agent requests, routed to the console while the operator answers elicitations and traced
 * as nested requests, built when the call first asks: most calls never do, and the wrappers are a
 * dozen closures.
 */
class CallAgentRequests implements AgentRequests {
  private built: AgentRequests | undefined;

  constructor(
    private readonly base: AgentRequests | undefined,
    private readonly elicitations: ConsoleElicitations | undefined,
    private readonly call: { callId: string; tool: string; agent: string },
    private readonly report: (nested: NestedRequestView) => void,
  ) {}

  private get requests(): AgentRequests {
    if (this.built) return this.built;
    const routed = this.elicitations ? withConsoleElicitations(this.base, this.elicitations, this.call) : this.base!;
    return (this.built = traceAgentRequests(routed, this.call.callId, this.report));
  }

  elicit(params: Parameters<AgentRequests['elicit']>[0], signal: AbortSignal, key?: string) {
    return this.requests.elicit(params, signal, key);
  }

  sample(params: Record<string, unknown>, signal: AbortSignal, key?: string) {
    return this.requests.sample(params, signal, key);
  }

  listRoots(signal: AbortSignal, key?: string) {
    return this.requests.listRoots(signal, key);
  }

  log(level: AgentLogLevel, data: unknown, logger?: string): void {
    this.requests.log(level, data, logger);
  }
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
  const reportNested = (nested: NestedRequestView) => notify('nested', nested);

  /** The answer to a name the caller's catalogue lacks, whether nobody publishes it or it is hidden from the caller. */
  const unknownTool = (req: DispatchRequest): ToolOutcome => {
    const explained = catalogue.sources().map((source) => source.explainMissing?.(req.name, req.scope)).find((o) => o !== undefined);
    if (explained) return { ...explained, unknownTool: true };
    const suggestions = closestNames(req.name, catalogue.listTools(req.scope).map((t) => t.name));
    return {
      ...errorOutcome({
        code: 'ToolNotFound',
        message: `Tool '${req.name}' is not in the catalogue.${didYouMean(suggestions)}`,
        next: { kind: 'inspectStatus', tools: ['server-status'] },
        ...(suggestions.length ? { details: { suggestions } } : {}),
      }),
      unknownTool: true,
    };
  };

  /**
   * Admission, the lone-surrogate guard, the policy and the source, for a call whose view `call` the
   * observers were told of; `decided` is told the policy's decision. `agent` and `agentName` are the
   * bounded copies every view holds.
   */
  async function run(req: DispatchRequest, call: CallView, entry: CatalogueEntry | undefined, agentName: string, decided: (policy: PolicyDecisionView) => void): Promise<ToolOutcome> {
    if (!entry) return unknownTool(req);
    const { agent, callId } = call;
    const rate = admission?.take(agent);
    if (rate && !rate.ok) {
      return errorOutcome(
        { code: 'Overloaded', message: rate.message, next: { kind: 'retryLater', tools: [req.name] }, details: { retryAfterMs: rate.retryAfterMs } },
      );
    }
    const surrogateAt = findLoneSurrogate(req.args);
    if (surrogateAt) {
      return errorOutcome(
        { code: 'InvalidArguments', message: `Argument ${surrogateAt} holds a lone UTF-16 surrogate, which cannot be delivered intact; send valid Unicode text.`, next: { kind: 'fixArguments', tools: [req.name] }, details: { path: surrogateAt } },
      );
    }
    const progress: NonNullable<CallContext['progress']> = (update) => {
      notify('progress', callId, progressView(update));
      req.progress?.(update);
    };
    // Optional fields are assigned rather than spread from conditional literals: this runs on every call.
    const context: CallContext = { callId, agent, agentName, transport: req.transport, signal: req.signal, progress };
    if (req.scope) context.scope = req.scope;
    if (call.traceparent) context.traceparent = call.traceparent;
    if (req.longRunning) context.longRunning = req.longRunning;
    if (options.elicitations || req.agentRequests) context.agentRequests = new CallAgentRequests(req.agentRequests, options.elicitations, { callId, tool: req.name, agent }, reportNested);
    const slot = admission?.acquire(agent);
    if (slot && !slot.ok) {
      return errorOutcome({ code: 'Overloaded', message: slot.message, next: { kind: 'retryLater', tools: [req.name] } });
    }
    try {
      let args = req.args;
      if (gate) {
        const judged = gate.authorize(
          new RoutedGateRequest(
            {
              callId,
              tool: req.name,
              descriptor: entry.descriptor,
              agent,
              agentName,
              session: req.session ?? agent,
              transport: req.transport,
              args: req.args,
              signal: req.signal,
              // Through the call's own progress, so the console's live row shows the wait as well as the agent.
              progress,
            },
            entry.source,
            req.scope,
          ),
        );
        // Most calls are decided at once; awaiting a verdict that is not a promise would still cost a turn.
        const verdict = judged instanceof Promise ? await judged : judged;
        decided(verdict.decision);
        // A tool hidden from this session while its call was held never runs: the agent hears what
        // it would have heard had it called after the change.
        if (judged instanceof Promise && !catalogue.resolve(req.name, req.scope)) return unknownTool(req);
        if (!verdict.allowed) return errorOutcome(verdict.error);
        args = verdict.args;
      }
      return await entry.source.callTool(req.name, args, context);
    } finally {
      slot?.release();
    }
  }

  return {
    async call(request) {
      // Sources, admission keys, the policy and every view see the agent's names as bounded copies.
      const agent = boundedText(request.agent, VIEW_TEXT_CHARS);
      const agentName = request.agentName !== undefined ? boundedText(request.agentName, VIEW_TEXT_CHARS) : agent;
      // Checked once here for every route; an invalid one is dropped, as Trace Context asks of a receiver.
      const traceparent = validTraceparent(request.traceparent);
      // Scoped: a tool hidden from this agent session resolves to nothing, exactly as an unknown name.
      const entry = catalogue.resolve(request.name, request.scope);
      // Serialised by JSON.stringify, never taken from the request's bytes: redaction relies on its escaping
      // (audit/redact.ts); and before the call runs, since its source may change the object it was given.
      // Long strings (a file, an image) stay pieces of their own rather than being copied (shared/json-text.ts).
      const argsJson = jsonTextOf(request.args);
      const call: CallView = {
        // Time-ordered: the audit trail's index on call ids then grows at its end (shared/time-ordered-id.ts).
        callId: request.callId ?? timeOrderedId(),
        agent,
        transport: request.transport,
        tool: boundedText(request.name, VIEW_TEXT_CHARS),
        target: entry?.source.id ?? 'none',
        status: 'running',
        startedAt: Date.now(),
        requestBytes: request.requestBytes ?? textByteLength(argsJson),
      };
      // Optional fields are assigned rather than spread from a conditional literal: this runs on every call.
      if (request.replayOf) call.replayOf = request.replayOf;
      if (request.scope?.sessionId) call.sessionId = boundedText(request.scope.sessionId, VIEW_TEXT_CHARS);
      if (traceparent) call.traceparent = traceparent;
      // The started view is never changed afterwards (the finished one is a copy), so observers may keep it.
      notify('started', call);
      let policy: PolicyDecisionView | undefined;
      const outcome = await run(request, call, entry, agentName, (decision) => (policy = decision)).catch((error: unknown) => thrownOutcome(error));
      const errorCode = outcome.error?.code;
      // A result without JSON (a cycle, a BigInt) answers its string form rather than failing the finished call.
      const resultJson = jsonTextOf(outcome.result);
      const finished: CallView = withFields(call, { status: outcome.result.isError ? 'error' : 'ok', durationMs: Date.now() - call.startedAt, responseBytes: textByteLength(resultJson) } as const);
      if (errorCode) finished.errorCode = boundedText(errorCode, VIEW_TEXT_CHARS);
      if (outcome.servedBy) finished.servedBy = outcome.servedBy;
      if (policy) finished.policy = policy;
      const taskId = request.taskId?.();
      if (taskId) finished.taskId = taskId;
      notify('finished', finished, outcome.result, { arguments: argsJson, result: resultJson });
      return withFields(outcome, { resultJson });
    },
  };
}
