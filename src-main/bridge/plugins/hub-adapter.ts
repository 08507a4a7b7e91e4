/**
 * The thin adapter between the SignalR hub and the plugin registry: hub methods and connection
 * events in, server-to-plugin invocations out. All decisions live in the registry and the guard.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  ClientMethod,
  DEFAULT_TIMEOUT_MS,
  MCP_PLUGIN_VERSION,
  NotifyToolProgressSchema,
  RequestIdOnlySchema,
  RequestToolCompletedDataSchema,
  RequestVersionHandshakeSchema,
  ResponseCompletionDataSchema,
  ResponseGetPromptDataSchema,
  ResponseListPromptsDataSchema,
  ResponseListResourcesDataSchema,
  ResponseListToolsDataSchema,
  ResponseResourceContentDataSchema,
  ResponseResourceTemplatesDataSchema,
  ResponseStatus,
  ServerMethod,
  successData,
  toDotNetWire,
  type RequestCallTool,
  type RequestCompletion,
  type ResponseCallTool,
  type ResponseListTool,
} from '../../../plugins/sdk/src/protocol.js';
import { onAbort, callDeadlines, errorMessage } from '../../shared/index.js';
import { JunctionError } from '../../contracts/index.js';
import type { CallContext } from '../../contracts/index.js';
import { HubInvocationError, HubMethodError, type HubConnection, type HubServer } from '../signalr/index.js';
import { ActiveCalls, attachAgentBridge } from './agent-bridge.js';
import { BridgeToolSource, type PluginPort } from './bridge-source.js';
import { InvokeFailure } from './call-guard.js';
import { issuesText, parseCallReply } from './call-reply.js';
import { replyFromEnvelope, type PluginReply } from './outcome.js';
import { ProjectRegistry } from '../projects/index.js';

const optionsSchema = z.object({
  /** Whole-call deadline for 8.14+ plugins and the invoke timeout for older ones. */
  pluginTimeoutMs: z.number().int().positive().default(DEFAULT_TIMEOUT_MS),
  /** How long a departed plugin is awaited back (routing waits for it; notExecuted calls are re-sent within it). */
  pluginReconnectWaitSeconds: z.number().min(0).default(10),
  /** How often a `notExecuted` call is re-sent while its plugin stays connected. */
  resendIntervalMs: z.number().int().positive().default(2_000),
  serverVersion: z.string().default(MCP_PLUGIN_VERSION),
  /** `single`: one editor and one runtime in all (newest wins); `multi`: one of each per project. */
  projectRouting: z.enum(['single', 'multi']).default('single'),
});

export type AttachPluginHubOptions = z.input<typeof optionsSchema> & { now?: () => number };

type CatalogueKind = 'tools' | 'prompts' | 'resources';

interface PendingCompletion {
  connectionId: string;
  resolve: (result: ResponseCallTool) => void;
  reject: (failure: InvokeFailure) => void;
}

function asInvokeFailure(error: unknown): InvokeFailure {
  if (error instanceof InvokeFailure) return error;
  if (error instanceof HubInvocationError) return new InvokeFailure(error.reason === 'invalidArguments' ? 'protocol' : error.reason, error.message);
  return new InvokeFailure('connectionClosed', errorMessage(error));
}

class HubPluginPort implements PluginPort {
  readonly connections = new Map<string, HubConnection>();
  readonly completions = new Map<string, PendingCompletion>();
  readonly progress = new Map<string, NonNullable<CallContext['progress']>>();
  readonly calls = new ActiveCalls();
  /** Calls in flight, and a completion that arrived before its `Processing` reply was read. */
  private readonly inFlight = new Map<string, ResponseCallTool | undefined>();

  constructor(
    private readonly now: () => number,
    /** Told once per malformed plugin payload, so the operator sees what the agent got an error for. */
    private readonly malformed: (connectionId: string, message: string) => void,
  ) {}

  async invokeTool(
    connectionId: string,
    request: RequestCallTool,
    options: { timeoutMs: number; signal: AbortSignal; onProgress?: CallContext['progress']; agentRequests?: CallContext['agentRequests'] },
  ): Promise<PluginReply> {
    return this.runTool(connectionId, ClientMethod.RunCallTool, request, options);
  }

  /** A system tool call (RunSystemTool): the same reply shapes and deadline as a tool call. */
  invokeSystemTool(connectionId: string, request: RequestCallTool, options: { timeoutMs: number; signal: AbortSignal }): Promise<PluginReply> {
    return this.runTool(connectionId, ClientMethod.RunSystemTool, request, options);
  }

  async complete(connectionId: string, request: Omit<RequestCompletion, 'requestId'>, timeoutMs: number) {
    const raw = await this.invoke(this.connection(connectionId), ClientMethod.RunCompletion, [{ requestId: randomUUID(), ...request }], timeoutMs);
    return this.parse(connectionId, ClientMethod.RunCompletion, ResponseCompletionDataSchema, raw);
  }

  async setSubscription(connectionId: string, uri: string, subscribed: boolean, timeoutMs: number): Promise<void> {
    const method = subscribed ? ClientMethod.RunSubscribeResource : ClientMethod.RunUnsubscribeResource;
    await this.invoke(this.connection(connectionId), method, [{ requestId: randomUUID(), uri }], timeoutMs);
  }

  async getPrompt(connectionId: string, name: string, args: Record<string, string>, timeoutMs: number) {
    const raw = await this.invoke(this.connection(connectionId), ClientMethod.RunGetPrompt, [{ requestId: randomUUID(), name, arguments: args }], timeoutMs);
    return this.parse(connectionId, ClientMethod.RunGetPrompt, ResponseGetPromptDataSchema, raw);
  }

  async readResource(connectionId: string, uri: string, timeoutMs: number) {
    const raw = await this.invoke(this.connection(connectionId), ClientMethod.RunResourceContent, [{ requestId: randomUUID(), uri }], timeoutMs);
    const envelope = this.parse(connectionId, ClientMethod.RunResourceContent, ResponseResourceContentDataSchema, raw);
    return { ...envelope, value: envelope.value ?? undefined };
  }

  /**
   * A list request's value; an error envelope is a failure (`clientError`) carrying the plugin's
   * message. A malformed reply is not reported here: the caller reports every list failure once.
   */
  async list<T extends z.ZodType<{ status: ResponseStatus; message?: string | undefined }>>(
    connection: HubConnection,
    method: string,
    schema: T,
    timeoutMs: number,
  ): Promise<z.output<T>> {
    const data = this.parse(undefined, method, schema, await this.invoke(connection, method, [{ requestId: randomUUID() }], timeoutMs));
    if (data.status === ResponseStatus.Error) throw new InvokeFailure('clientError', data.message || `The plugin answered ${method} with an error.`);
    return data;
  }

  activeCounts() {
    return this.calls.counts();
  }

  async listSystemTools(connectionId: string, timeoutMs: number): Promise<ResponseListTool[]> {
    const data = await this.list(this.connection(connectionId), ClientMethod.RunListSystemTool, ResponseListToolsDataSchema, timeoutMs);
    return data.value ?? [];
  }

  /** Settles the `Processing` call the completion names; a completion for no call in flight is dropped. */
  completeTool(connectionId: string, requestIds: readonly string[], result: ResponseCallTool): void {
    const requestId = requestIds.find((id) => this.inFlight.has(id));
    if (requestId === undefined) return;
    const pending = this.completions.get(requestId);
    if (!pending) this.inFlight.set(requestId, result);
    else if (pending.connectionId === connectionId) pending.resolve(result);
  }

  dropConnection(connectionId: string): void {
    this.connections.delete(connectionId);
    for (const pending of this.completions.values()) {
      if (pending.connectionId === connectionId) pending.reject(new InvokeFailure('connectionClosed', 'The plugin disconnected before completing the call.'));
    }
  }

  private connection(connectionId: string): HubConnection {
    const connection = this.connections.get(connectionId);
    if (!connection || connection.closed) throw new InvokeFailure('notSent', 'The plugin connection is gone.');
    return connection;
  }

  private async runTool(
    connectionId: string,
    method: string,
    request: RequestCallTool,
    options: { timeoutMs: number; signal: AbortSignal; onProgress?: CallContext['progress']; agentRequests?: CallContext['agentRequests'] },
  ): Promise<PluginReply> {
    const connection = this.connection(connectionId);
    const started = this.now();
    const { requestId } = request;
    if (options.onProgress) this.progress.set(requestId, options.onProgress);
    this.inFlight.set(requestId, undefined);
    this.calls.begin(requestId, connectionId, options.agentRequests);
    try {
      const raw = await this.invoke(connection, method, [request], options.timeoutMs, options.signal);
      const reply = this.decodeCallReply(connectionId, method, raw);
      if (reply.status !== ResponseStatus.Processing) return reply;
      const result = this.inFlight.get(requestId) ?? (await this.completion(connectionId, requestId, options.timeoutMs - (this.now() - started), options.signal));
      return replyFromEnvelope({ requestId, status: result.status, errorKind: result.errorKind, message: undefined, httpStatusCode: undefined, value: result });
    } catch (error) {
      const failure = asInvokeFailure(error);
      if ((failure.reason === 'timeout' || failure.reason === 'aborted') && !connection.closed) {
        connection.send(ClientMethod.CancelToolRequest, [toDotNetWire({ requestId, reason: failure.message })]);
      }
      throw failure;
    } finally {
      this.progress.delete(requestId);
      this.inFlight.delete(requestId);
      this.calls.end(requestId);
    }
  }

  /** Every server-to-plugin payload goes out as McpPlugin.Server writes it (PascalCase, enum names). */
  private async invoke(connection: HubConnection, method: string, args: unknown[], timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    try {
      return await connection.invoke(method, args.map(toDotNetWire), { timeoutMs: Math.max(1, timeoutMs), ...(signal ? { signal } : {}) });
    } catch (error) {
      throw asInvokeFailure(error);
    }
  }

  /** Reads a reply; a malformed one is reported against `reportAs` (when given) and fails with `protocol`. */
  private parse<T extends z.ZodType>(reportAs: string | undefined, method: string, schema: T, raw: unknown): z.output<T> {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const message = issuesText(parsed.error);
    if (reportAs !== undefined) this.malformed(reportAs, `Malformed ${method} reply: ${message}`);
    throw new InvokeFailure('protocol', message);
  }

  private decodeCallReply(connectionId: string, method: string, raw: unknown): PluginReply {
    try {
      return parseCallReply(raw);
    } catch (error) {
      if (error instanceof InvokeFailure && error.reason === 'protocol') this.malformed(connectionId, `Malformed ${method} reply: ${error.message}`);
      throw error;
    }
  }

  /** Waits for NotifyToolRequestCompleted of a call the plugin answered `Processing`. */
  private completion(connectionId: string, requestId: string, timeoutMs: number, signal: AbortSignal): Promise<ResponseCallTool> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(new InvokeFailure('aborted', 'The call was cancelled.'));
        return;
      }
      const finish = () => {
        cancelTimeout();
        stopWatching();
        this.completions.delete(requestId);
      };
      const cancelTimeout = callDeadlines.after(Math.max(1, timeoutMs), () => {
        finish();
        reject(new InvokeFailure('timeout', 'The plugin did not report completion in time.'));
      });
      const stopWatching = onAbort(signal, () => {
        finish();
        reject(new InvokeFailure('aborted', 'The call was cancelled.'));
      });
      this.completions.set(requestId, {
        connectionId,
        resolve: (result) => {
          finish();
          resolve(result);
        },
        reject: (failure) => {
          finish();
          reject(failure);
        },
      });
    });
  }
}

/**
 * Wires the McpPlugin hub methods and connection events of `hub` to a new plugin registry and
 * returns the bridge's ToolSource. `source.dispose()` unregisters everything it registered.
 */
export function attachPluginHub(hub: HubServer, options: AttachPluginHubOptions = {}): BridgeToolSource {
  const parsed = optionsSchema.safeParse(options);
  if (!parsed.success) throw new JunctionError('ConfigInvalid', `Invalid plugin bridge options: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
  const settings = parsed.data;
  const now = options.now ?? Date.now;
  const waitMs = settings.pluginReconnectWaitSeconds * 1000;
  const registry = new ProjectRegistry(settings.serverVersion, settings.projectRouting, now);
  const disposers: Array<() => void> = [];
  const warn = (connectionId: string, message: string) => source.events.emit('log', { connectionId, origin: 'bridge', level: 'warning', message });
  const port = new HubPluginPort(now, warn);
  const generations = new Map<string, number>();
  const source = new BridgeToolSource(registry, port, { timeoutMs: settings.pluginTimeoutMs, reconnectWaitMs: waitMs, resendIntervalMs: settings.resendIntervalMs, now }, disposers);

  /** A plugin's hub-method payload, or a refusal the plugin receives as its invocation error (logged once here). */
  function read<T extends z.ZodType>(connection: HubConnection, method: string, schema: T, raw: unknown): z.output<T> {
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    const message = `Invalid ${method} payload: ${issuesText(parsed.error)}`;
    warn(connection.id, message);
    throw new HubMethodError(message);
  }

  /** What McpPlugin.Server answers a notification: success, echoing the caller's request id. */
  const acknowledged = (requestId: string, message?: string) => toDotNetWire({ ...successData(requestId), message });

  // A later refresh supersedes an earlier one still in flight, so a slow stale list never wins.
  async function refresh(connection: HubConnection, kind: CatalogueKind): Promise<void> {
    const key = `${connection.id}:${kind}`;
    const generation = (generations.get(key) ?? 0) + 1;
    generations.set(key, generation);
    const current = () => generations.get(key) === generation && !connection.closed;
    const timeout = settings.pluginTimeoutMs;
    try {
      if (kind === 'tools') {
        const data = await port.list(connection, ClientMethod.RunListTool, ResponseListToolsDataSchema, timeout);
        if (current()) registry.setTools(connection.id, data.value ?? []);
      } else if (kind === 'prompts') {
        const data = await port.list(connection, ClientMethod.RunListPrompts, ResponseListPromptsDataSchema, timeout);
        if (current()) registry.setPrompts(connection.id, data.value ?? []);
      } else {
        const [resources, templates] = await Promise.all([
          port.list(connection, ClientMethod.RunListResources, ResponseListResourcesDataSchema, timeout),
          port.list(connection, ClientMethod.RunResourceTemplates, ResponseResourceTemplatesDataSchema, timeout),
        ]);
        if (current()) registry.setResources(connection.id, resources.value ?? [], templates.value ?? []);
      }
    } catch (error) {
      if (!current()) return;
      const reason = errorMessage(error);
      if (kind === 'tools') {
        registry.toolsUnavailable(connection.id);
        warn(connection.id, `Could not fetch the plugin's tools: ${reason}`);
      } else {
        // As McpPlugin.Server does: the list degrades to empty for agents; the operator sees why.
        registry.listFailed(connection.id, kind, reason);
      }
    }
  }

  const refreshLater = (connection: HubConnection, kind: CatalogueKind) => {
    setImmediate(() => void refresh(connection, kind));
  };

  const notifyUpdated = (kind: CatalogueKind, method: string) => (connection: HubConnection, raw: unknown) => {
    const request = read(connection, method, RequestIdOnlySchema, raw ?? {});
    if (registry.get(connection.id)?.handshake) refreshLater(connection, kind);
    return acknowledged(request.requestId, `Received ${kind} update notification`);
  };

  disposers.push(
    hub.on(ServerMethod.PerformVersionHandshake, (connection, raw) => {
      const request = read(connection, ServerMethod.PerformVersionHandshake, RequestVersionHandshakeSchema, raw);
      const outcome = registry.handshake(connection.id, request);
      for (const id of outcome.replaced) {
        const old = port.connections.get(id);
        if (!old) continue;
        const reason = `Replaced by a newer ${registry.get(connection.id)?.role ?? 'plugin'} connection.`;
        old.send(ClientMethod.ForceDisconnect, [reason]);
        old.close(reason, false);
      }
      if (outcome.response.compatible) for (const kind of ['tools', 'prompts', 'resources'] as const) refreshLater(connection, kind);
      return outcome.response;
    }),
    hub.on(ServerMethod.NotifyAboutUpdatedTools, notifyUpdated('tools', ServerMethod.NotifyAboutUpdatedTools)),
    hub.on(ServerMethod.NotifyAboutUpdatedPrompts, notifyUpdated('prompts', ServerMethod.NotifyAboutUpdatedPrompts)),
    hub.on(ServerMethod.NotifyAboutUpdatedResources, notifyUpdated('resources', ServerMethod.NotifyAboutUpdatedResources)),
    hub.on(ServerMethod.NotifyToolRequestCompleted, (connection, raw) => {
      const data = read(connection, ServerMethod.NotifyToolRequestCompleted, RequestToolCompletedDataSchema, raw);
      port.completeTool(connection.id, [data.result.requestId, data.requestId], data.result);
      return acknowledged(data.requestId || data.result.requestId);
    }),
    hub.on(ServerMethod.NotifyToolProgress, (connection, raw) => {
      const data = read(connection, ServerMethod.NotifyToolProgress, NotifyToolProgressSchema, raw);
      port.progress.get(data.requestId)?.({
        progress: data.progress,
        ...(data.total === undefined ? {} : { total: data.total }),
        ...(data.message === undefined ? {} : { message: data.message }),
      });
      return acknowledged(data.requestId);
    }),
    ...attachAgentBridge(hub, port.calls, source, { read, acknowledged }),
    hub.events.on('connected', (connection) => {
      port.connections.set(connection.id, connection);
      registry.connect({ connectionId: connection.id, query: connection.query, headers: connection.headers, connectedAt: connection.connectedAt });
    }),
    hub.events.on('disconnected', ({ connection }) => {
      port.dropConnection(connection.id);
      for (const kind of ['tools', 'prompts', 'resources']) generations.delete(`${connection.id}:${kind}`);
      registry.disconnect(connection.id, now(), waitMs);
    }),
  );
  // Connections the hub accepted before the bridge attached are registered as if they had just connected.
  for (const connection of hub.connections()) {
    port.connections.set(connection.id, connection);
    registry.connect({ connectionId: connection.id, query: connection.query, headers: connection.headers, connectedAt: connection.connectedAt });
  }
  return source;
}
