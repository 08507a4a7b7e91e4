/**
 * stdio for agents that spawn a process (`junction connect`): either relay every JSON-RPC message to a
 * running instance's `/mcp`, or serve an in-process catalogue directly. stdout carries only protocol.
 */
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isInitializeRequest, isJSONRPCRequest, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { StructuredError } from '../contracts/index.js';
import { createStatelessRelay } from './modern/stdio-relay.js';
import type { McpServerFactory } from './server.js';
import { StdioLineTransport, type StdioLineOptions } from './stdio-lines.js';

/**
 * The JSON-RPC error Junction answered a refused POST with, when the failure carries it: the SDK's
 * StreamableHTTPError quotes the response body after "Error POSTing to endpoint: ".
 */
function answeredError(error: unknown): { code: number; message: string; data?: unknown } | undefined {
  const text = error instanceof Error ? error.message : '';
  const start = text.indexOf('{');
  if (!text.includes('Error POSTing to endpoint') || start === -1) return undefined;
  try {
    const body = JSON.parse(text.slice(start)) as { error?: { code?: unknown; message?: unknown; data?: unknown } };
    const answered = body.error;
    if (typeof answered?.code !== 'number' || typeof answered.message !== 'string') return undefined;
    return { code: answered.code, message: answered.message, ...(answered.data === undefined ? {} : { data: answered.data }) };
  } catch {
    return undefined;
  }
}

export type StdioStreams = Pick<StdioLineOptions, 'stdin' | 'stdout'>;

/** Serves the in-process catalogue over stdio until stdin ends; `pin` holds the session to one project. */
export async function serveStdio(factory: McpServerFactory, streams: StdioStreams = {}, pin?: string): Promise<Transport> {
  const server = await factory.create('mcp-stdio', () => 'stdio', { id: () => 'stdio', ...(pin ? { pin } : {}) });
  const transport = new StdioLineTransport(streams);
  await server.connect(transport);
  return transport;
}

/**
 * When no MCP server can be offered (the in-process instance could not start), answers every request
 * with `error` until stdin ends, so the agent shows the cause instead of "Connection closed".
 */
export async function refuseStdio(error: StructuredError, streams: StdioStreams = {}): Promise<void> {
  const transport = new StdioLineTransport(streams);
  const ended = new Promise<void>((resolve) => (transport.onclose = resolve));
  transport.onmessage = (message) => {
    if (isJSONRPCRequest(message)) {
      transport.send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: error.message, data: error } }).catch(() => undefined);
    }
  };
  await transport.start();
  await ended;
}

export interface StdioProxy {
  closed: Promise<void>;
  close(): Promise<void>;
}

const isAnswerTo = (message: JSONRPCMessage, id: RequestId) => 'id' in message && message.id === id && ('result' in message || 'error' in message);

/**
 * Relays stdio to `url` message by message. The HTTP side owns the session id and its notification
 * stream, so list_changed and progress reach the agent exactly as over HTTP. When stdin ends the
 * session is ended on the server too (HTTP DELETE), rather than left to expire.
 */
export async function proxyStdioToHttp(
  url: URL,
  options: StdioStreams & { headers?: Record<string, string>; log?: (message: string) => void } = {},
): Promise<StdioProxy> {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  // The SDK's client side (and its OAuth and SSE dependencies) is loaded only by `junction connect`, never by a serving Junction.
  const { StreamableHTTPClientTransport } = await import('@modelcontextprotocol/sdk/client/streamableHttp.js');
  const local = new StdioLineTransport(options);
  // 2026-07-28 requests carry their version in _meta and need no session: each is its own POST.
  const stateless = createStatelessRelay(url, options.headers ?? {}, (message) => void local.send(message).catch(() => undefined), log);
  const remote = new StreamableHTTPClientTransport(url, options.headers ? { requestInit: { headers: options.headers } } : undefined);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing = false;
  const close = async () => {
    if (closing) return closed;
    closing = true;
    stateless.close();
    // Ending the HTTP session tells Junction (and the plugins it notifies) that this agent left.
    await remote.terminateSession().catch(() => undefined);
    await Promise.allSettled([remote.close(), local.close()]);
    resolveClosed();
  };

  // Until initialize is answered there is no session id (nor protocol version) to send with anything
  // else, so what the agent sends meanwhile waits here and goes out, in order, right after the answer.
  let initializing: RequestId | undefined;
  let held: JSONRPCMessage[] = [];
  const releaseHeld = () => {
    initializing = undefined;
    const queued = held;
    held = [];
    for (const message of queued) forward(message);
  };

  function forward(message: JSONRPCMessage): void {
    remote.send(message).catch((error: unknown) => {
      log(`junction connect: could not forward to ${url.href}: ${(error as Error).message}`);
      if (isJSONRPCRequest(message)) {
        // Junction answered, with an error of its own (a body over max-body-bytes, a bad header): relay that answer.
        const answered = answeredError(error);
        local
          .send({ jsonrpc: '2.0', id: message.id, error: answered ?? { code: -32000, message: `Junction at ${url.href} is unreachable: ${(error as Error).message}` } })
          .catch(() => undefined);
      }
      if (initializing !== undefined && isInitializeRequest(message)) releaseHeld();
    });
  }

  local.onmessage = (message) => {
    if (stateless.takes(message)) {
      stateless.forward(message);
      return;
    }
    if (initializing !== undefined) {
      held.push(message);
      return;
    }
    if (isJSONRPCRequest(message) && isInitializeRequest(message)) initializing = message.id;
    forward(message);
  };
  remote.onmessage = (message) => {
    local.send(message).catch(() => undefined);
    if (initializing === undefined || !isAnswerTo(message, initializing)) return;
    // Every request after initialize must carry the negotiated MCP-Protocol-Version header.
    const version = 'result' in message ? (message.result as { protocolVersion?: unknown }).protocolVersion : undefined;
    if (typeof version === 'string') remote.setProtocolVersion(version);
    releaseHeld();
  };
  // Closing aborts the notification stream on purpose; only errors before that are worth a line.
  remote.onerror = (error) => {
    if (!closing) log(`junction connect: ${error.message}`);
  };
  local.onclose = () => void close();
  remote.onclose = () => void close();
  await remote.start();
  await local.start();
  return { closed, close };
}
