/**
 * Elicitations and sampling requests the operator answers in the console instead of the agent (setting
 * `elicitation-answerer`, switchable from the console). Pending ones are bounded, end with their call,
 * and an elicitation's answer must satisfy the requested schema before it reaches the tool.
 */
import { randomUUID } from 'node:crypto';
import { CreateMessageRequestParamsSchema, ElicitRequestFormParamsSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationAnswerer, ElicitationAnswerInput, ElicitationsView, PendingElicitationView, PendingSamplingView, SamplingAnswerInput, AgentRequests, ElicitationAnswer } from '../contracts/index.js';
import { JunctionError } from '../contracts/index.js';
import { onFirstNeed, TypedEmitter } from '../shared/index.js';

export const DEFAULT_MAX_PENDING_ELICITATIONS = 64;

/** A request waiting for the operator: its view, and how to settle the tool's promise. */
interface Waiter<View, Answer> {
  view: View;
  resolve: (answer: Answer) => void;
  reject: (error: JunctionError) => void;
}

export interface ConsoleElicitationEvents {
  pending: PendingElicitationView;
  resolved: string;
  answerer: ElicitationAnswerer;
  samplingPending: PendingSamplingView;
  samplingResolved: string;
}

type CallInfo = { callId: string; tool: string; agent: string };

/** The reply a tool receives when the operator answers its sampling request as the model. */
function samplingResult(answer: SamplingAnswerInput): Record<string, unknown> {
  return { role: 'assistant', content: { type: 'text', text: answer.text ?? '' }, model: answer.model ?? 'operator', stopReason: 'endTurn' };
}

export class ConsoleElicitations {
  readonly events = new TypedEmitter<ConsoleElicitationEvents>();
  private readonly pending = new Map<string, Waiter<PendingElicitationView, ElicitationAnswer>>();
  private readonly sampling = new Map<string, Waiter<PendingSamplingView, Record<string, unknown>>>();
  /** The SDK's validator (ajv) is loaded with the first accepted answer, the one thing that needs it. */
  private readonly validator = onFirstNeed('The validator of elicitation answers', () => import('./schema-validator.js').then((module) => module.createSchemaValidator()));

  constructor(
    private current: ElicitationAnswerer,
    private readonly maxPending = DEFAULT_MAX_PENDING_ELICITATIONS,
  ) {}

  get answerer(): ElicitationAnswerer {
    return this.current;
  }

  setAnswerer(answerer: ElicitationAnswerer): ElicitationsView {
    if (answerer !== this.current) {
      this.current = answerer;
      this.events.emit('answerer', answerer);
    }
    return this.view();
  }

  view(): ElicitationsView {
    return { answerer: this.current, pending: [...this.pending.values()].map((p) => p.view), sampling: [...this.sampling.values()].map((p) => p.view) };
  }

  /** Waits for the operator's answer; rejects with InvalidRequest, TooManyRequests or CallNotActive (the call ended). */
  ask(call: CallInfo, params: { message: string; requestedSchema: Record<string, unknown> }, signal: AbortSignal): Promise<ElicitationAnswer> {
    const parsed = ElicitRequestFormParamsSchema.safeParse({ ...params, mode: 'form' });
    if (!parsed.success) return Promise.reject(new JunctionError('InvalidRequest', `The elicitation request is not allowed by the MCP specification: ${parsed.error.message}`));
    const view: PendingElicitationView = { elicitationId: randomUUID(), ...call, message: params.message, requestedSchema: params.requestedSchema, createdAt: Date.now() };
    return this.wait(this.pending, view.elicitationId, view, signal, 'elicitations', () => this.events.emit('pending', view), () => this.events.emit('resolved', view.elicitationId));
  }

  /** Waits for the operator to reply as the model; rejects like `ask`, and with AgentRequestFailed when the operator declines. */
  sample(call: CallInfo, params: Record<string, unknown>, signal: AbortSignal): Promise<Record<string, unknown>> {
    const parsed = CreateMessageRequestParamsSchema.safeParse(params);
    if (!parsed.success) return Promise.reject(new JunctionError('InvalidRequest', `The sampling request is not allowed by the MCP specification: ${parsed.error.message}`));
    const p = parsed.data;
    const view: PendingSamplingView = {
      samplingId: randomUUID(),
      ...call,
      messages: p.messages.map((m) => ({ role: m.role, content: m.content })),
      maxTokens: p.maxTokens,
      ...(p.systemPrompt !== undefined ? { systemPrompt: p.systemPrompt } : {}),
      ...(p.temperature !== undefined ? { temperature: p.temperature } : {}),
      ...(p.stopSequences !== undefined ? { stopSequences: p.stopSequences } : {}),
      ...(p.modelPreferences !== undefined ? { modelPreferences: p.modelPreferences as Record<string, unknown> } : {}),
      ...(p.includeContext !== undefined ? { includeContext: p.includeContext } : {}),
      createdAt: Date.now(),
    };
    return this.wait(this.sampling, view.samplingId, view, signal, 'sampling requests', () => this.events.emit('samplingPending', view), () => this.events.emit('samplingResolved', view.samplingId));
  }

  /** Rejects with ResourceNotFound for an unknown or finished elicitation, ValidationFailed for content outside its schema. */
  async answer(elicitationId: string, answer: ElicitationAnswerInput): Promise<ElicitationsView> {
    // Loaded before the entry is looked up, so the call cannot end between the lookup and the answer.
    const validator = answer.action === 'accept' ? await this.validator() : undefined;
    const entry = this.pending.get(elicitationId);
    if (!entry) throw new JunctionError('ResourceNotFound', `No pending elicitation ${elicitationId}; it was answered or its call ended.`);
    if (validator) {
      const checked = validator.getValidator(entry.view.requestedSchema)(answer.content ?? {});
      if (!checked.valid) throw new JunctionError('ValidationFailed', `The answer does not satisfy the requested schema: ${checked.errorMessage ?? 'invalid'}`);
    }
    this.pending.delete(elicitationId);
    entry.resolve(answer.action === 'accept' ? { action: 'accept', content: answer.content ?? {} } : { action: answer.action });
    return this.view();
  }

  /** Throws ResourceNotFound for an unknown or finished sampling request. */
  answerSampling(samplingId: string, answer: SamplingAnswerInput): ElicitationsView {
    const entry = this.sampling.get(samplingId);
    if (!entry) throw new JunctionError('ResourceNotFound', `No pending sampling request ${samplingId}; it was answered or its call ended.`);
    this.sampling.delete(samplingId);
    if (answer.action === 'accept') entry.resolve(samplingResult(answer));
    else entry.reject(new JunctionError('AgentRequestFailed', 'The operator declined the sampling request.'));
    return this.view();
  }

  pendingCount(): number {
    return this.pending.size + this.sampling.size;
  }

  /**
   * Parks a request until the operator settles it (then `removed` runs) or its call ends (then it rejects
   * with CallNotActive). At most `maxPending` of each kind wait at once.
   */
  private wait<View, Answer>(queue: Map<string, Waiter<View, Answer>>, id: string, view: View, signal: AbortSignal, what: string, added: () => void, removed: () => void): Promise<Answer> {
    if (signal.aborted) return Promise.reject(new JunctionError('CallNotActive', 'The call already ended.'));
    if (queue.size >= this.maxPending) return Promise.reject(new JunctionError('TooManyRequests', `${this.maxPending} ${what} already wait for the operator.`, { details: { limit: this.maxPending } }));
    return new Promise((resolve, reject) => {
      const settle = () => {
        signal.removeEventListener('abort', onAbort);
        removed();
      };
      const onAbort = () => {
        if (!queue.delete(id)) return;
        settle();
        reject(new JunctionError('CallNotActive', 'The call ended before the operator answered.'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      queue.set(id, {
        view,
        resolve: (answer) => {
          settle();
          resolve(answer);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      });
      added();
    });
  }
}

/**
 * A call's agent requests with elicitation and sampling sent to the console while the operator answers
 * them (checked at each request, so switching takes effect mid-call). Roots and logs stay with the
 * agent: its roots are facts about the agent's side, which the operator cannot answer for.
 */
export function withConsoleElicitations(base: AgentRequests | undefined, queue: ConsoleElicitations, call: { callId: string; tool: string; agent: string }): AgentRequests {
  const noAgent = (what: string) => Promise.reject(new JunctionError('CapabilityUnavailable', `This call has no MCP agent session to ${what}.`));
  return {
    elicit: (params, signal, key) => (queue.answerer === 'console' ? queue.ask(call, params, signal) : base ? base.elicit(params, signal, key) : noAgent('ask')),
    sample: (params, signal, key) => (queue.answerer === 'console' ? queue.sample(call, params, signal) : base ? base.sample(params, signal, key) : noAgent('sample from')),
    listRoots: (signal, key) => (base ? base.listRoots(signal, key) : noAgent('ask for roots')),
    log: (level, data, logger) => base?.log(level, data, logger),
  };
}
