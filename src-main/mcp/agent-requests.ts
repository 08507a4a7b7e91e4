/**
 * Requests a tool (or a plugin's prompt or resource handler) makes of the agent session that called
 * it: elicitation, sampling, roots and log lines, all sent as related to the agent's request (so over
 * HTTP they ride that request's SSE stream), each refused with a structured code when the agent did
 * not declare the capability or the spec forbids the request. Keys name nothing on these revisions.
 */
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CreateMessageRequestParamsSchema,
  ElicitRequestFormParamsSchema,
  LoggingLevelSchema,
  type CreateMessageRequestParams,
  type ElicitRequestFormParams,
  type LoggingLevel,
  type RequestId,
} from '@modelcontextprotocol/sdk/types.js';
import { JunctionError } from '../contracts/index.js';
import type { AgentLogLevel, AgentRequests, ElicitationAnswer } from '../contracts/index.js';
import { errorMessage } from '../shared/index.js';

/** One agent session's logging/setLevel; `undefined` until the agent sets one (then every level is sent). */
export class SessionLogLevel {
  private level: LoggingLevel | undefined;

  set(level: LoggingLevel): void {
    this.level = level;
  }

  allows(level: AgentLogLevel): boolean {
    if (!this.level) return true;
    return LoggingLevelSchema.options.indexOf(level) >= LoggingLevelSchema.options.indexOf(this.level);
  }
}

export interface AgentRequestTarget {
  server: Server;
  /** The agent's request (tools/call, prompts/get, resources/read) the nested requests relate to. */
  relatedRequestId: RequestId;
  sendNotification: (notification: { method: 'notifications/message'; params: { level: LoggingLevel; logger?: string; data: unknown } }) => Promise<void>;
  logLevel: SessionLogLevel;
}

const issues = (error: { issues: ReadonlyArray<{ path: ReadonlyArray<PropertyKey>; message: string }> }) =>
  error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ');

function agentFailure(what: string, error: unknown): JunctionError {
  if (error instanceof JunctionError) return error;
  const message = errorMessage(error);
  return new JunctionError('AgentRequestFailed', `The agent did not complete the ${what}: ${message}`);
}

/** An elicitation's params as MCP allows them (a form of flat primitive properties); InvalidRequest otherwise. */
export function formElicitation(params: { message: string; requestedSchema: Record<string, unknown> }): ElicitRequestFormParams {
  const parsed = ElicitRequestFormParamsSchema.safeParse({ ...params, mode: 'form' });
  if (!parsed.success) throw new JunctionError('InvalidRequest', `The elicitation request is not allowed by the MCP specification: ${issues(parsed.error)}`);
  return parsed.data;
}

/** `sampling/createMessage` params as MCP allows them; InvalidRequest otherwise. */
export function samplingRequest(params: Record<string, unknown>): CreateMessageRequestParams {
  const parsed = CreateMessageRequestParamsSchema.safeParse(params);
  if (!parsed.success) throw new JunctionError('InvalidRequest', `The sampling request is not allowed by the MCP specification: ${issues(parsed.error)}`);
  return parsed.data;
}

export function agentRequestsFor(target: AgentRequestTarget): AgentRequests {
  const { server } = target;
  return {
    async elicit(params, signal): Promise<ElicitationAnswer> {
      if (!server.getClientCapabilities()?.elicitation) {
        throw new JunctionError('CapabilityUnavailable', 'The agent that made this call did not declare the elicitation capability.');
      }
      const form = formElicitation(params);
      try {
        const result = await server.elicitInput(form, { relatedRequestId: target.relatedRequestId, signal });
        return result.content === undefined ? { action: result.action } : { action: result.action, content: result.content as NonNullable<ElicitationAnswer['content']> };
      } catch (error) {
        throw agentFailure('elicitation', error);
      }
    },
    async sample(params, signal) {
      if (!server.getClientCapabilities()?.sampling) {
        throw new JunctionError('CapabilityUnavailable', 'The agent that made this call did not declare the sampling capability.');
      }
      const request = samplingRequest(params);
      try {
        return (await server.createMessage(request, { relatedRequestId: target.relatedRequestId, signal })) as Record<string, unknown>;
      } catch (error) {
        throw agentFailure('sampling request', error);
      }
    },
    async listRoots(signal) {
      if (!server.getClientCapabilities()?.roots) {
        throw new JunctionError('CapabilityUnavailable', 'The agent that made this call did not declare the roots capability.');
      }
      try {
        const { roots } = await server.listRoots(undefined, { relatedRequestId: target.relatedRequestId, signal });
        return { roots: roots.map((root) => (root.name === undefined ? { uri: root.uri } : { uri: root.uri, name: root.name })) };
      } catch (error) {
        throw agentFailure('roots request', error);
      }
    },
    log(level, data, logger) {
      if (!target.logLevel.allows(level)) return;
      target.sendNotification({ method: 'notifications/message', params: { level, data, ...(logger ? { logger } : {}) } }).catch(() => undefined);
    },
  };
}
