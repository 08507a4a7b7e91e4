/**
 * Builds MCP servers (one per agent session, as the SDK's Server serves one transport) over the shared
 * catalogue, dispatcher and content source, and keeps every live one told about catalogue changes.
 */
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ErrorCode,
  GetPromptRequestSchema,
  ListPromptsRequestSchema,
  ListResourcesRequestSchema,
  ListResourceTemplatesRequestSchema,
  ListToolsRequestSchema,
  McpError,
  ReadResourceRequestSchema,
} from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import { isJunctionError } from '../shared/errors.js';
import type { AgentTransport } from '../shared/tool-source.js';
import type { Catalogue } from './catalogue.js';
import type { ContentSource } from './content-source.js';
import type { Dispatcher } from './dispatcher.js';

export interface McpServerDeps {
  name: string;
  version: string;
  instructions?: string;
  catalogue: Catalogue;
  dispatcher: Dispatcher;
  content?: ContentSource;
}

export interface McpServerFactory {
  /** A new, unconnected server; `agentLabel` names the session in the console. */
  create(transport: AgentTransport, agentLabel: () => string): Server;
  liveCount(): number;
  close(): void;
}

/** JSON-RPC errors for prompts/resources keep the structured code in `data`. */
function toMcpError(error: unknown): McpError {
  if (error instanceof McpError) return error;
  if (isJunctionError(error)) {
    const code = error.code.endsWith('NotFound') || error.code === 'InvalidArguments' ? ErrorCode.InvalidParams : ErrorCode.InternalError;
    return new McpError(code, error.message, error.toStructured());
  }
  return new McpError(ErrorCode.InternalError, error instanceof Error ? error.message : String(error));
}

/**
 * tools/call is registered with this loose shape: the SDK checks a request against the registered
 * schema first and reports a mismatch as -32603 InternalError, while its own tools/call wrapper, which
 * runs next, answers -32602 InvalidParams, which is what a non-string tool name is.
 */
const LooseCallToolRequest = z.object({ method: z.literal('tools/call'), params: z.unknown() });

async function guarded<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw toMcpError(error);
  }
}

export function createMcpServerFactory(deps: McpServerDeps): McpServerFactory {
  const live = new Set<Server>();
  const broadcast = (send: (server: Server) => Promise<void>) => {
    for (const server of live) send(server).catch(() => undefined);
  };
  const unsubscribe = [
    deps.catalogue.onChanged(() => broadcast((s) => s.sendToolListChanged())),
    deps.content?.onPromptsChanged(() => broadcast((s) => s.sendPromptListChanged())),
    deps.content?.onResourcesChanged(() => broadcast((s) => s.sendResourceListChanged())),
  ];

  return {
    create(transport, agentLabel) {
      const content = deps.content;
      const server = new Server(
        { name: deps.name, version: deps.version },
        {
          capabilities: {
            tools: { listChanged: true },
            ...(content ? { prompts: { listChanged: true }, resources: { listChanged: true } } : {}),
          },
          ...(deps.instructions ? { instructions: deps.instructions } : {}),
        },
      );
      const agent = () => {
        const client = server.getClientVersion();
        return client ? `${client.name}/${client.version} ${agentLabel()}` : agentLabel();
      };

      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: deps.catalogue.listTools() }));
      server.setRequestHandler(LooseCallToolRequest, async (loose, extra) => {
        // The SDK's wrapper has validated it against CallToolRequestSchema by now; this only types it.
        const request = CallToolRequestSchema.parse(loose);
        const progressToken = request.params._meta?.progressToken;
        const outcome = await deps.dispatcher.call({
          name: request.params.name,
          args: request.params.arguments ?? {},
          agent: agent(),
          transport,
          signal: extra.signal,
          ...(progressToken !== undefined
            ? {
                progress: (update) => {
                  extra.sendNotification({ method: 'notifications/progress', params: { progressToken, ...update } }).catch(() => undefined);
                },
              }
            : {}),
        });
        return outcome.result;
      });
      if (content) {
        server.setRequestHandler(ListPromptsRequestSchema, () => guarded(async () => content.listPrompts()));
        server.setRequestHandler(GetPromptRequestSchema, (request) => guarded(() => content.getPrompt(request.params.name, request.params.arguments ?? {})));
        server.setRequestHandler(ListResourcesRequestSchema, () => guarded(async () => content.listResources()));
        server.setRequestHandler(ListResourceTemplatesRequestSchema, () => guarded(async () => content.listResourceTemplates()));
        server.setRequestHandler(ReadResourceRequestSchema, (request) => guarded(() => content.readResource(request.params.uri)));
      }
      live.add(server);
      server.onclose = () => live.delete(server);
      return server;
    },
    liveCount: () => live.size,
    close() {
      for (const u of unsubscribe) u?.();
      for (const server of [...live]) server.close().catch(() => undefined);
      live.clear();
    },
  };
}
