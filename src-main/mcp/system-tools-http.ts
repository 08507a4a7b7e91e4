/**
 * `GET /api/system-tools` and `POST /api/system-tools/{name}`: a plugin's system tools (McpPlugin's
 * RunListSystemTool / RunSystemTool), reachable over HTTP only and never published to MCP agents.
 * `serve` takes the plugin connection already resolved, so a project-pinned route
 * (`/p/{pin}/api/system-tools/…`) is the same call with the pinned plugin's connection id.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { requestRoute, errorMessage } from '../shared/index.js';
import { type AgentScope } from '../contracts/index.js';
import type { ToolDescriptor, ToolOutcome } from '../contracts/index.js';
import { acceptToolRequest, sendError, sendJson, sendMethodNotAllowed, sendOutcome, type BodyReader } from './direct-http.js';

export interface SystemToolProvider {
  /** The plugin that serves a request with this scope (pin), or undefined when none is connected. */
  systemToolTarget(scope?: AgentScope): string | undefined;
  /** Why a pinned request has no plugin (its project is not connected), as a tool failure naming the project. */
  explainMissing?(name: string, scope?: AgentScope): ToolOutcome | undefined;
  listSystemTools(connectionId: string): Promise<{ ok: true; tools: ToolDescriptor[] } | { ok: false; outcome: ToolOutcome }>;
  callSystemTool(connectionId: string, name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<ToolOutcome>;
}

export interface SystemToolApiOptions {
  provider: SystemToolProvider;
  readBody: BodyReader;
}

const PREFIX = '/api/system-tools';

export function createSystemToolApi(options: SystemToolApiOptions) {
  const { provider } = options;

  async function call(req: IncomingMessage, res: ServerResponse, connectionId: string, name: string): Promise<void> {
    const request = await acceptToolRequest(options.readBody, req, res);
    if (!request) return;
    sendOutcome(res, name, await provider.callSystemTool(connectionId, name, request.args, request.signal));
  }

  async function list(res: ServerResponse, connectionId: string): Promise<void> {
    const listed = await provider.listSystemTools(connectionId);
    if (listed.ok) sendJson(res, 200, { tools: listed.tools });
    else sendOutcome(res, 'system tools', listed.outcome);
  }

  /**
   * Answers `rest` (the path after the system-tools prefix: '' or '/{name}') against one plugin
   * connection; `connectionId` undefined means no plugin is there to ask.
   */
  function serve(req: IncomingMessage, res: ServerResponse, rest: string, connectionId: string | undefined): void {
    const named = /^\/([^/]+)$/.exec(rest);
    if (rest !== '' && rest !== '/' && !named) {
      sendError(res, { code: 'ToolNotFound', message: `No system-tools route '${rest}'; use GET ${PREFIX} or POST ${PREFIX}/{name}.` });
      return;
    }
    const expected = named ? 'POST' : 'GET';
    if (req.method !== expected) {
      sendMethodNotAllowed(res, expected, `Use GET ${PREFIX} to list system tools, POST ${PREFIX}/{name} to call one.`);
      return;
    }
    if (connectionId === undefined) {
      sendError(res, { code: 'PluginUnavailable', message: 'No plugin is connected to run system tools.', next: { kind: 'retryLater', tools: [] } });
      return;
    }
    let name: string | undefined;
    try {
      name = named ? decodeURIComponent(named[1]!) : undefined;
    } catch {
      sendError(res, { code: 'InvalidArguments', message: 'The system tool name in the path is not valid percent-encoding.' });
      return;
    }
    const work = name === undefined ? list(res, connectionId) : call(req, res, connectionId, name);
    work.catch((error: unknown) => {
      if (!res.headersSent) sendError(res, { code: 'InternalError', message: errorMessage(error) });
    });
  }

  return {
    serve,
    handleRequest(req: IncomingMessage, res: ServerResponse): boolean {
      // Malformed pins never get here: the composing server refuses them first.
      const route = requestRoute(req);
      if (route.kind === 'malformed' || (route.rest !== PREFIX && !route.rest.startsWith(`${PREFIX}/`))) return false;
      const scope: AgentScope = route.kind === 'valid' ? { pin: route.pin } : {};
      const target = provider.systemToolTarget(scope);
      const missing = target === undefined ? provider.explainMissing?.('system tools', scope) : undefined;
      if (missing) sendOutcome(res, 'system tools', missing);
      else serve(req, res, route.rest.slice(PREFIX.length), target);
      return true;
    },
  };
}
