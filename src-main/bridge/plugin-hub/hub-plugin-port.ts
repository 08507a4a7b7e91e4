/**
 * The way from the bridge to a plugin connection over the hub: server-to-plugin invocations written as
 * McpPlugin.Server writes them, replies read through the contract's schemas, long-running calls
 * (`Processing`, then NotifyToolRequestCompleted) awaited, and a call the bridge gave up on cancelled.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import {
  ResponseCompletionDataSchema,
  ResponseGetPromptDataSchema,
  ResponseListToolsDataSchema,
  ResponseResourceContentDataSchema,
  ResponseStatus,
  ServerToPlugin,
  toDotNetWire,
  type RequestCallTool,
  type RequestCompletion,
  type ResponseCallTool,
  type ResponseListTool,
} from '../../../plugins/sdk/wire/index.js';
import type { CallContext } from '../../contracts/index.js';
import { errorMessage, onAbort } from '../../shared/index.js';
import { CallDeadline, InvokeFailure, issuesText, parseCallReply, replyFromEnvelope, type PluginReply } from '../calls/index.js';
import { HubInvocationError, type HubConnection } from '../signalr/index.js';
import type { PluginPort } from '../source/index.js';
import { ActiveCalls } from './active-calls.js';

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

export class HubPluginPort implements PluginPort {
  readonly connections = new Map<string, HubConnection>();
  readonly completions = new Map<string, PendingCompletion>();
  readonly progress = new Map<string, NonNullable<CallContext['progress']>>();
  readonly calls: ActiveCalls;
  /** Calls in flight, and a completion that arrived before its `Processing` reply was read. */
  private readonly inFlight = new Map<string, ResponseCallTool | undefined>();

  constructor(
    private readonly now: () => number,
    /** Told once per malformed plugin payload, so the operator sees what the agent got an error for. */
    private readonly malformed: (connectionId: string, message: string) => void,
    limits: { maxPendingAgentRequestsPerConnection: number; agentRequestTimeoutMs: number },
  ) {
    this.calls = new ActiveCalls(limits.maxPendingAgentRequestsPerConnection, limits.agentRequestTimeoutMs);
  }

  async invokeTool(
    connectionId: string,
    request: RequestCallTool,
    options: { deadline: CallDeadline; signal: AbortSignal; onProgress?: CallContext['progress']; agentRequests?: CallContext['agentRequests'] },
  ): Promise<PluginReply> {
    return this.runTool(connectionId, ServerToPlugin.RunCallTool, request, options);
  }

  /** A system tool call (RunSystemTool): the same reply shapes and deadline as a tool call. */
  invokeSystemTool(connectionId: string, request: RequestCallTool, options: { timeoutMs: number; signal: AbortSignal }): Promise<PluginReply> {
    return this.runTool(connectionId, ServerToPlugin.RunSystemTool, request, { deadline: new CallDeadline(options.timeoutMs, this.now), signal: options.signal });
  }

  async complete(connectionId: string, request: Omit<RequestCompletion, 'requestId'>, timeoutMs: number) {
    const raw = await this.invoke(this.connection(connectionId), ServerToPlugin.RunCompletion, [{ requestId: randomUUID(), ...request }], timeoutMs);
    return this.parse(connectionId, ServerToPlugin.RunCompletion, ResponseCompletionDataSchema, raw);
  }

  async setSubscription(connectionId: string, uri: string, subscribed: boolean, timeoutMs: number): Promise<void> {
    const method = subscribed ? ServerToPlugin.RunSubscribeResource : ServerToPlugin.RunUnsubscribeResource;
    await this.invoke(this.connection(connectionId), method, [{ requestId: randomUUID(), uri }], timeoutMs);
  }

  async getPrompt(connectionId: string, name: string, args: Record<string, string>, timeoutMs: number) {
    const raw = await this.invoke(this.connection(connectionId), ServerToPlugin.RunGetPrompt, [{ requestId: randomUUID(), name, arguments: args }], timeoutMs);
    return this.parse(connectionId, ServerToPlugin.RunGetPrompt, ResponseGetPromptDataSchema, raw);
  }

  async readResource(connectionId: string, uri: string, timeoutMs: number) {
    const raw = await this.invoke(this.connection(connectionId), ServerToPlugin.RunResourceContent, [{ requestId: randomUUID(), uri }], timeoutMs);
    const envelope = this.parse(connectionId, ServerToPlugin.RunResourceContent, ResponseResourceContentDataSchema, raw);
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
    const data = await this.list(this.connection(connectionId), ServerToPlugin.RunListSystemTool, ResponseListToolsDataSchema, timeoutMs);
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

  /**
   * One RunCallTool or RunSystemTool, bounded by what is left of the call's deadline (which stands
   * still while the call has agent requests pending) and by the caller's signal; a call given up on
   * is cancelled on the plugin (CancelToolRequest).
   */
  private async runTool(
    connectionId: string,
    method: string,
    request: RequestCallTool,
    options: { deadline: CallDeadline; signal: AbortSignal; onProgress?: CallContext['progress']; agentRequests?: CallContext['agentRequests'] },
  ): Promise<PluginReply> {
    const connection = this.connection(connectionId);
    const { requestId } = request;
    const { deadline } = options;
    // One signal for both ends of the wait: the caller giving up, and the deadline running out.
    const stop = new AbortController();
    let timedOut = false;
    const stopWatching = options.signal.aborted ? undefined : onAbort(options.signal, () => stop.abort());
    if (options.signal.aborted) stop.abort();
    const cancelExpiry = deadline.onExpiry(() => {
      timedOut = true;
      stop.abort();
    });
    if (options.onProgress) this.progress.set(requestId, options.onProgress);
    this.inFlight.set(requestId, undefined);
    this.calls.begin(requestId, connectionId, options.agentRequests, deadline);
    try {
      const raw = await this.invoke(connection, method, [request], stop.signal);
      const reply = this.decodeCallReply(connectionId, method, raw);
      if (reply.status !== ResponseStatus.Processing) return reply;
      const result = this.inFlight.get(requestId) ?? (await this.completion(connectionId, requestId, stop.signal));
      return replyFromEnvelope({ requestId, status: result.status, errorKind: result.errorKind, message: undefined, httpStatusCode: undefined, value: result });
    } catch (error) {
      let failure = asInvokeFailure(error);
      if (failure.reason === 'aborted' && timedOut) failure = new InvokeFailure('timeout', `The plugin did not finish '${request.name}' within ${deadline.budgetMs} ms.`);
      if ((failure.reason === 'timeout' || failure.reason === 'aborted') && !connection.closed) {
        connection.send(ServerToPlugin.CancelToolRequest, [toDotNetWire({ requestId, reason: failure.message })]);
      }
      throw failure;
    } finally {
      cancelExpiry();
      stopWatching?.();
      this.progress.delete(requestId);
      this.inFlight.delete(requestId);
      this.calls.end(requestId);
    }
  }

  /** Every server-to-plugin payload goes out as McpPlugin.Server writes it (PascalCase, enum names). */
  private async invoke(connection: HubConnection, method: string, args: unknown[], bound: number | AbortSignal): Promise<unknown> {
    try {
      const options = typeof bound === 'number' ? { timeoutMs: Math.max(1, bound) } : { signal: bound };
      return await connection.invoke(method, args.map(toDotNetWire), options);
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

  /** Waits for NotifyToolRequestCompleted of a call the plugin answered `Processing`, until `signal` (the call's deadline or its caller) ends the wait. */
  private completion(connectionId: string, requestId: string, signal: AbortSignal): Promise<ResponseCallTool> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(new InvokeFailure('aborted', 'The call was cancelled.'));
        return;
      }
      const finish = () => {
        stopWatching();
        this.completions.delete(requestId);
      };
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

