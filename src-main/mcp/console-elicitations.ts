/**
 * Elicitations the operator answers in the console instead of the agent (setting `elicitation-answerer`,
 * switchable from the console). Pending ones are bounded, end with their call, and an answer must
 * satisfy the requested schema before it reaches the tool.
 */
import { randomUUID } from 'node:crypto';
import { ElicitRequestFormParamsSchema } from '@modelcontextprotocol/sdk/types.js';
import type { ElicitationAnswerer, ElicitationAnswerInput, ElicitationsView, PendingElicitationView, AgentRequests, ElicitationAnswer } from '../contracts/index.js';
import { JunctionError } from '../contracts/index.js';
import { TypedEmitter } from '../shared/index.js';
import { createSchemaValidator } from './schema-validator.js';

export const DEFAULT_MAX_PENDING_ELICITATIONS = 64;

interface Pending {
  view: PendingElicitationView;
  resolve: (answer: ElicitationAnswer) => void;
}

export interface ConsoleElicitationEvents {
  pending: PendingElicitationView;
  resolved: string;
  answerer: ElicitationAnswerer;
}

export class ConsoleElicitations {
  readonly events = new TypedEmitter<ConsoleElicitationEvents>();
  private readonly pending = new Map<string, Pending>();
  private readonly validator = createSchemaValidator();

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
    return { answerer: this.current, pending: [...this.pending.values()].map((p) => p.view) };
  }

  /** Waits for the operator's answer; rejects with InvalidRequest, TooManyRequests or CallNotActive (the call ended). */
  ask(call: { callId: string; tool: string; agent: string }, params: { message: string; requestedSchema: Record<string, unknown> }, signal: AbortSignal): Promise<ElicitationAnswer> {
    const parsed = ElicitRequestFormParamsSchema.safeParse({ ...params, mode: 'form' });
    if (!parsed.success) return Promise.reject(new JunctionError('InvalidRequest', `The elicitation request is not allowed by the MCP specification: ${parsed.error.message}`));
    if (signal.aborted) return Promise.reject(new JunctionError('CallNotActive', 'The call already ended.'));
    if (this.pending.size >= this.maxPending) {
      return Promise.reject(new JunctionError('TooManyRequests', `${this.maxPending} elicitations already wait for the operator.`, { details: { limit: this.maxPending } }));
    }
    const view: PendingElicitationView = { elicitationId: randomUUID(), ...call, message: params.message, requestedSchema: params.requestedSchema, createdAt: Date.now() };
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (this.remove(view.elicitationId)) reject(new JunctionError('CallNotActive', 'The call ended before the operator answered.'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.pending.set(view.elicitationId, {
        view,
        resolve: (answer) => {
          signal.removeEventListener('abort', onAbort);
          resolve(answer);
        },
      });
      this.events.emit('pending', view);
    });
  }

  /** Throws ResourceNotFound for an unknown or finished elicitation, ValidationFailed for content outside its schema. */
  answer(elicitationId: string, answer: ElicitationAnswerInput): ElicitationsView {
    const entry = this.pending.get(elicitationId);
    if (!entry) throw new JunctionError('ResourceNotFound', `No pending elicitation ${elicitationId}; it was answered or its call ended.`);
    if (answer.action === 'accept') {
      const checked = this.validator.getValidator(entry.view.requestedSchema)(answer.content ?? {});
      if (!checked.valid) throw new JunctionError('ValidationFailed', `The answer does not satisfy the requested schema: ${checked.errorMessage ?? 'invalid'}`);
    }
    this.remove(elicitationId);
    entry.resolve(answer.action === 'accept' ? { action: 'accept', content: answer.content ?? {} } : { action: answer.action });
    return this.view();
  }

  pendingCount(): number {
    return this.pending.size;
  }

  private remove(elicitationId: string): boolean {
    if (!this.pending.delete(elicitationId)) return false;
    this.events.emit('resolved', elicitationId);
    return true;
  }
}

/**
 * A call's agent requests with elicitation sent to the console while the operator answers them
 * (checked at each request, so switching takes effect mid-call); sampling and logs stay with the agent.
 */
export function withConsoleElicitations(base: AgentRequests | undefined, queue: ConsoleElicitations, call: { callId: string; tool: string; agent: string }): AgentRequests {
  const noAgent = (what: string) => Promise.reject(new JunctionError('CapabilityUnavailable', `This call has no MCP agent session to ${what}.`));
  return {
    elicit: (params, signal) => (queue.answerer === 'console' ? queue.ask(call, params, signal) : base ? base.elicit(params, signal) : noAgent('ask')),
    sample: (params, signal) => (base ? base.sample(params, signal) : noAgent('sample from')),
    log: (level, data, logger) => base?.log(level, data, logger),
  };
}
