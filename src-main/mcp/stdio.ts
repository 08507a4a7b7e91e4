/**
 * stdio for agents that spawn a process (`junction connect`): either relay every JSON-RPC message to a
 * running instance's `/mcp`, or serve an in-process catalogue directly. stdout carries only protocol.
 */
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { McpServerFactory } from './server.js';

export interface StdioStreams {
  stdin?: NodeJS.ReadableStream;
  stdout?: NodeJS.WritableStream;
}

function stdioTransport(streams: StdioStreams): StdioServerTransport {
  return new StdioServerTransport(
    (streams.stdin ?? process.stdin) as ConstructorParameters<typeof StdioServerTransport>[0],
    (streams.stdout ?? process.stdout) as ConstructorParameters<typeof StdioServerTransport>[1],
  );
}

/** Serves the in-process catalogue over stdio until stdin ends; `pin` holds the session to one project. */
export async function serveStdio(factory: McpServerFactory, streams: StdioStreams = {}, pin?: string): Promise<Transport> {
  const transport = stdioTransport(streams);
  const server = factory.create('mcp-stdio', () => 'stdio', { id: () => 'stdio', ...(pin ? { pin } : {}) });
  await server.connect(transport);
  return transport;
}

export interface StdioProxy {
  closed: Promise<void>;
  close(): Promise<void>;
}

/**
 * Relays stdio to `url` message by message. The HTTP side owns the session id and its notification
 * stream, so list_changed and progress reach the agent exactly as over HTTP.
 */
export async function proxyStdioToHttp(
  url: URL,
  options: StdioStreams & { headers?: Record<string, string>; log?: (message: string) => void } = {},
): Promise<StdioProxy> {
  const log = options.log ?? ((message: string) => process.stderr.write(`${message}\n`));
  const local = stdioTransport(options);
  const remote = new StreamableHTTPClientTransport(url, options.headers ? { requestInit: { headers: options.headers } } : undefined);
  let resolveClosed!: () => void;
  const closed = new Promise<void>((resolve) => (resolveClosed = resolve));
  let closing = false;
  const close = async () => {
    if (closing) return closed;
    closing = true;
    // Ending the HTTP session tells Junction (and the plugins it notifies) that this agent left.
    await remote.terminateSession().catch(() => undefined);
    await Promise.allSettled([remote.close(), local.close()]);
    resolveClosed();
  };

  local.onmessage = (message) => {
    remote.send(message).catch((error: unknown) => {
      log(`junction connect: could not forward to ${url.href}: ${(error as Error).message}`);
      if ('id' in message && 'method' in message && message.id !== undefined) {
        local
          .send({ jsonrpc: '2.0', id: message.id, error: { code: -32000, message: `Junction at ${url.href} is unreachable: ${(error as Error).message}` } })
          .catch(() => undefined);
      }
    });
  };
  remote.onmessage = (message) => {
    local.send(message).catch(() => undefined);
  };
  remote.onerror = (error) => log(`junction connect: ${error.message}`);
  local.onclose = () => void close();
  remote.onclose = () => void close();
  await remote.start();
  await local.start();
  return { closed, close };
}
