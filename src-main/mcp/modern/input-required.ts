/**
 * Multi round-trip requests (SEP-2322) over the bridge. A 2026-07-28 agent cannot be sent a request,
 * so when a plugin's tool (or prompt or resource handler) elicits, samples or asks for roots while it
 * serves a request, the request keeps running, parked here with its question, and the agent gets an
 * InputRequiredResult naming every question asked in the same turn, each under the key its plugin gave
 * it (or `elicitation-N`, `sampling-N`, `roots-N`). The agent's retry (same request, `inputResponses`,
 * the sealed `requestState`) answers them and the call goes on to its result or its next questions; a
 * first request may carry answers ahead, which answer the questions of its first turn by key. Parked
 * calls are bounded in number and in time: one the agent never comes back to is aborted, so its plugin
 * stops waiting.
 */
import { randomUUID } from 'node:crypto';
import { CreateMessageResultSchema, ElicitResultSchema, ListRootsResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { JunctionError, type AgentLogLevel, type AgentRequests, type ElicitationAnswer, type RootsAnswer } from '../../contracts/index.js';
import { onAbort } from '../../shared/index.js';
import { formElicitation, samplingRequest } from '../agent-requests.js';
import type { ClientCapabilities } from './envelope.js';
import type { RequestStateSeal } from './request-state.js';

export interface InputRequest {
  method: 'elicitation/create' | 'sampling/createMessage' | 'roots/list';
  params: Record<string, unknown>;
}

export type CallStep<T> =
  | { kind: 'done'; outcome: T }
  | { kind: 'input'; inputRequests: Record<string, InputRequest>; requestState: string }
  /** The call failed after its plugin asked for something the agent did not declare. */
  | { kind: 'missingCapability'; capabilities: Record<string, Record<string, never>> }
  /** The call went long (its plugin answered `Processing`) and the agent declared tasks: the task follows it now. */
  | { kind: 'long'; call: ParkedCall<T>; message: string | undefined };

/** Who may resume a parked call: the request it is, and the route's pin and the agent's name the first round came with. */
export interface CallOwner {
  /** The method and what it names (`tools/call greet`, `prompts/get p`, `resources/read uri`): a state resumes only that request. */
  subject: string;
  key: string;
}

/** How a parked call's work ended: its outcome (and whether that is a failure), or what it threw. */
type Finished<T> = { outcome: T; failed: boolean } | { error: unknown };

interface Question {
  request: InputRequest;
  answer(response: unknown): void;
}

const InputResponses = z.record(z.string(), z.unknown());
const ANSWER_SCHEMA = { 'elicitation/create': ElicitResultSchema, 'sampling/createMessage': CreateMessageResultSchema, 'roots/list': ListRootsResultSchema } as const;
const CAPABILITY_OF = { 'elicitation/create': 'elicitation', 'sampling/createMessage': 'sampling', 'roots/list': 'roots' } as const;
/** Each question's params as MCP allows them, as the session revisions check them (InvalidRequest otherwise). */
const CHECKED_PARAMS: Record<InputRequest['method'], (params: Record<string, unknown>) => Record<string, unknown>> = {
  'elicitation/create': (params) => formElicitation(params as Parameters<typeof formElicitation>[0]),
  'sampling/createMessage': samplingRequest,
  'roots/list': (params) => params,
};
type Capability = (typeof CAPABILITY_OF)[keyof typeof CAPABILITY_OF];

/** A request's `inputResponses`: an object keyed by the questions it answers (absent or null: none). */
function inputResponsesOf(raw: unknown): Record<string, unknown> {
  // Most first calls carry none: no schema run on the hot path for them.
  if (raw === undefined || raw === null) return {};
  const responses = InputResponses.safeParse(raw);
  if (!responses.success) throw new JunctionError('InvalidArguments', 'Invalid params: inputResponses must be an object keyed by the inputRequests it answers.');
  return responses.data;
}

/** A first request's answers sent ahead, by key; undefined when it sent none, as nearly every call does. */
function answersAhead(raw: unknown): Map<string, unknown> | undefined {
  const entries = Object.entries(inputResponsesOf(raw));
  return entries.length > 0 ? new Map(entries) : undefined;
}

const NO_CAPABILITIES: ReadonlySet<Capability> = new Set();

/** What a call that can never go long waits on for it: nothing. */
const NEVER_LONG: Promise<{ message: string | undefined }> = new Promise(() => undefined);
const ignoreLong = (): void => undefined;

/** What a call that is never parked offers its source: no way to go long, and no task. */
const NEVER_PARKED: Pick<ParkedCall<unknown>, 'longRunning' | 'taskId'> = { longRunning: ignoreLong, taskId: undefined };

/** Whether an agent declared a capability a question could go through. */
const declaresQuestions = (capabilities: ClientCapabilities): boolean => capabilities.elicitation !== undefined || capabilities.sampling !== undefined || capabilities.roots !== undefined;

/**
 * The agent requests of a call: log lines go to the request's own stream, and a question for a
 * capability the agent did not declare is refused and remembered (a failure after one answers -32021).
 * Used as it is for a call whose agent declared nothing a question could go through, nor tasks, which
 * can never be parked or become a task: such a call (nearly every one) needs none of ParkedCall's state,
 * whose dozen fields each in-flight call would otherwise hold through every scavenge.
 */
export class CallRequests implements AgentRequests {
  private undeclared: Set<Capability> | undefined;

  constructor(
    protected readonly capabilities: ClientCapabilities,
    /** Where the work's log lines go (a stateless call's go only on its own response stream); dropped without one. */
    private readonly logLine: AgentRequests['log'] | undefined,
  ) {}

  /** The capabilities the call asked for that its agent did not declare. */
  get missing(): ReadonlySet<Capability> {
    return this.undeclared ?? NO_CAPABILITIES;
  }

  elicit(params: Parameters<AgentRequests['elicit']>[0], signal: AbortSignal, key?: string): Promise<ElicitationAnswer> {
    return this.ask({ method: 'elicitation/create', params }, signal, key) as Promise<ElicitationAnswer>;
  }

  sample(params: Record<string, unknown>, signal: AbortSignal, key?: string): Promise<Record<string, unknown>> {
    return this.ask({ method: 'sampling/createMessage', params }, signal, key) as Promise<Record<string, unknown>>;
  }

  listRoots(signal: AbortSignal, key?: string): Promise<RootsAnswer> {
    return this.ask({ method: 'roots/list', params: {} }, signal, key) as Promise<RootsAnswer>;
  }

  log(level: AgentLogLevel, data: unknown, logger?: string): void {
    this.logLine?.(level, data, logger);
  }

  /** Refuses the question: this agent declared no capability it could go through (ParkedCall asks the declared ones). */
  protected ask(asked: InputRequest, _signal: AbortSignal, _key: string | undefined): Promise<unknown> {
    const capability = CAPABILITY_OF[asked.method];
    (this.undeclared ??= new Set()).add(capability);
    return Promise.reject(new JunctionError('CapabilityUnavailable', `The agent that made this call did not declare the ${capability} capability.`));
  }
}

/** A call that may ask its agent something or go long, and so be parked or followed as a task. */
export class ParkedCall<T> extends CallRequests {
  /** Given when the call is first parked: most calls answer without ever being. */
  id: string | undefined;
  round = 0;
  /** Set while a retry is being served, so a second retry with the same state is refused. */
  busy = true;
  // Made when first needed: most parked calls never ask.
  private open: Map<string, Question> | undefined;
  /** What the call's work runs on: its own, since a parked call outlives the request that started it. */
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  outcome!: Promise<T>;
  finished!: Promise<Finished<T>>;
  expires: NodeJS.Timeout | undefined;
  private asked = 0;
  private wake: (() => void) | undefined;
  /** Settles with the plugin's `Processing` message once the call goes long; never, unless the agent declared tasks. */
  readonly wentLong: Promise<{ message: string | undefined }>;
  /** What the source calls when the call goes long. */
  readonly longRunning: (message?: string) => void;
  taskId: string | undefined;
  /** When the call last asked the agent something (ms since the epoch; 0 before it asked). */
  lastAskedAt = 0;

  constructor(
    readonly owner: CallOwner,
    capabilities: ClientCapabilities,
    takesTasks: boolean,
    /**
     * Answers the first request already carried, by key: a question the call asks in its first turn
     * under one of these keys takes its answer from here instead of a round trip (SEP-2322 lets an
     * agent answer ahead). Forgotten once the first turn ends; each answers one question at most.
     */
    private offered: Map<string, unknown> | undefined,
    logLine?: AgentRequests['log'],
  ) {
    super(capabilities, logLine);
    this.signal = this.controller.signal;
    if (!takesTasks) {
      this.wentLong = NEVER_LONG;
      this.longRunning = ignoreLong;
      return;
    }
    let wake: ((long: { message: string | undefined }) => void) | undefined;
    this.wentLong = new Promise((resolve) => (wake = resolve));
    this.longRunning = (message) => {
      wake?.({ message });
      wake = undefined;
    };
  }

  /** The questions the call waits on, by key. */
  get questions(): Map<string, Question> {
    return (this.open ??= new Map());
  }

  /** Stops the call's work (its plugin's call is cancelled). */
  cancel(): void {
    this.controller.abort();
  }

  /** Hands each answer in `responses` to the question it is keyed to; answers to nothing asked are ignored. */
  answer(inputResponses: unknown): void {
    const responses = inputResponsesOf(inputResponses);
    const answers: Array<[string, Question, unknown]> = [];
    for (const [key, question] of this.questions) {
      if (!(key in responses)) continue;
      const parsed = ANSWER_SCHEMA[question.request.method].safeParse(responses[key]);
      if (!parsed.success) throw new JunctionError('InvalidArguments', `Invalid params: inputResponses["${key}"] is not a valid ${question.request.method} result.`);
      answers.push([key, question, parsed.data]);
    }
    for (const [key, question, answer] of answers) {
      this.questions.delete(key);
      question.answer(answer);
    }
  }

  /** The questions the call waits on, as the agent is shown them. */
  inputRequests(): Record<string, InputRequest> {
    return Object.fromEntries([...this.questions].map(([key, q]) => [key, q.request]));
  }

  /** The first turn is over: answers sent ahead no longer answer anything. */
  forgetOffered(): void {
    this.offered = undefined;
  }

  protected override ask(asked: InputRequest, signal: AbortSignal, ownKey: string | undefined): Promise<unknown> {
    const capability = CAPABILITY_OF[asked.method];
    if (!this.capabilities[capability]) return super.ask(asked, signal, ownKey);
    // The agent answers by key, so two open questions under one key could not both be answered.
    if (ownKey !== undefined && this.questions.has(ownKey)) {
      return Promise.reject(new JunctionError('InvalidRequest', `The key '${ownKey}' already names an open question of this call; each open question needs a key of its own.`));
    }
    let request: InputRequest;
    try {
      request = { method: asked.method, params: CHECKED_PARAMS[asked.method](asked.params) };
    } catch (error) {
      return Promise.reject(error);
    }
    const key = ownKey ?? this.unusedKey(capability);
    const ahead = this.offered?.get(key);
    const answered = ahead === undefined ? undefined : ANSWER_SCHEMA[request.method].safeParse(ahead);
    if (answered?.success) {
      this.offered?.delete(key);
      return Promise.resolve(answered.data);
    }
    this.lastAskedAt = Date.now();
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        this.questions.delete(key);
        reject(new JunctionError('CallNotActive', 'The call ended before the agent answered.'));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.questions.set(key, {
        request,
        answer: (response) => {
          signal.removeEventListener('abort', onAbort);
          resolve(response);
        },
      });
      // Questions the tool asks in the same turn go out in one result.
      setImmediate(() => this.wake?.());
    });
  }

  /** `elicitation-N` (`sampling-N`, `roots-N`): the next number no open question's key already has. */
  private unusedKey(capability: Capability): string {
    let key: string;
    do key = `${capability}-${++this.asked}`;
    while (this.questions.has(key));
    return key;
  }

  /** Resolves once the call asked something it has no answer to (after the turn it asked in). */
  asking(): Promise<void> {
    if (this.questions.size > 0) return new Promise((r) => setImmediate(r));
    return new Promise((r) => (this.wake = r));
  }
}

/** How a call starts: who it is for, what the agent declared, and what its first request already answers. */
export interface CallStart<T> {
  owner: CallOwner;
  capabilities: ClientCapabilities;
  /** Whether the call may go long into a task (the request declared the tasks extension). */
  takesTasks: boolean;
  /** The first request's `inputResponses`, answering questions the call has not asked yet. */
  inputResponses: unknown;
  /** Whether an outcome is a failure (one that follows a question for an undeclared capability answers -32021). */
  failed: (outcome: T) => boolean;
  /** Where the work's log lines go; dropped when absent. */
  log?: AgentRequests['log'];
}

export interface InputRequiredOptions {
  seal: RequestStateSeal;
  /** How long a parked call waits for the agent's retry before it is aborted. */
  ttlMs: number;
  maxParked: number;
}

/** What a call that ended answers: its outcome, or -32021 when it failed after asking for something the agent did not declare. */
function endStep<T>(call: CallRequests, settled: Finished<T>): CallStep<T> {
  const failed = 'error' in settled || settled.failed;
  if (call.missing.size > 0 && failed) return { kind: 'missingCapability', capabilities: Object.fromEntries([...call.missing].map((c) => [c, {}])) };
  if ('error' in settled) throw settled.error;
  return { kind: 'done', outcome: settled.outcome };
}

export class InputRequiredCalls {
  private readonly parked = new Map<string, ParkedCall<unknown>>();

  constructor(private readonly options: InputRequiredOptions) {}

  /**
   * Starts a call; `run` gets the agent requests the call's plugin asks through and the hook its
   * source calls when the call goes long (which ends the wait here only when `takesTasks`).
   */
  start<T>(
    start: CallStart<T>,
    hangUp: AbortSignal,
    run: (requests: AgentRequests, signal: AbortSignal, call: Pick<ParkedCall<T>, 'longRunning' | 'taskId'>) => Promise<T>,
  ): Promise<CallStep<T>> {
    // Read before the call is told apart: malformed inputResponses are refused whether or not it can park.
    const offered = answersAhead(start.inputResponses);
    // A call that can never ask or go long can only end, with its request: nothing to race, park or
    // watch, and its request's hang-up is its cancellation, so its outcome is taken as it comes.
    if (!start.takesTasks && !declaresQuestions(start.capabilities)) {
      const requests = new CallRequests(start.capabilities, start.log);
      return run(requests, hangUp, NEVER_PARKED).then(
        (outcome) => endStep(requests, { outcome, failed: start.failed(outcome) }),
        (error: unknown) => endStep(requests, { error }),
      );
    }
    const call = new ParkedCall<T>(start.owner, start.capabilities, start.takesTasks, offered, start.log);
    call.outcome = run(call, call.signal, call);
    call.finished = call.outcome.then(
      (outcome) => ({ outcome, failed: start.failed(outcome) }),
      (error: unknown) => ({ error }),
    );
    return this.next(call, hangUp);
  }

  /**
   * Serves a retry: checks its state, hands the answers to the waiting questions and waits for what
   * comes next. The state names a call of `owner.subject`, which is what fixes its outcome's type `T`.
   */
  resume<T>(owner: CallOwner, requestState: string, inputResponses: unknown, hangUp: AbortSignal): Promise<CallStep<T>> {
    const state = this.options.seal.open(requestState);
    const call = this.parked.get(state.run);
    if (!call || call.busy || call.round !== state.round || state.owner !== owner.key || call.owner.key !== owner.key || call.owner.subject !== owner.subject) {
      throw new JunctionError('RequestStateInvalid', 'Invalid params: requestState was already used, has expired, or belongs to another call; call the tool again without it to start over.');
    }
    call.answer(inputResponses);
    call.busy = true;
    // Calls of one subject are started by one method with one outcome type, checked just above.
    return this.next(call as ParkedCall<T>, hangUp);
  }

  parkedCount(): number {
    return this.parked.size;
  }

  close(): void {
    for (const call of [...this.parked.values()]) this.drop(call, true);
  }

  private async next<T>(call: ParkedCall<T>, hangUp: AbortSignal): Promise<CallStep<T>> {
    // Closing the response stream cancels a stateless request (and with it the call it runs).
    const stopWatching = onAbort(hangUp, () => this.drop(call, true));
    try {
      const settled = await Promise.race([call.finished, call.asking().then(() => undefined), call.wentLong]);
      call.forgetOffered();
      if (settled && 'message' in settled) {
        // A task owns the call from here: it is no longer parked, and no retry may resume it.
        this.drop(call, false);
        return { kind: 'long', call, message: settled.message };
      }
      if (settled) {
        this.drop(call, false);
        return endStep(call, settled);
      }
      const run = this.park(call);
      return { kind: 'input', inputRequests: call.inputRequests(), requestState: this.options.seal.seal({ run, round: call.round, owner: call.owner.key }) };
    } finally {
      stopWatching();
    }
  }

  /** Parks the call (again) and returns its id. */
  private park(call: ParkedCall<unknown>): string {
    call.round++;
    call.busy = false;
    call.id ??= randomUUID();
    if (!this.parked.has(call.id)) {
      while (this.parked.size >= this.options.maxParked) {
        const oldest = this.parked.values().next().value;
        if (!oldest) break;
        this.drop(oldest, true);
      }
      this.parked.set(call.id, call);
    }
    clearTimeout(call.expires);
    call.expires = setTimeout(() => this.drop(call, true), this.options.ttlMs).unref();
    return call.id;
  }

  private drop(call: ParkedCall<unknown>, abort: boolean): void {
    clearTimeout(call.expires);
    if (call.id !== undefined) this.parked.delete(call.id);
    if (abort) call.cancel();
  }
}
