/**
 * The thin adapter between the SignalR hub and the plugin registry: hub methods and connection
 * events in, server-to-plugin invocations out. All decisions live in the registry and the guard.
 */
import { randomUUID } from 'node:crypto';
import { z } from 'zod';
import {
  API_VERSION,
  ClientMethod,
  DEFAULT_TIMEOUT_MS,
  MCP_PLUGIN_VERSION,
  NotifyToolProgressSchema,
  RequestIdOnlySchema,
  RequestToolCompletedDataSchema,
  RequestVersionHandshakeSchema,
  ResponseCallToolDataSchema,
  ResponseCallToolSchema,
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
  type RequestCallTool,
  type RequestCompletion,
  type ResponseCallTool,
} from '../../../plugins/sdk/src/protocol.js';
import { JunctionError } from '../../shared/errors.js';
import type { CallContext } from '../../shared/tool-source.js';
import { HubInvocationError, type HubConnection, type HubServer } from '../signalr/index.js';
import { ActiveCalls, attachAgentBridge } from './agent-bridge.js';
import { BridgeToolSource, type PluginPort } from './bridge-source.js';
import { parseOrThrow } from './hub-parse.js';
import { InvokeFailure } from './call-guard.js';
import { replyFromEnvelope, type PluginReply } from './outcome.js';
import { PluginRegistry } from './registry.js';

const optionsSchema = z.object({
  /** Whole-call deadline for 8.14+ plugins and the invoke timeout for older ones. */
  pluginTimeoutMs: z.number().int().positive().default(DEFAULT_TIMEOUT_MS),
  /** How long a departed plugin is awaited back (routing waits for it; notExecuted calls are re-sent within it). */
  pluginReconnectWaitSeconds: z.number().min(0).default(10),
  /** How often a `notExecuted` call is re-sent while its plugin stays connected. */
  resendIntervalMs: z.number().int().positive().default(2_000),
  serverVersion: z.string().default(MCP_PLUGIN_VERSION),
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
  return new InvokeFailure('connectionClosed', error instanceof Error ? error.message : String(error));
}

/** The plugin's answer to RunCallTool: the spec's ResponseData envelope, or a bare ResponseCallTool from a lenient peer. */
function parseCallReply(raw: unknown): PluginReply {
  const bare = raw !== null && typeof raw === 'object' && !('value' in raw) && 'content' in raw;
  if (bare) {
    const parsed = ResponseCallToolSchema.safeParse(raw);
    if (!parsed.success) throw new InvokeFailure('protocol', parsed.error.message);
    const value = parsed.data;
    return replyFromEnvelope({ requestId: value.requestId, status: value.status, errorKind: value.errorKind, httpStatusCode: value.httpStatusCode, message: undefined, value });
  }
  const parsed = ResponseCallToolDataSchema.safeParse(raw);
  if (!parsed.success) throw new InvokeFailure('protocol', parsed.error.message);
  return replyFromEnvelope(parsed.data);
}

class HubPluginPort implements PluginPort {
  readonly connections = new Map<string, HubConnection>();
  readonly completions = new Map<string, PendingCompletion>();
  readonly progress = new Map<string, NonNullable<CallContext['progress']>>();
  readonly calls = new ActiveCalls();

  constructor(private readonly now: () => number) {}

  async invokeTool(
    connectionId: string,
    request: RequestCallTool,
    options: { timeoutMs: number; signal: AbortSignal; onProgress?: CallContext['progress']; agentRequests?: CallContext['agentRequests'] },
  ): Promise<PluginReply> {
    const connection = this.connection(connectionId);
    const started = this.now();
    if (options.onProgress) this.progress.set(request.requestId, options.onProgress);
    this.calls.begin(request.requestId, connectionId, options.agentRequests);
    try {
      const raw = await this.invoke(connection, ClientMethod.RunCallTool, [request], options.timeoutMs, options.signal);
      const reply = parseCallReply(raw);
      if (reply.status !== ResponseStatus.Processing) return reply;
      const result = await this.completion(connectionId, request.requestId, options.timeoutMs - (this.now() - started), options.signal);
      return replyFromEnvelope({ requestId: request.requestId, status: result.status, errorKind: result.errorKind, message: undefined, httpStatusCode: undefined, value: result });
    } catch (error) {
      const failure = asInvokeFailure(error);
      if ((failure.reason === 'timeout' || failure.reason === 'aborted') && !connection.closed) {
        connection.send(ClientMethod.CancelToolRequest, [{ requestId: request.requestId, reason: failure.message }]);
      }
      throw failure;
    } finally {
      this.progress.delete(request.requestId);
      this.calls.end(request.requestId);
    }
  }

  async complete(connectionId: string, request: Omit<RequestCompletion, 'requestId'>, timeoutMs: number) {
    const raw = await this.invoke(this.connection(connectionId), ClientMethod.RunCompletion, [{ requestId: randomUUID(), ...request }], timeoutMs);
    return this.parse(ResponseCompletionDataSchema, raw);
  }

  async setSubscription(connectionId: string, uri: string, subscribed: boolean, timeoutMs: number): Promise<void> {
    const method = subscribed ? ClientMethod.RunSubscribeResource : ClientMethod.RunUnsubscribeResource;
    await this.invoke(this.connection(connectionId), method, [{ requestId: randomUUID(), uri }], timeoutMs);
  }

  async getPrompt(connectionId: string, name: string, args: Record<string, string>, timeoutMs: number) {
    const raw = await this.invoke(this.connection(connectionId), ClientMethod.RunGetPrompt, [{ requestId: randomUUID(), name, arguments: args }], timeoutMs);
    return this.parse(ResponseGetPromptDataSchema, raw);
  }

  async readResource(connectionId: string, uri: string, timeoutMs: number) {
    const raw = await this.invoke(this.connection(connectionId), ClientMethod.RunResourceContent, [{ requestId: randomUUID(), uri }], timeoutMs);
    const envelope = this.parse(ResponseResourceContentDataSchema, raw);
    return { ...envelope, value: envelope.value ?? undefined };
  }

  async list<T extends z.ZodType>(connection: HubConnection, method: string, schema: T, timeoutMs: number): Promise<z.output<T>> {
    return this.parse(schema, await this.invoke(connection, method, [{ requestId: randomUUID() }], timeoutMs));
  }

  activeCounts() {
    return this.calls.counts();
  }

  completeTool(connectionId: string, requestId: string, result: ResponseCallTool): void {
    const pending = this.completions.get(requestId);
    if (pending?.connectionId === connectionId) pending.resolve(result);
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

  private async invoke(connection: HubConnection, method: string, args: unknown[], timeoutMs: number, signal?: AbortSignal): Promise<unknown> {
    try {
      return await connection.invoke(method, args, { timeoutMs: Math.max(1, timeoutMs), ...(signal ? { signal } : {}) });
    } catch (error) {
      throw asInvokeFailure(error);
    }
  }

  private parse<T extends z.ZodType>(schema: T, raw: unknown): z.output<T> {
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw new InvokeFailure('protocol', parsed.error.message);
    return parsed.data;
  }

  /** Waits for NotifyToolRequestCompleted of a call the plugin answered `Processing`. */
  private completion(connectionId: string, requestId: string, timeoutMs: number, signal: AbortSignal): Promise<ResponseCallTool> {
    return new Promise((resolve, reject) => {
      const finish = () => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        this.completions.delete(requestId);
      };
      const onAbort = () => {
        finish();
        reject(new InvokeFailure('aborted', 'The call was cancelled.'));
      };
      const timer = setTimeout(() => {
        finish();
        reject(new InvokeFailure('timeout', 'The plugin did not report completion in time.'));
      }, Math.max(1, timeoutMs));
      signal.addEventListener('abort', onAbort, { once: true });
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
  const registry = new PluginRegistry(settings.serverVersion);
  const port = new HubPluginPort(now);
  const generations = new Map<string, number>();
  const disposers: Array<() => void> = [];
  const source = new BridgeToolSource(registry, port, { timeoutMs: settings.pluginTimeoutMs, reconnectWaitMs: waitMs, resendIntervalMs: settings.resendIntervalMs, now }, disposers);

  const warn = (connectionId: string, message: string) => source.events.emit('log', { connectionId, level: 'warning', message });

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
      if (kind === 'tools') registry.toolsUnavailable(connection.id);
      warn(connection.id, `Could not fetch the plugin's ${kind}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }

  const refreshLater = (connection: HubConnection, kind: CatalogueKind) => {
    setImmediate(() => void refresh(connection, kind));
  };

  const notifyUpdated = (kind: CatalogueKind) => (connection: HubConnection, raw: unknown) => {
    const request = RequestIdOnlySchema.safeParse(raw ?? {});
    if (registry.get(connection.id)?.handshake) refreshLater(connection, kind);
    return successData(request.success ? request.data.requestId : '');
  };

  disposers.push(
    hub.on(ServerMethod.PerformVersionHandshake, (connection, raw) => {
      const request = parseOrThrow(RequestVersionHandshakeSchema, raw, 'version handshake request');
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
    hub.on(ServerMethod.NotifyAboutUpdatedTools, notifyUpdated('tools')),
    hub.on(ServerMethod.NotifyAboutUpdatedPrompts, notifyUpdated('prompts')),
    hub.on(ServerMethod.NotifyAboutUpdatedResources, notifyUpdated('resources')),
    hub.on(ServerMethod.NotifyToolRequestCompleted, (connection, raw) => {
      const data = parseOrThrow(RequestToolCompletedDataSchema, raw, 'tool completion');
      port.completeTool(connection.id, data.requestId, data.result);
      return successData(data.requestId);
    }),
    hub.on(ServerMethod.NotifyToolProgress, (_connection, raw) => {
      const data = parseOrThrow(NotifyToolProgressSchema, raw, 'tool progress');
      port.progress.get(data.requestId)?.({
        progress: data.progress,
        ...(data.total === undefined ? {} : { total: data.total }),
        ...(data.message === undefined ? {} : { message: data.message }),
      });
      return successData(data.requestId);
    }),
    ...attachAgentBridge(hub, port.calls, source),
    hub.on(ServerMethod.GetMcpClientData, () => []),
    hub.on(ServerMethod.GetMcpServerData, () => ({ serverVersion: settings.serverVersion, apiVersion: API_VERSION })),
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
