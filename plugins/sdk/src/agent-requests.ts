/**
 * The plugin side of MCP extension 1: the requests a running call (a tool call, or a prompt get or
 * resource read) makes of its agent (elicitation, sampling, roots), sent over the hub and tied to
 * that call, cancelled with it, and failing with AgentRequestError.
 */
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { AgentRequestOptions, AgentRequests } from './definitions.js';
import { AgentRequestError, errorMessage } from './errors.js';
import {
  ExtensionErrorCode,
  ResponseElicitationDataSchema,
  ResponseRootsDataSchema,
  ResponseSamplingDataSchema,
  ResponseStatus,
  PluginToServer,
  type ExtensionFeature,
} from '../wire/index.js';

/** How the plugin reaches the bridge; `undefined` from `invoke` means it is not connected. */
export interface AgentRequestChannel {
  /**
   * Whether the bridge accepted the extension in the handshake, and with it `feature` when one is
   * named (false for McpPlugin.Server, and for a feature an older bridge does not list).
   */
  supports(feature?: ExtensionFeature): boolean;
  invoke(method: string, payload: Record<string, unknown>): Promise<unknown>;
  send(method: string, payload: Record<string, unknown>): void;
}

type AnswerSchema = typeof ResponseElicitationDataSchema | typeof ResponseSamplingDataSchema | typeof ResponseRootsDataSchema;

/** One kind of request: its hub method, the name of its own id, and the feature it needs beyond the extension. */
interface RequestKind<S extends AnswerSchema> {
  method: string;
  nestedKey: 'elicitationId' | 'samplingId' | 'rootsId';
  schema: S;
  feature?: ExtensionFeature;
}

const ELICITATION = { method: PluginToServer.RequestElicitation, nestedKey: 'elicitationId', schema: ResponseElicitationDataSchema } as const;
const SAMPLING = { method: PluginToServer.RequestSampling, nestedKey: 'samplingId', schema: ResponseSamplingDataSchema } as const;
const ROOTS = { method: PluginToServer.RequestRoots, nestedKey: 'rootsId', schema: ResponseRootsDataSchema, feature: 'roots' } as const;

async function request<S extends AnswerSchema>(
  channel: AgentRequestChannel,
  kind: RequestKind<S>,
  requestId: string,
  payload: Record<string, unknown>,
  callSignal: AbortSignal,
  options: AgentRequestOptions | undefined,
): Promise<NonNullable<z.output<S>['value']>> {
  // The request ends with the call, or earlier when the handler aborts its own signal.
  const own = options?.signal;
  const signal = own ? AbortSignal.any([callSignal, own]) : callSignal;
  if (!channel.supports()) throw new AgentRequestError(ExtensionErrorCode.CapabilityUnavailable, 'The bridge did not accept the MCP extension, so requests to the agent are not possible.');
  if (kind.feature && !channel.supports(kind.feature)) {
    throw new AgentRequestError(ExtensionErrorCode.CapabilityUnavailable, `The bridge does not take ${kind.method} (it did not accept the extension feature '${kind.feature}').`);
  }
  if (signal.aborted) throw new AgentRequestError(ExtensionErrorCode.CallNotActive, 'The call was already cancelled.');
  const nestedId = randomUUID();
  const onAbort = () => channel.send(PluginToServer.CancelAgentRequest, { requestId, nestedId, reason: callSignal.aborted ? 'The call was cancelled.' : 'The handler withdrew the request.' });
  signal.addEventListener('abort', onAbort, { once: true });
  try {
    let raw: unknown;
    try {
      // The key goes as given: the bridge reads it by the contract's schema and refuses a bad one with InvalidRequest.
      raw = await channel.invoke(kind.method, { requestId, [kind.nestedKey]: nestedId, ...payload, ...(options?.key !== undefined ? { key: options.key } : {}) });
    } catch (error) {
      // The hub itself refused or lost the invocation: still an AgentRequestError, never a bare Error for the handler to parse.
      if (error instanceof AgentRequestError) throw error;
      throw new AgentRequestError(ExtensionErrorCode.AgentRequestFailed, `The bridge did not take the request: ${errorMessage(error)}`);
    }
    const parsed = kind.schema.safeParse(raw);
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

/** What the handler of the call `requestId` may ask its agent, until `signal` ends the call. */
export function agentRequests(channel: AgentRequestChannel, requestId: string, signal: AbortSignal): AgentRequests {
  return {
    elicit: (message, requestedSchema, options) => request(channel, ELICITATION, requestId, { message, requestedSchema }, signal, options),
    sample: (params, options) => request(channel, SAMPLING, requestId, { params }, signal, options),
    listRoots: (options) => request(channel, ROOTS, requestId, {}, signal, options),
  };
}
