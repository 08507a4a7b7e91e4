/**
 * One plugin process's link to a Junction (or McpPlugin.Server) bridge: connects with its role,
 * performs the version handshake, publishes its catalogue, answers the bridge's calls, and
 * reconnects (re-handshake, re-publish) until disconnect() or a ForceDisconnect.
 */
import { randomUUID } from 'node:crypto';
import { HttpTransportType, HubConnectionBuilder, HubConnectionState, LogLevel, type HubConnection } from '@microsoft/signalr';
import { z } from 'zod';
import { projectQuery, type ProjectIdentity } from './project-identity.js';
import { agentRequests, type AgentRequestChannel } from './agent-requests.js';
import {
  isTemplate,
  promptDescriptor,
  publishedBy,
  resourceDescriptor,
  templateDescriptor,
  toolDescriptor,
  type CompletionHandler,
  type PluginRole,
  type PromptDefinition,
  type RequestContext,
  type ResourceDefinition,
  type ToolContext,
  type ToolDefinition,
  type ToolSchema,
} from './definitions.js';
import { processingData, readResource, runPrompt, runTool, unknownTool, type CallReply } from './dispatch.js';
import { AgentRequestError, OperatorNoticeError, errorMessage } from './errors.js';
import {
  API_VERSION,
  CancelToolRequestSchema,
  ServerToPlugin,
  DEFAULT_ENDPOINT,
  EXTENSION_FEATURES,
  EXTENSIONS_VERSION,
  HubQuery,
  MCP_PLUGIN_VERSION,
  RequestCallToolSchema,
  RequestCompletionSchema,
  RequestGetPromptSchema,
  RequestIdOnlySchema,
  RequestResourceContentSchema,
  RequestResourceSubscriptionSchema,
  ResponseErrorKind,
  ResponseStatus,
  COMPLETION_MAX_VALUES,
  ExtensionErrorCode,
  NotifyOperatorReplySchema,
  NotifyOperatorSchema,
  PluginToServer,
  VersionHandshakeResponseSchema,
  errorData,
  matchesUriTemplate,
  responseDataSchema,
  successData,
  type ExtensionFeature,
  type LogLevel as PluginLogLevel,
  type NoticeLevel,
  type PluginToServerMethod,
  type RequestCallTool,
  type VersionHandshakeResponse,
} from '../wire/index.js';

export interface PluginOptions {
  name: string;
  version: string;
  role: PluginRole;
  /** Handshake environment; defaults to `<name> (<role>)`, which older bridges use to tell a runtime. */
  environment?: string;
  endpoint?: string;
  token?: string;
  /** Connect straight over WebSockets without the negotiate round trip. */
  skipNegotiation?: boolean;
  /** Waits between reconnect attempts; the last one repeats. */
  reconnectDelaysMs?: number[];
  /** How often the plugin pings the bridge (default 15 s). */
  keepAliveIntervalMs?: number;
  /**
   * How long the bridge may stay silent before the plugin gives the connection up (default 5 min, as
   * the .NET client): a bridge pings only every 30 s, so the JS client's own 30 s default would flap.
   */
  serverTimeoutMs?: number;
  /**
   * The project the plugin belongs to (name, root path or its hash, engine, machine, instance id), sent
   * as McpPlugin sends it: with a path or hash, a Junction in project-routing=multi gives it a pin
   * (`/p/{pin}/mcp`). An editor and a runtime of one app pass the same project.
   */
  project?: ProjectIdentity;
}

export type PluginState = 'disconnected' | 'connecting' | 'connected' | 'reconnecting';

export interface PluginEvents {
  state: PluginState;
  /** A handshake completed; `connectionId` is the bridge's id for this connection. */
  connected: { connectionId: string; handshake: VersionHandshakeResponse };
  disconnected: { error?: Error };
  /** The bridge refused the handshake or forced the plugin off; the plugin stops reconnecting. */
  stopped: { reason: string };
  error: Error;
  /** An agent subscribed to a resource of this plugin (first subscriber) or the last one left. */
  subscription: { uri: string; subscribed: boolean };
}

type Listener<T> = (payload: T) => void;

const optionsSchema = z.object({
  name: z.string().min(1),
  version: z.string().min(1),
  role: z.enum(['editor', 'runtime']),
  environment: z.string().optional(),
  endpoint: z.url().default(DEFAULT_ENDPOINT),
  token: z.string().optional(),
  skipNegotiation: z.boolean().default(false),
  reconnectDelaysMs: z.array(z.number().int().min(0)).min(1).default([0, 1_000, 2_000, 5_000, 10_000]),
  keepAliveIntervalMs: z.number().int().positive().default(15_000),
  serverTimeoutMs: z.number().int().positive().default(300_000),
  project: z
    .object({
      name: z.string().min(1).optional(),
      path: z.string().min(1).optional(),
      pathHash: z.string().regex(/^[0-9a-fA-F]{1,64}$/).optional(),
      engine: z.string().optional(),
      machine: z.string().optional(),
      instanceId: z.string().min(1).optional(),
    })
    .strict()
    .default({}),
});

const HandshakeReplySchema = z.union([
  VersionHandshakeResponseSchema,
  responseDataSchema(VersionHandshakeResponseSchema).transform((d, ctx) => {
    if (d.value) return d.value;
    ctx.addIssue({ code: 'custom', message: d.message ?? 'handshake refused' });
    return z.NEVER;
  }),
]);

export class McpPlugin {
  readonly options: Readonly<z.output<typeof optionsSchema>>;
  readonly instanceId: string;
  private readonly tools = new Map<string, ToolDefinition>();
  private readonly prompts = new Map<string, PromptDefinition>();
  private readonly resources = new Map<string, ResourceDefinition>();
  private readonly running = new Map<string, AbortController>();
  private readonly listeners = new Map<keyof PluginEvents, Set<Listener<never>>>();
  private readonly hub: HubConnection;
  private currentState: PluginState = 'disconnected';
  private wanted = false;
  private loop: Promise<void> | undefined;
  private wakeLoop: (() => void) | undefined;
  private connectionId: string | undefined;
  private completer: CompletionHandler | undefined;
  /** Whether the bridge accepted MCP extension 1 in the last handshake, and which of its features. */
  private extended = false;
  private bridgeFeatures: readonly ExtensionFeature[] = [];

  constructor(options: PluginOptions) {
    const parsed = optionsSchema.safeParse(options);
    if (!parsed.success) throw new TypeError(`Invalid plugin options: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    this.options = parsed.data;
    this.instanceId = this.options.project.instanceId ?? randomUUID();
    const url = new URL(this.options.endpoint);
    url.searchParams.set(HubQuery.clientRole, this.options.role);
    for (const [key, value] of projectQuery(this.options.project, { name: this.options.name, instanceId: this.instanceId })) url.searchParams.set(key, value);
    const token = this.options.token;
    this.hub = new HubConnectionBuilder()
      .withUrl(url.toString(), {
        ...(this.options.skipNegotiation ? { skipNegotiation: true, transport: HttpTransportType.WebSockets } : {}),
        ...(token ? { accessTokenFactory: () => token } : {}),
      })
      .withKeepAliveInterval(this.options.keepAliveIntervalMs)
      .withServerTimeout(this.options.serverTimeoutMs)
      .configureLogging(LogLevel.None)
      .build();
    this.registerClientMethods();
    this.hub.onclose((error) => this.onClosed(error));
  }

  get state(): PluginState {
    return this.currentState;
  }

  /** The bridge's id for the current connection, while connected. */
  get currentConnectionId(): string | undefined {
    return this.connectionId;
  }

  on<K extends keyof PluginEvents>(event: K, listener: Listener<PluginEvents[K]>): () => void {
    let set = this.listeners.get(event);
    if (!set) this.listeners.set(event, (set = new Set()));
    set.add(listener as Listener<never>);
    return () => set.delete(listener as Listener<never>);
  }

  tool<S extends ToolSchema>(definition: ToolDefinition<S>): this {
    this.tools.set(definition.name, definition as unknown as ToolDefinition);
    this.announce(PluginToServer.NotifyAboutUpdatedTools);
    return this;
  }

  prompt(definition: PromptDefinition): this {
    this.prompts.set(definition.name, definition);
    this.announce(PluginToServer.NotifyAboutUpdatedPrompts);
    return this;
  }

  resource(definition: ResourceDefinition): this {
    this.resources.set(definition.uri, definition);
    this.announce(PluginToServer.NotifyAboutUpdatedResources);
    return this;
  }

  /** Answers agents' completion/complete for this plugin's prompt and resource-template arguments. */
  completion(handler: CompletionHandler): this {
    this.completer = handler;
    return this;
  }

  /** Tells subscribed agents (notifications/resources/updated) that a resource changed. */
  notifyResourceUpdated(uri: string): void {
    if (this.currentState === 'connected' && this.extended) this.hub.send(PluginToServer.NotifyResourceUpdated, { requestId: randomUUID(), uri }).catch(() => undefined);
  }

  /**
   * Shows the operator a notice on Junction's console, naming this plugin. Rejects with
   * OperatorNoticeError: `InvalidRequest` (a title over 120 characters, a message over 2,000, control
   * characters), `CapabilityUnavailable` (not connected, or a bridge without the feature, e.g.
   * McpPlugin.Server), `TooManyRequests` (the bridge's rate per connection).
   */
  async notifyOperator(notice: { level: NoticeLevel; title: string; message: string }): Promise<void> {
    const parsed = NotifyOperatorSchema.safeParse({ requestId: randomUUID(), ...notice });
    if (!parsed.success) throw new OperatorNoticeError(ExtensionErrorCode.InvalidRequest, `The notice is not valid: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    if (this.currentState !== 'connected' || !this.bridgeFeatures.includes('operatorNotices')) {
      throw new OperatorNoticeError(ExtensionErrorCode.CapabilityUnavailable, 'The bridge this plugin is connected to does not take operator notices (or the plugin is not connected).');
    }
    let raw: unknown;
    try {
      raw = await this.hub.invoke(PluginToServer.NotifyOperator, parsed.data);
    } catch (error) {
      throw new OperatorNoticeError(ExtensionErrorCode.CapabilityUnavailable, `The bridge did not take the notice: ${errorMessage(error)}`);
    }
    const reply = NotifyOperatorReplySchema.safeParse(raw);
    if (!reply.success) throw new OperatorNoticeError(ExtensionErrorCode.CapabilityUnavailable, `The bridge answered malformed data: ${reply.error.message}`);
    if (reply.data.status === ResponseStatus.Error) throw new OperatorNoticeError(reply.data.code ?? ExtensionErrorCode.CapabilityUnavailable, reply.data.message ?? 'The bridge refused the notice.');
  }

  /** Resolves once connected and handshaken; keeps retrying with the reconnect delays until then. */
  async connect(): Promise<void> {
    this.wanted = true;
    if (this.currentState === 'connected') return;
    const connected = new Promise<void>((resolve, reject) => {
      const offConnected = this.on('connected', () => {
        cleanup();
        resolve();
      });
      const offStopped = this.on('stopped', ({ reason }) => {
        cleanup();
        reject(new Error(reason));
      });
      const cleanup = () => {
        offConnected();
        offStopped();
      };
    });
    this.loop ??= this.runLoop();
    return connected;
  }

  /** Closes the connection and stops reconnecting. */
  async disconnect(): Promise<void> {
    this.wanted = false;
    this.wakeLoop?.();
    await this.hub.stop();
    await this.loop;
    this.abortRunning('The plugin disconnected.');
    this.setState('disconnected');
  }

  private emit<K extends keyof PluginEvents>(event: K, payload: PluginEvents[K]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) (listener as Listener<PluginEvents[K]>)(payload);
  }

  private setState(state: PluginState): void {
    if (state === this.currentState) return;
    this.currentState = state;
    this.emit('state', state);
  }

  private stop(reason: string): void {
    this.wanted = false;
    this.emit('stopped', { reason });
    void this.hub.stop();
  }

  /** Connects, and after every loss reconnects, while the plugin is wanted online. */
  private async runLoop(): Promise<void> {
    let attempt = 0;
    let everConnected = false;
    while (this.wanted) {
      this.setState(everConnected ? 'reconnecting' : 'connecting');
      try {
        await this.hub.start();
        await this.handshake();
        everConnected = true;
        attempt = 0;
        await this.untilClosed();
      } catch (error) {
        if (!this.wanted) break;
        this.emit('error', error instanceof Error ? error : new Error(String(error)));
        await this.hub.stop();
      }
      if (!this.wanted) break;
      const delays = this.options.reconnectDelaysMs;
      await this.sleep(delays[Math.min(attempt, delays.length - 1)] ?? 0);
      attempt++;
    }
    this.loop = undefined;
  }

  private untilClosed(): Promise<void> {
    return new Promise((resolve) => {
      if (this.hub.state === HubConnectionState.Disconnected) return resolve();
      this.wakeLoop = resolve;
    });
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wakeLoop = done;
    });
  }

  private onClosed(error?: Error): void {
    const wasConnected = this.connectionId !== undefined;
    this.connectionId = undefined;
    this.abortRunning('The connection to the bridge closed.');
    if (wasConnected) this.emit('disconnected', error ? { error } : {});
    this.setState(this.wanted ? 'reconnecting' : 'disconnected');
    this.wakeLoop?.();
  }

  private async handshake(): Promise<void> {
    const raw: unknown = await this.hub.invoke(PluginToServer.PerformVersionHandshake, {
      requestId: randomUUID(),
      apiVersion: API_VERSION,
      pluginVersion: this.options.version,
      environment: this.options.environment ?? `${this.options.name} (${this.options.role})`,
      mcpPluginVersion: MCP_PLUGIN_VERSION,
      extensions: { version: EXTENSIONS_VERSION, features: [...EXTENSION_FEATURES] },
    });
    const parsed = HandshakeReplySchema.safeParse(raw);
    if (!parsed.success) throw new Error(`The bridge answered the handshake with malformed data: ${parsed.error.message}`);
    if (!parsed.data.compatible) {
      this.stop(`The bridge refused the handshake: ${parsed.data.message}`);
      throw new Error(parsed.data.message);
    }
    this.connectionId = this.hub.connectionId ?? undefined;
    this.extended = parsed.data.extensions !== undefined;
    this.bridgeFeatures = parsed.data.extensions?.features ?? [];
    this.setState('connected');
    this.emit('connected', { connectionId: this.connectionId ?? '', handshake: parsed.data });
    // McpPlugin servers read the catalogue when told it changed; Junction also reads it at the handshake and ignores repeats.
    for (const method of [PluginToServer.NotifyAboutUpdatedTools, PluginToServer.NotifyAboutUpdatedPrompts, PluginToServer.NotifyAboutUpdatedResources]) {
      this.announce(method);
    }
  }

  private announce(method: PluginToServerMethod): void {
    if (this.currentState !== 'connected') return;
    this.hub.invoke(method, { requestId: randomUUID() }).catch((error: unknown) => this.emit('error', error instanceof Error ? error : new Error(String(error))));
  }

  private publishedTools(): ToolDefinition[] {
    return [...this.tools.values()].filter((t) => publishedBy(t.target, this.options.role));
  }

  private abortRunning(reason: string): void {
    for (const controller of this.running.values()) controller.abort(new Error(reason));
    this.running.clear();
  }

  private registerClientMethods(): void {
    this.hub.on(ServerToPlugin.RunListTool, (raw: unknown) => {
      const { requestId } = RequestIdOnlySchema.parse(raw ?? {});
      return successData(requestId, this.publishedTools().map(toolDescriptor));
    });
    this.hub.on(ServerToPlugin.RunCallTool, async (raw: unknown) => {
      const parsed = RequestCallToolSchema.safeParse(raw);
      if (!parsed.success) return errorData('', `Malformed RunCallTool request: ${parsed.error.message}`, ResponseErrorKind.BadRequest, 400);
      const request = parsed.data;
      const tool = this.publishedTools().find((t) => t.name === request.name);
      if (!tool) return unknownTool(request.requestId, request.name);
      const controller = new AbortController();
      this.running.set(request.requestId, controller);
      // `ctx.processing()` answers the invocation at once; the handler's reply then goes as the completion.
      let answerEarly: ((reply: CallReply) => void) | undefined;
      const early = new Promise<CallReply>((resolve) => (answerEarly = resolve));
      // Questions the handler asks after processing() must reach the bridge after the Processing answer,
      // which the SignalR client sends once this handler's promise settles: they wait a turn past it.
      let answered: Promise<void> = Promise.resolve();
      const processing = (message?: string) => {
        if (!answerEarly) return;
        answerEarly(processingData(request.requestId, message));
        answerEarly = undefined;
        answered = early.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
      };
      const run = runTool(tool, request, this.contextFor(request, controller.signal, processing, () => answered)).finally(() => this.running.delete(request.requestId));
      const first = await Promise.race([run.then((reply) => ({ reply, done: true })), early.then((reply) => ({ reply, done: false }))]);
      if (!first.done) void run.then((reply) => this.complete(request.requestId, reply));
      return first.reply;
    });
    this.hub.on(ServerToPlugin.RunListPrompts, (raw: unknown) => {
      const { requestId } = RequestIdOnlySchema.parse(raw ?? {});
      return successData(requestId, [...this.prompts.values()].map(promptDescriptor));
    });
    this.hub.on(ServerToPlugin.RunGetPrompt, async (raw: unknown) => {
      const request = RequestGetPromptSchema.parse(raw);
      const prompt = this.prompts.get(request.name);
      if (!prompt) return errorData(request.requestId, `This plugin has no prompt named '${request.name}'.`, ResponseErrorKind.NotFound, 404);
      return this.serving(request.requestId, (ctx) => runPrompt(prompt, request.requestId, request.arguments, ctx));
    });
    this.hub.on(ServerToPlugin.RunListResources, (raw: unknown) => {
      const { requestId } = RequestIdOnlySchema.parse(raw ?? {});
      return successData(requestId, [...this.resources.values()].filter((r) => !isTemplate(r)).map(resourceDescriptor));
    });
    this.hub.on(ServerToPlugin.RunResourceTemplates, (raw: unknown) => {
      const { requestId } = RequestIdOnlySchema.parse(raw ?? {});
      return successData(requestId, [...this.resources.values()].filter(isTemplate).map(templateDescriptor));
    });
    this.hub.on(ServerToPlugin.RunResourceContent, async (raw: unknown) => {
      const request = RequestResourceContentSchema.parse(raw);
      const resource = this.resources.get(request.uri) ?? [...this.resources.values()].find((r) => isTemplate(r) && matchesUriTemplate(r.uri, request.uri));
      if (!resource) return errorData(request.requestId, `This plugin has no resource '${request.uri}'.`, ResponseErrorKind.NotFound, 404);
      return this.serving(request.requestId, (ctx) => readResource(resource, request.requestId, request.uri, ctx));
    });
    this.hub.on(ServerToPlugin.CancelToolRequest, (raw: unknown) => {
      const parsed = CancelToolRequestSchema.safeParse(raw);
      if (parsed.success) this.running.get(parsed.data.requestId)?.abort(new Error(parsed.data.reason ?? 'Cancelled by the bridge.'));
    });
    this.hub.on(ServerToPlugin.RunCompletion, async (raw: unknown) => {
      const parsed = RequestCompletionSchema.safeParse(raw);
      if (!parsed.success) return errorData('', `Malformed RunCompletion request: ${parsed.error.message}`, ResponseErrorKind.BadRequest, 400);
      const { requestId, ...request } = parsed.data;
      try {
        const produced = this.completer ? await this.completer(request) : [];
        const result = Array.isArray(produced) ? { values: produced } : produced;
        return successData(requestId, { values: result.values.slice(0, COMPLETION_MAX_VALUES), total: result.total, hasMore: result.hasMore });
      } catch (error) {
        return errorData(requestId, errorMessage(error), ResponseErrorKind.Internal, 500);
      }
    });
    for (const [method, subscribed] of [[ServerToPlugin.RunSubscribeResource, true], [ServerToPlugin.RunUnsubscribeResource, false]] as const) {
      this.hub.on(method, (raw: unknown) => {
        const parsed = RequestResourceSubscriptionSchema.safeParse(raw);
        if (!parsed.success) return errorData('', `Malformed ${method} request: ${parsed.error.message}`, ResponseErrorKind.BadRequest, 400);
        this.emit('subscription', { uri: parsed.data.uri, subscribed });
        return successData(parsed.data.requestId);
      });
    }
    this.hub.on(ServerToPlugin.ForceDisconnect, (reason: unknown) => {
      this.stop(typeof reason === 'string' && reason ? reason : 'The bridge disconnected this plugin.');
    });
    // Agent-session notifications carry nothing a TypeScript plugin acts on; registering them keeps the client quiet.
    for (const method of [ServerToPlugin.OnInitialClientData, ServerToPlugin.OnMcpClientConnected, ServerToPlugin.OnMcpClientDisconnected]) this.hub.on(method, () => undefined);
  }

  /** The result of a call answered `Processing`, as McpPlugin's long-running tools deliver theirs. */
  private complete(requestId: string, reply: CallReply): void {
    if (this.currentState !== 'connected' || !reply.value) return;
    this.hub.invoke(PluginToServer.NotifyToolRequestCompleted, { requestId, result: reply.value }).catch((error: unknown) => this.emit('error', error instanceof Error ? error : new Error(String(error))));
  }

  /**
   * Runs a prompt get or resource read as a request of its own (aborted with the connection), whose
   * handler may ask the agent when the bridge takes questions outside tool calls (`contentRequests`).
   */
  private async serving<T>(requestId: string, run: (ctx: RequestContext) => Promise<T>): Promise<T> {
    const controller = new AbortController();
    this.running.set(requestId, controller);
    const channel = this.channel(() => Promise.resolve(), 'contentRequests');
    try {
      return await run({ requestId, signal: controller.signal, ...agentRequests(channel, requestId, controller.signal) });
    } finally {
      this.running.delete(requestId);
    }
  }

  private send(method: string, payload: Record<string, unknown>): void {
    if (this.currentState === 'connected') this.hub.send(method, payload).catch(() => undefined);
  }

  /**
   * The way a handler's questions reach the bridge: each waits for `before` (a tool's Processing answer
   * goes first), and none is sent unless the bridge took the extension and, when named, `feature`.
   */
  private channel(before: () => Promise<void>, feature?: ExtensionFeature): AgentRequestChannel {
    return {
      supports: (needed) => this.extended && [feature, needed].every((f) => f === undefined || this.bridgeFeatures.includes(f)),
      invoke: async (method, payload) => {
        if (this.currentState !== 'connected') throw new AgentRequestError(ExtensionErrorCode.CallNotActive, 'The plugin is not connected to the bridge.');
        await before();
        return this.hub.invoke(method, payload);
      },
      send: (method, payload) => this.send(method, payload),
    };
  }

  private contextFor({ requestId, traceparent }: RequestCallTool, signal: AbortSignal, processing: (message?: string) => void, answered: () => Promise<void>): ToolContext {
    return {
      requestId,
      ...(traceparent !== undefined ? { traceparent } : {}),
      signal,
      processing,
      progress: (progress, total, message) => this.send(PluginToServer.NotifyToolProgress, { requestId, progress, total, message }),
      log: (level: PluginLogLevel, message: string, options = {}) =>
        this.send(PluginToServer.NotifyLog, { requestId, level, message, ...(this.extended ? { logger: options.logger, data: options.data } : {}) }),
      ...agentRequests(this.channel(answered), requestId, signal),
    };
  }
}

export function createPlugin(options: PluginOptions): McpPlugin {
  return new McpPlugin(options);
}
