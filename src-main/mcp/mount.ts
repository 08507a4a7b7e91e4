/**
 * The MCP room as a part of a running Junction: one catalogue over every tool source, one dispatcher
 * every call passes (admission, the approval gate, the observers), and the agent routes: streamable
 * HTTP `/mcp`, `POST /api/tools/{name}` and `/api/system-tools`. The console runs tools and answers
 * elicitations through it.
 */
import type { IncomingMessage } from 'node:http';
import type { AgentScope, CallGate, ControlCommandHandlers, ControlEvent, ElicitationAnswerer, ElicitationsView, ToolSource, ToolVisibility } from '../contracts/index.js';
import { timeOrderedId, type RouteHandler } from '../shared/index.js';
import { createCatalogue, type Catalogue } from './catalogue.js';
import { ConsoleElicitations } from './console-elicitations.js';
import type { ContentSource } from './content-source.js';
import { createDirectToolApi, type BodyReader } from './direct-http.js';
import { createDispatcher, type Admission, type CallObserver, type Dispatcher } from './dispatcher.js';
import { createMcpHttpHandler } from './http-transport.js';
import { CacheHints } from './modern/cache-hints.js';
import { InputRequiredCalls } from './modern/input-required.js';
import { TASK_LIMITS, TaskStore } from './modern/tasks.js';
import { ListenStreams } from './modern/listen.js';
import type { StatelessAgent } from './modern/http.js';
import { createModernMethods } from './modern/methods.js';
import { RequestStateSeal } from './modern/request-state.js';
import { createMcpServerFactory, DEFAULT_MAX_SUBSCRIPTIONS, type McpServerFactory } from './server.js';
import type { SessionObserver } from './sessions.js';
import { createSystemToolApi, type SystemToolProvider } from './system-tools-http.js';

export interface McpMountContext {
  name: string;
  version: string;
  instructions: string;
  /** In catalogue order: the first source publishing a name wins it. */
  toolSources: readonly ToolSource[];
  /** Prompts and resources, given the catalogue (the host's `use-tool` prompt completes its tool names); disposed with the MCP part. */
  content(catalogue: Catalogue): { source: ContentSource; dispose(): void };
  observers: readonly CallObserver[];
  admission: Admission;
  gate: CallGate;
  /** Which tools each agent session sees (the policy's visibility rules). */
  visibility?: ToolVisibility;
  elicitationAnswerer: ElicitationAnswerer;
  /** Told when an agent session's server closes, so session-scoped approvals end with it. */
  sessionClosed(session: string): void;
  sessions: SessionObserver;
  /** Told about every direct API call before it runs (API callers have no session). */
  apiCaller(req: IncomingMessage): void;
  /** Told about every stateless (2026-07-28) request: such an agent has no session either. */
  statelessAgent(agent: StatelessAgent): void;
  systemTools: SystemToolProvider;
  readBody: BodyReader;
  idleTimeoutMs: number;
  maxSessions: number;
  /** The console's event stream. */
  control: { publish(event: ControlEvent): unknown };
}

export interface MountedMcp {
  catalogue: Catalogue;
  dispatcher: Dispatcher;
  factory: McpServerFactory;
  /** `/mcp`, `/api/tools` and `/api/system-tools`, in that order. */
  routes: RouteHandler[];
  views: { elicitations(): ElicitationsView };
  commands: ControlCommandHandlers<'runTool' | 'answerElicitation' | 'answerSampling' | 'setElicitationAnswerer' | 'agentCatalogue'>;
  status: { catalogue(scope?: AgentScope): unknown };
  dispose(): Promise<void>;
}

/** How long a call waiting on an agent's input-required retry is kept, and how many may wait at once. */
const PARKED_CALL_TTL_MS = 5 * 60_000;
const MAX_PARKED_CALLS = 256;

export function mountMcp(context: McpMountContext): MountedMcp {
  const { control } = context;
  const elicitations = new ConsoleElicitations(context.elicitationAnswerer);
  const offs = [
    elicitations.events.on('pending', (elicitation) => control.publish({ type: 'elicitation.pending', elicitation })),
    elicitations.events.on('resolved', (elicitationId) => control.publish({ type: 'elicitation.resolved', elicitationId })),
    elicitations.events.on('answerer', (answerer) => control.publish({ type: 'elicitation.answerer', answerer })),
    elicitations.events.on('samplingPending', (sampling) => control.publish({ type: 'sampling.pending', sampling })),
    elicitations.events.on('samplingResolved', (samplingId) => control.publish({ type: 'sampling.resolved', samplingId })),
  ];
  const catalogue = createCatalogue(context.toolSources, context.visibility);
  const content = context.content(catalogue);
  const dispatcher = createDispatcher(catalogue, context.observers, context.admission, context.gate, { elicitations });
  const factory = createMcpServerFactory({
    name: context.name,
    version: context.version,
    instructions: context.instructions,
    catalogue,
    dispatcher,
    content: content.source,
    ...(context.visibility ? { visibility: context.visibility } : {}),
    sessionClosed: context.sessionClosed,
    sessions: context.sessions,
  });
  const cache = new CacheHints([(l) => catalogue.onChanged(l), (l) => content.source.onPromptsChanged(l), (l) => content.source.onResourcesChanged(l)]);
  const calls = new InputRequiredCalls({ seal: new RequestStateSeal(), ttlMs: PARKED_CALL_TTL_MS, maxParked: MAX_PARKED_CALLS });
  const tasks = new TaskStore(TASK_LIMITS);
  const methods = createModernMethods({ name: context.name, version: context.version, instructions: context.instructions, catalogue, dispatcher, content: content.source, cache, calls, tasks });
  const listens = new ListenStreams({ catalogue, content: content.source, maxStreams: context.maxSessions, maxResourceSubscriptions: DEFAULT_MAX_SUBSCRIPTIONS });
  const mcpHttp = createMcpHttpHandler({ factory, modern: { methods, listens, onAgent: context.statelessAgent }, idleTimeoutMs: context.idleTimeoutMs, maxSessions: context.maxSessions, readBody: context.readBody });
  const directApi = createDirectToolApi({ catalogue, dispatcher, readBody: context.readBody, onCaller: context.apiCaller });
  const systemToolApi = createSystemToolApi({ provider: context.systemTools, readBody: context.readBody });
  return {
    catalogue,
    dispatcher,
    factory,
    routes: [mcpHttp, directApi, systemToolApi],
    views: { elicitations: () => elicitations.view() },
    commands: {
      async runTool({ name, args }) {
        const callId = timeOrderedId();
        const outcome = await dispatcher.call({ name, args, agent: 'console', transport: 'console', signal: new AbortController().signal, callId });
        return { callId, result: outcome.result };
      },
      answerElicitation: ({ elicitationId, ...answer }) => elicitations.answer(elicitationId, answer),
      answerSampling: ({ samplingId, ...answer }) => elicitations.answerSampling(samplingId, answer),
      setElicitationAnswerer: ({ answerer }) => elicitations.setAnswerer(answerer),
      agentCatalogue({ agentName, pin, sessionId }) {
        const scope = { agentName, ...(pin !== undefined ? { pin } : {}), ...(sessionId !== undefined ? { sessionId } : {}) };
        const tools = catalogue.listTools(scope).map((t) => ({ name: t.name, source: catalogue.resolve(t.name)?.source.id ?? 'none' }));
        return { ...scope, tools };
      },
    },
    status: { catalogue: (scope) => ({ collisions: catalogue.collisions(scope) }) },
    async dispose() {
      for (const off of offs) off();
      await mcpHttp.close();
      listens.close();
      calls.close();
      tasks.close();
      cache.close();
      factory.close();
      content.dispose();
      catalogue.close();
    },
  };
}
