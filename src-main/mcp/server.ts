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
import { isJunctionError } from '../shared/errors.js';
import type { AgentScope } from '../shared/project-pin.js';
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
  /** Told when an agent session completes its initialize handshake and when it closes. */
  sessions?: SessionObserver;
}

/** An agent session as the rest of Junction sees it: who it is and which project pin its route carries. */
export interface AgentSessionInfo {
  sessionId: string;
  transport: AgentTransport;
  pin?: string;
  client: { name?: string; version?: string; title?: string; description?: string; websiteUrl?: string };
}

export interface SessionObserver {
  opened(session: AgentSessionInfo): void;
  closed(session: AgentSessionInfo): void;
}

/** How a server knows its session: the id (known once the transport assigned it) and the route's pin. */
export interface SessionBinding {
  id: () => string | undefined;
  pin?: string;
}

export interface McpServerFactory {
  /** A new, unconnected server; `agentLabel` names the session in the console. */
  create(transport: AgentTransport, agentLabel: () => string, session?: SessionBinding): Server;
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
    create(transport, agentLabel, session) {
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

      const scope = (): AgentScope => {
        const id = session?.id();
        return { ...(id !== undefined ? { sessionId: id } : {}), ...(session?.pin !== undefined ? { pin: session.pin } : {}) };
      };
      let opened: AgentSessionInfo | undefined;
      server.oninitialized = () => {
        const sessionId = session?.id();
        if (sessionId === undefined || opened) return;
        const client = server.getClientVersion();
        opened = {
          sessionId,
          transport,
          ...(session?.pin !== undefined ? { pin: session.pin } : {}),
          client: client ? { name: client.name, version: client.version, title: client.title, description: client.description, websiteUrl: client.websiteUrl } : {},
        };
        deps.sessions?.opened(opened);
      };

      server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: deps.catalogue.listTools(scope()) }));
      server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
        const progressToken = request.params._meta?.progressToken;
        const outcome = await deps.dispatcher.call({
          name: request.params.name,
          args: request.params.arguments ?? {},
          agent: agent(),
          transport,
          signal: extra.signal,
          scope: scope(),
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
        server.setRequestHandler(ListPromptsRequestSchema, () => guarded(async () => content.listPrompts(scope())));
        server.setRequestHandler(GetPromptRequestSchema, (request) => guarded(() => content.getPrompt(request.params.name, request.params.arguments ?? {}, scope())));
        server.setRequestHandler(ListResourcesRequestSchema, () => guarded(async () => content.listResources(scope())));
        server.setRequestHandler(ListResourceTemplatesRequestSchema, () => guarded(async () => content.listResourceTemplates(scope())));
        server.setRequestHandler(ReadResourceRequestSchema, (request) => guarded(() => content.readResource(request.params.uri, scope())));
      }
      live.add(server);
      server.onclose = () => {
        live.delete(server);
        if (opened) deps.sessions?.closed(opened);
        opened = undefined;
      };
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
