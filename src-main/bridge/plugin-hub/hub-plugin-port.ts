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
  PluginToServer,
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
import { CallDeadline, contentProblem, InvokeFailure, issuesText, parseCallReply, replyFromEnvelope, type PluginReply, type ToolCallOptions } from '../calls/index.js';
import { HubInvocationError, type HubConnection, type InvokeOptions } from '../signalr/index.js';
import type { ContentCallOptions, PluginPort } from '../source/index.js';
import { ActiveCalls } from './active-calls.js';

/** Content an agent could not take (an image without base64 data or a MIME type) fails the call as malformed. */
function checkedContent<T extends { content: PluginReply['content'] }>(reply: T): T {
  const problem = contentProblem(reply.content);
  if (problem !== undefined) throw new InvokeFailure('protocol', problem);
  return reply;
}

/**
 * How long a call the plugin answered `Processing` may take in all, whatever plugin-timeout is:
 * McpPlugin.Server bounds only the first answer by plugin-timeout and then awaits
 * NotifyToolRequestCompleted for 5 minutes (RemoteToolRunner), so a Unity test run or build completes.
 */
export const PROCESSING_WAIT_MS = 5 * 60_000;

/**
 * How often an agent that sent a progress token hears that a `Processing` call still runs. McpPlugin
 * has no progress message, so without this a 2-minute bake is silence, and an SDK client that resets
 * its request timeout on progress (60 s by default) gives up on a call that is fine.
 */
export const PROCESSING_PROGRESS_MS = 5_000;

type CancelWhen = NonNullable<InvokeOptions['cancelWhen']>;

/** What a `Processing` reply says about the work it started ("Running 412 tests…"), if anything. */
function processingText(reply: PluginReply): string | undefined {
  const text = reply.content.find((block) => block.type === 'text');
  return text && typeof text.text === 'string' && text.text !== '' ? text.text : reply.message;
}

interface PendingCompletion {
  connectionId: string;
  resolve: (result: ResponseCallTool) => void;
  reject: (failure: InvokeFailure) => void;
}

function asInvokeFailure(error: unknown): InvokeFailure {
  if (error instanceof InvokeFailure) return error;
  if (error instanceof HubInvocationError) return new InvokeFailure(error.reason === 'invalidArguments' || error.reason === 'malformed' ? 'protocol' : error.reason, error.message, error.size);
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
    /** Told once per call too large for the hub, which was therefore never sent. */
    private readonly tooLarge: (connectionId: string, message: string) => void = malformed,
    /** Whether a connection takes the Junction extension CancelToolRequest; McpPlugin 8.x has no handler for it and logs an error. */
    private readonly takesCancel: (connectionId: string) => boolean = () => true,
  ) {
    this.calls = new ActiveCalls(limits.maxPendingAgentRequestsPerConnection, limits.agentRequestTimeoutMs);
  }

  // Not async: a pass-through would hold one more suspended frame per call in flight.
  invokeTool(connectionId: string, request: RequestCallTool, options: ToolCallOptions): Promise<PluginReply> {
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

  async getPrompt(connectionId: string, name: string, args: Record<string, string>, options: ContentCallOptions) {
    const raw = await this.contentCall(connectionId, ServerToPlugin.RunGetPrompt, { name, arguments: args }, options);
    return this.parse(connectionId, ServerToPlugin.RunGetPrompt, ResponseGetPromptDataSchema, raw);
  }

  async readResource(connectionId: string, uri: string, options: ContentCallOptions) {
    const raw = await this.contentCall(connectionId, ServerToPlugin.RunResourceContent, { uri }, options);
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

  /** Fails the `Processing` call whose completion was too large to read; false when no such call waits. */
  failTool(connectionId: string, requestId: string, failure: InvokeFailure): boolean {
    const pending = this.completions.get(requestId);
    if (!pending || pending.connectionId !== connectionId) return false;
    pending.reject(failure);
    return true;
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
    options: ToolCallOptions,
  ): Promise<PluginReply> {
    const connection = this.connection(connectionId);
    const { requestId } = request;
    const { deadline, signal } = options;
    // Both ends of the wait, the caller giving up and the deadline running out, abort it alike; the
    // deadline is registered with whatever waits rather than through a signal of this call's own.
    let timedOut = false;
    const untilExpiry: CancelWhen = (abort) =>
      deadline.onExpiry(() => {
        timedOut = true;
        abort();
      });
    const started = this.now();
    let pluginTold = false;
    const { onProgress } = options;
    if (onProgress) {
      this.progress.set(requestId, (update) => {
        pluginTold = true;
        onProgress(update);
      });
    }
    let stopTelling: (() => void) | undefined;
    this.inFlight.set(requestId, undefined);
    this.calls.begin(requestId, connectionId, options.agentRequests, deadline);
    try {
      const raw = await this.invoke(connection, method, [request], { signal, cancelWhen: untilExpiry });
      const reply = this.decodeCallReply(connectionId, method, raw);
      if (reply.status !== ResponseStatus.Processing) return reply;
      deadline.extend(PROCESSING_WAIT_MS - deadline.budgetMs);
      const message = processingText(reply);
      options.onLongRunning?.(message);
      if (onProgress) {
        // Elapsed seconds, so the values rise as MCP requires, and no total: how long the work takes is the
        // plugin's to know, and the 5-minute budget would read as a share done. A plugin that reports its
        // own progress owns it from then on.
        const tell = () => {
          if (!pluginTold) onProgress({ progress: Math.floor((this.now() - started) / 1000), ...(message ? { message } : {}) });
        };
        tell();
        const ticker = setInterval(tell, PROCESSING_PROGRESS_MS);
        stopTelling = () => clearInterval(ticker);
      }
      const completed = this.inFlight.get(requestId) ?? (await this.completion(connectionId, requestId, signal, untilExpiry));
      const result = this.decodeCompletion(connectionId, completed);
      return replyFromEnvelope({ requestId, status: result.status, errorKind: result.errorKind, message: undefined, httpStatusCode: undefined, value: result });
    } catch (error) {
      let failure = asInvokeFailure(error);
      if (failure.reason === 'aborted' && timedOut) failure = new InvokeFailure('timeout', `The plugin did not finish '${request.name}' within ${deadline.budgetMs} ms.`);
      // An answer over the limit is reported where the hub skipped it; a call too large to send, here.
      if (failure.reason === 'payloadTooLarge' && failure.size?.direction === 'request') this.tooLarge(connectionId, `${method} '${request.name}' was not sent: ${failure.message}`);
      if ((failure.reason === 'timeout' || failure.reason === 'aborted') && !connection.closed && this.takesCancel(connectionId)) {
        connection.send(ServerToPlugin.CancelToolRequest, [toDotNetWire({ requestId, reason: failure.message })]);
      }
      throw failure;
    } finally {
      stopTelling?.();
      this.progress.delete(requestId);
      this.inFlight.delete(requestId);
      this.calls.end(requestId);
    }
  }

  /**
   * One RunGetPrompt or RunResourceContent, registered as a running call so its plugin may ask the
   * agent meanwhile (`asking`; without it, a question is refused CapabilityUnavailable): bounded by a
   * deadline that stands still while a question is pending and by the agent giving the request up.
   * Questions still pending when it ends fail with CallNotActive.
   */
  private async contentCall(connectionId: string, method: string, request: Record<string, unknown>, options: ContentCallOptions): Promise<unknown> {
    const connection = this.connection(connectionId);
    const requestId = randomUUID();
    const deadline = new CallDeadline(options.timeoutMs, this.now);
    let timedOut = false;
    this.calls.begin(requestId, connectionId, options.asking?.agentRequests, deadline);
    try {
      return await this.invoke(connection, method, [{ requestId, ...request }], {
        ...(options.asking ? { signal: options.asking.signal } : {}),
        cancelWhen: (abort) =>
          deadline.onExpiry(() => {
            timedOut = true;
            abort();
          }),
      });
    } catch (error) {
      if (error instanceof InvokeFailure && error.reason === 'aborted' && timedOut) throw new InvokeFailure('timeout', `The plugin did not answer ${method} within ${options.timeoutMs} ms.`);
      throw error;
    } finally {
      this.calls.end(requestId);
    }
  }

  /** Every server-to-plugin payload goes out as McpPlugin.Server writes it (PascalCase, enum names). */
  private async invoke(connection: HubConnection, method: string, args: unknown[], bound: number | InvokeOptions): Promise<unknown> {
    try {
      const options = typeof bound === 'number' ? { timeoutMs: Math.max(1, bound) } : bound;
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
      return checkedContent(parseCallReply(raw));
    } catch (error) {
      if (error instanceof InvokeFailure && error.reason === 'protocol') this.malformed(connectionId, `Malformed ${method} reply: ${error.message}`);
      throw error;
    }
  }

  private decodeCompletion(connectionId: string, result: ResponseCallTool): ResponseCallTool {
    try {
      return checkedContent(result);
    } catch (error) {
      if (error instanceof InvokeFailure) this.malformed(connectionId, `Malformed ${PluginToServer.NotifyToolRequestCompleted} result: ${error.message}`);
      throw error;
    }
  }

  /** Waits for NotifyToolRequestCompleted of a call the plugin answered `Processing`, until its caller (`signal`) or its deadline (`cancelWhen`) ends the wait. */
  private completion(connectionId: string, requestId: string, signal: AbortSignal, cancelWhen: CancelWhen): Promise<ResponseCallTool> {
    return new Promise((resolve, reject) => {
      if (signal.aborted) {
        reject(new InvokeFailure('aborted', 'The call was cancelled.'));
        return;
      }
      const finish = () => {
        stopWatching();
        withdrawCancel();
        this.completions.delete(requestId);
      };
      const cancel = () => {
        finish();
        reject(new InvokeFailure('aborted', 'The call was cancelled.'));
      };
      const stopWatching = onAbort(signal, cancel);
      const withdrawCancel = cancelWhen(cancel);
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

