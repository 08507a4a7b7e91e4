/**
 * The stdio relay's half for 2026-07-28 (`junction connect`): a stateless request from the agent goes
 * to /mcp as its own POST with the standard headers mirrored from its body, and whatever the answer
 * carries (a JSON response, or an SSE stream of notifications ending in the response, or a listen
 * stream that stays open) comes back to the agent line by line. On stdio, `notifications/cancelled`
 * is the cancellation; it closes that request's response stream, which is the HTTP side's.
 */
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { JSONRPCMessageSchema } from '@modelcontextprotocol/sdk/types.js';
import { carriesModernMeta, standardHeaders } from './envelope.js';

export interface StatelessRelay {
  /** Whether `message` is this relay's: a 2026-07-28 request, or the cancellation of one in flight. */
  takes(message: JSONRPCMessage): boolean;
  /** Forwards one stateless message; answers arrive through `deliver`. */
  forward(message: JSONRPCMessage): void;
  close(): void;
}

/** The JSON-RPC messages of an SSE body's complete events in `text`; returns the unconsumed tail. */
function drainEvents(text: string, deliver: (message: JSONRPCMessage) => void): string {
  const events = text.split(/\r?\n\r?\n/);
  const tail = events.pop() ?? '';
  for (const event of events) {
    const data = event
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trimStart())
      .join('\n');
    if (data) relayJson(data, deliver);
  }
  return tail;
}

function relayJson(text: string, deliver: (message: JSONRPCMessage) => void): void {
  try {
    const parsed = JSONRPCMessageSchema.safeParse(JSON.parse(text));
    if (parsed.success) deliver(parsed.data);
  } catch {
    // Not JSON: nothing the agent could read.
  }
}

export function createStatelessRelay(url: URL, headers: Record<string, string>, deliver: (message: JSONRPCMessage) => void, log: (message: string) => void): StatelessRelay {
  const inFlight = new Map<RequestId, AbortController>();

  const send = async (message: JSONRPCMessage & { id: RequestId; method: string }, controller: AbortController) => {
    const response = await fetch(url, {
      method: 'POST',
      signal: controller.signal,
      headers: { ...headers, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...standardHeaders(message) },
      body: JSON.stringify(message),
    });
    if (!response.headers.get('content-type')?.includes('text/event-stream')) {
      relayJson(await response.text(), deliver);
      return;
    }
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let buffer = '';
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      buffer = drainEvents(buffer + decoder.decode(value, { stream: true }), deliver);
    }
  };

  const cancelled = (message: JSONRPCMessage): RequestId | undefined =>
    'method' in message && message.method === 'notifications/cancelled' && !('id' in message) ? (message.params as { requestId?: RequestId } | undefined)?.requestId : undefined;

  return {
    takes(message) {
      const id = cancelled(message);
      return id !== undefined ? inFlight.has(id) : carriesModernMeta(message);
    },
    forward(message) {
      if (!('method' in message)) return;
      if (!('id' in message)) {
        // The only client notification of the revision: cancelling one of this agent's requests.
        const id = cancelled(message);
        if (id !== undefined) inFlight.get(id)?.abort();
        return;
      }
      const request = message as JSONRPCMessage & { id: RequestId; method: string };
      const controller = new AbortController();
      inFlight.set(request.id, controller);
      send(request, controller)
        .catch((error: unknown) => {
          if (controller.signal.aborted) return;
          log(`junction connect: could not forward to ${url.href}: ${(error as Error).message}`);
          deliver({ jsonrpc: '2.0', id: request.id, error: { code: -32603, message: `Junction at ${url.href} is unreachable: ${(error as Error).message}` } });
        })
        .finally(() => {
          if (inFlight.get(request.id) === controller) inFlight.delete(request.id);
        });
    },
    close() {
      for (const controller of inFlight.values()) controller.abort();
      inFlight.clear();
    },
  };
}
