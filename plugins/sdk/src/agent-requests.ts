/**
 * The plugin side of MCP extension 1: a running tool's requests to its agent (elicitation, sampling)
 * sent over the hub and tied to the call, cancelled with the call, and failing with AgentRequestError.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import { AgentRequestError, errorMessage } from './errors.js';
import {
  ExtensionErrorCode,
  ResponseElicitationDataSchema,
  ResponseSamplingDataSchema,
  ResponseStatus,
  PluginToServer,
  type ResponseElicitation,
  type ResponseSampling,
} from '../wire/index.js';

/** How the plugin reaches the bridge; `undefined` from `invoke` means it is not connected. */
export interface AgentRequestChannel {
  /** False when the bridge did not accept the extension in the handshake (e.g. McpPlugin.Server). */
  supported(): boolean;
  invoke(method: string, payload: Record<string, unknown>): Promise<unknown>;
  send(method: string, payload: Record<string, unknown>): void;
}

async function request<S extends typeof ResponseElicitationDataSchema | typeof ResponseSamplingDataSchema>(
  channel: AgentRequestChannel,
  method: string,
  requestId: string,
  nestedKey: 'elicitationId' | 'samplingId',
  payload: Record<string, unknown>,
  schema: S,
  callSignal: AbortSignal,
  own: AbortSignal | undefined,
): Promise<NonNullable<z.output<S>['value']>> {
  // The request ends with the call, or earlier when the tool aborts its own signal.
  const signal = own ? AbortSignal.any([callSignal, own]) : callSignal;
  if (!channel.supported()) throw new AgentRequestError(ExtensionErrorCode.CapabilityUnavailable, 'The bridge did not accept the MCP extension, so requests to the agent are not possible.');
  if (signal.aborted) throw new AgentRequestError(ExtensionErrorCode.CallNotActive, 'The call was already cancelled.');
  const nestedId = randomUUID();
  const onAbort = () => channel.send(PluginToServer.CancelAgentRequest, { requestId, nestedId, reason: callSignal.aborted ? 'The tool call was cancelled.' : 'The tool withdrew the request.' });
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    let raw: unknown;
    try {
      raw = await channel.invoke(method, { requestId, [nestedKey]: nestedId, ...payload });
    } catch (error) {
      // The hub itself refused or lost the invocation: still an AgentRequestError, never a bare Error for the tool to parse.
      if (error instanceof AgentRequestError) throw error;
      throw new AgentRequestError(ExtensionErrorCode.AgentRequestFailed, `The bridge did not take the request: ${errorMessage(error)}`);
    }
    const parsed = schema.safeParse(raw);
    if (!parsed.success) throw new AgentRequestError(ExtensionErrorCode.AgentRequestFailed, `The bridge answered malformed data: ${parsed.error.message}`);
    const envelope = parsed.data;
    if (envelope.status === ResponseStatus.Error || !envelope.value) {
      throw new AgentRequestError(envelope.code ?? ExtensionErrorCode.AgentRequestFailed, envelope.message ?? 'The agent request failed.');
    }
    return envelope.value as NonNullable<z.output<S>['value']>;
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

export function elicit(
  channel: AgentRequestChannel,
  requestId: string,
  signal: AbortSignal,
  message: string,
  requestedSchema: Record<string, unknown>,
  own?: AbortSignal,
): Promise<ResponseElicitation> {
  return request(channel, PluginToServer.RequestElicitation, requestId, 'elicitationId', { message, requestedSchema }, ResponseElicitationDataSchema, signal, own);
}

export function sample(channel: AgentRequestChannel, requestId: string, signal: AbortSignal, params: Record<string, unknown>, own?: AbortSignal): Promise<ResponseSampling> {
  return request(channel, PluginToServer.RequestSampling, requestId, 'samplingId', { params }, ResponseSamplingDataSchema, signal, own);
}
