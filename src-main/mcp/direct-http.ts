/**
 * `POST /api/tools/{name}` (body: the arguments object) and `GET /api/tools`, for agents and scripts that
 * do not speak MCP, plus the same under `/p/{pin}` for one project. Failures answer the status of their
 * error's kind (contracts/error-table.ts). Malformed pins are refused before this room sees them.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ANSWER_BY_KIND, httpStatusOf, JunctionError, toStructuredError, type AgentScope, type JsonText, type StructuredError, type ToolOutcome } from '../contracts/index.js';
import { hangUpSignal, parseJsonBytes, requestRoute, textByteLength, writeText } from '../shared/index.js';
import type { Catalogue } from './catalogue.js';
import type { Dispatcher } from './dispatcher.js';

export interface DirectApiOptions {
  catalogue: Catalogue;
  dispatcher: Dispatcher;
  readBody: BodyReader;
  /** Identifies the caller for the console, e.g. from the remote address. */
  agentOf?: (req: IncomingMessage) => string;
  /** Told about every call request before it runs (agent presence: API callers have no session). */
  onCaller?: (req: IncomingMessage) => void;
}

export function sendJson(res: ServerResponse, status: number, body: unknown) {
  sendJsonText(res, status, JSON.stringify(body));
}

function sendJsonText(res: ServerResponse, status: number, text: JsonText) {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': textByteLength(text) });
  writeText(res, text, true);
}

/** Answers a structured error with the status the one error table gives its code. */
export function sendError(res: ServerResponse, error: StructuredError) {
  sendJson(res, httpStatusOf(error), { error });
}

/** Refuses a method the route does not take: 405 with the Allow header HTTP requires. */
export function sendMethodNotAllowed(res: ServerResponse, allow: string, message: string) {
  res.setHeader('allow', allow);
  sendError(res, { code: 'MethodNotAllowed', message });
}

/** Reads the request body within the configured cap and deadline, or throws a JunctionError (PayloadTooLarge, RequestTimeout, InvalidArguments). */
export type BodyReader = (req: IncomingMessage, res: ServerResponse) => Promise<Buffer>;

/**
 * The request body as a tool's arguments object (an empty body is `{}`) and its size in bytes as
 * received; throws InvalidArguments, PayloadTooLarge or RequestTimeout.
 */
async function readArguments(readBody: BodyReader, req: IncomingMessage, res: ServerResponse): Promise<{ args: Record<string, unknown>; bytes: number }> {
  const raw = await readBody(req, res);
  if (raw.length === 0) return { args: {}, bytes: 0 };
  let parsed: unknown;
  try {
    parsed = parseJsonBytes(raw);
  } catch (error) {
    throw new JunctionError('InvalidArguments', `The request body is not valid JSON: ${(error as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new JunctionError('InvalidArguments', 'The request body must be a JSON object of tool arguments.');
  }
  return { args: parsed as Record<string, unknown>, bytes: raw.length };
}

/** Answers a body that could not be read as arguments. */
function sendArgumentsError(res: ServerResponse, error: unknown): void {
  sendError(res, toStructuredError(error));
}

/**
 * A tool request's arguments and a signal that aborts when the caller hangs up, or
 * undefined once the refusal of an unreadable body has been answered.
 */
export async function acceptToolRequest(readBody: BodyReader, req: IncomingMessage, res: ServerResponse): Promise<{ args: Record<string, unknown>; bytes: number; signal: AbortSignal } | undefined> {
  let read: { args: Record<string, unknown>; bytes: number };
  try {
    read = await readArguments(readBody, req, res);
  } catch (error) {
    sendArgumentsError(res, error);
    return undefined;
  }
  return { args: read.args, bytes: read.bytes, signal: hangUpSignal(req) };
}

/**
 * A tool outcome as an HTTP answer: 200 with the result, or the status of the error's kind. A status
 * the plugin declared itself (McpPlugin.Server's forwarding) is answered as is, with its message unchanged.
 */
export function sendOutcome(res: ServerResponse, name: string, outcome: ToolOutcome): void {
  const failed = outcome.error;
  if (!failed) {
    if (outcome.resultJson === undefined) sendJson(res, 200, outcome.result);
    else sendJsonText(res, 200, outcome.resultJson);
    return;
  }
  const { kind, pluginStatus, ...error } = failed;
  if (pluginStatus !== undefined) {
    sendJson(res, pluginStatus, { error });
    return;
  }
  const message = kind === 'thrown' || kind === 'internal' ? `Tool execution failed for '${name}': ${error.message}` : error.message;
  sendJson(res, ANSWER_BY_KIND[kind].http, { error: { ...error, message } });
}

/** What policy rules match /api callers as: they name no MCP client. */
const API_AGENT_NAME = 'http';

export function createDirectToolApi(options: DirectApiOptions) {
  const agentOf = options.agentOf ?? ((req: IncomingMessage) => `http ${req.socket.remoteAddress ?? 'unknown'}`);

  const callTool = async (req: IncomingMessage, res: ServerResponse, name: string, scope: AgentScope) => {
    const request = await acceptToolRequest(options.readBody, req, res);
    if (!request) return;
    options.onCaller?.(req);
    const agent = agentOf(req);
    // Each request stands alone, so an "allow for this session" decision covers later requests from the same caller address.
    const outcome = await options.dispatcher.call({
      name,
      args: request.args,
      requestBytes: request.bytes,
      agent,
      agentName: API_AGENT_NAME,
      session: `http-api:${agent}`,
      transport: 'http-api',
      signal: request.signal,
      scope,
      // W3C Trace Context's own header; Node joins repeated ones with a comma, which no valid value holds.
      traceparent: req.headers['traceparent'],
    });
    sendOutcome(res, name, outcome);
  };

  return {
    handleRequest(req: IncomingMessage, res: ServerResponse): boolean {
      const route = requestRoute(req);
      if (route.kind === 'malformed') return false;
      const scope: AgentScope = { ...(route.kind === 'valid' ? { pin: route.pin } : {}), agentName: API_AGENT_NAME };
      if (route.rest === '/api/tools') {
        if (req.method !== 'GET') sendMethodNotAllowed(res, 'GET', 'Use GET /api/tools to list tools, POST /api/tools/{name} to call one.');
        else sendJson(res, 200, { tools: options.catalogue.listTools(scope) });
        return true;
      }
      const match = /^\/api\/tools\/([^/]+)$/.exec(route.rest);
      if (!match) return false;
      if (req.method !== 'POST') {
        sendMethodNotAllowed(res, 'POST', `Use POST /api/tools/${match[1]} with a JSON object of arguments.`);
        return true;
      }
      let name: string;
      try {
        name = decodeURIComponent(match[1]!);
      } catch {
        sendError(res, { code: 'InvalidArguments', message: 'The tool name in the path is not valid percent-encoding.' });
        return true;
      }
      callTool(req, res, name, scope).catch((error: unknown) => {
        if (!res.headersSent) sendError(res, toStructuredError(error));
      });
      return true;
    },
  };
}
