/**
 * The SDK `Transport` of one streamable HTTP session, on Node's own request and response objects. The
 * session table hands it requests that passed every check; it routes what the SDK's Server sends: a
 * response or a message about a call to that call's POST, anything else to the standalone GET stream.
 * An agent that hangs up on a POST cancels the calls it was waiting for.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Transport, TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage, MessageExtraInfo, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { DirectToolCalls, type Notifier, type SessionToolCall } from './direct-tool-calls.js';
import { answeredId, hasProgressToken, isRequest, isResponse } from './jsonrpc-http.js';
import { PostExchange, type ExchangeOwner } from './post-exchange.js';
import { sseEvent, SseStream } from './sse-stream.js';
import { messageJson } from './tool-result-json.js';
import type { JsonText } from '../contracts/index.js';

export class HttpSessionTransport implements Transport, ExchangeOwner {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage, extra?: MessageExtraInfo) => void;

  /** The open POST of every call not yet answered, by the call's request id. */
  private readonly exchanges = new Map<RequestId, PostExchange>();
  private standalone: SseStream | undefined;
  private closed = false;
  /** Plain tools/call requests, served without the SDK's Protocol once the session's handler is known. */
  private toolCalls: DirectToolCalls | undefined;

  constructor(readonly sessionId: string) {}

  async start(): Promise<void> {}

  /** Serves plain tools/call requests with the session's own handler from now on (direct-tool-calls.ts). */
  serveToolCalls(handler: SessionToolCall, notifier: Notifier): void {
    this.toolCalls = new DirectToolCalls(handler, notifier, (id, json) => this.answer(id, json));
  }

  /** Serves a POST whose messages passed every check: 202 when it carries no request, else an answer when its requests are. */
  accept(req: IncomingMessage, res: ServerResponse, messages: readonly JSONRPCMessage[], batch: boolean): void {
    const extra: MessageExtraInfo = { requestInfo: { headers: req.headers } };
    const ids: RequestId[] = [];
    let streamAtOnce = false;
    for (const message of messages) {
      if (!isRequest(message)) continue;
      ids.push(message.id);
      streamAtOnce ||= hasProgressToken(message);
    }
    if (ids.length === 0) {
      this.deliver(messages, extra);
      res.writeHead(202).end();
      return;
    }
    const exchange = new PostExchange(res, this.sessionId, ids, batch, this, streamAtOnce);
    for (const id of ids) this.exchanges.set(id, exchange);
    this.deliver(messages, extra);
  }

  /** Opens the session's GET stream for messages about no call; false when one is open already. */
  openStream(res: ServerResponse): boolean {
    if (this.standalone) return false;
    this.standalone = new SseStream(res, this.sessionId);
    res.once('close', this.standaloneClosed);
    return true;
  }

  async send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    const response = isResponse(message);
    const callId = response ? answeredId(message) : options?.relatedRequestId;
    if (callId === undefined) {
      if (response) throw new Error('A response must answer a request of this session; the standalone stream carries only requests and notifications.');
      this.standalone?.write(sseEvent(JSON.stringify(message)));
      return;
    }
    const exchange = this.exchanges.get(callId);
    if (!exchange) throw new Error(`No open request ${String(callId)} on this session: it was answered, or the agent hung up.`);
    if (!response) {
      exchange.relate(JSON.stringify(message));
      return;
    }
    // A tool result comes with the dispatcher's JSON of it, spliced in rather than serialised again.
    this.answer(callId, messageJson(message));
  }

  /** Sends the answer to request `id` on the POST that carried it; dropped when that POST is answered or gone. */
  private answer(id: RequestId, json: JsonText): void {
    const exchange = this.exchanges.get(id);
    if (!exchange) return;
    this.exchanges.delete(id);
    exchange.respond(id, json);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.toolCalls?.close();
    for (const exchange of new Set(this.exchanges.values())) exchange.abandon();
    this.exchanges.clear();
    this.standalone?.end();
    this.standalone = undefined;
    this.onclose?.();
  }

  /** The agent hung up on a POST: its unanswered calls are cancelled as if it had sent notifications/cancelled. */
  abandoned(ids: readonly RequestId[], exchange: PostExchange): void {
    for (const requestId of ids) {
      if (this.exchanges.get(requestId) !== exchange) continue;
      this.exchanges.delete(requestId);
      this.deliver([{ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'The agent closed the HTTP request.' } }]);
    }
  }

  private deliver(messages: readonly JSONRPCMessage[], extra?: MessageExtraInfo): void {
    for (const message of messages) {
      if (this.toolCalls?.take(message)) continue;
      this.toolCalls?.cancelled(message);
      this.onmessage?.(message, extra);
    }
  }

  private readonly standaloneClosed = (): void => {
    this.standalone?.stop();
    this.standalone = undefined;
  };
}
