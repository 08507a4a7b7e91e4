/**
 * One 2026-07-28 POST to /mcp (or /p/{pin}/mcp): the envelope checks, the method, and its answer: plain
 * JSON, or an SSE stream once a request-scoped notification (progress, a log line) has to go first.
 * Refusals of the request itself (headers, `_meta`, version, an unknown method, bad params) carry the
 * HTTP status the error table gives their code; failures of the work a method did answer 200.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { JunctionError, type AgentScope, type JsonText } from '../../contracts/index.js';
import { concatText, hangUpSignal, textByteLength, writeText } from '../../shared/index.js';
import { isRequest } from '../jsonrpc-http.js';
import { sseEvent, SseStream } from '../sse-stream.js';
import { readModernRequest } from './envelope.js';
import type { ListenStreams } from './listen.js';
import { SerializedResult, type ModernMethods, type RequestChannel } from './methods.js';
import { errorAnswer } from './rpc-errors.js';

/** What serves the stateless revision: its request/response methods and its listen streams. */
export interface ModernEndpoint {
  methods: ModernMethods;
  listens: ListenStreams;
  /** Told about every stateless request that passed the envelope checks (such an agent has no session to open). */
  onAgent?: (agent: StatelessAgent) => void;
}

/** Who made a stateless request, for the console's agents. */
export interface StatelessAgent {
  client: { name: string; version: string } | undefined;
  pin?: string;
  protocolVersion: string;
  /** The label its calls carry. */
  callLabel: string;
}

/** The answer to one request: JSON until something must be streamed before the response. It is the channel its method notifies on. */
class Exchange implements RequestChannel {
  private stream: SseStream | undefined;

  constructor(
    private readonly req: IncomingMessage,
    private readonly res: ServerResponse,
  ) {}

  get signal(): AbortSignal {
    return hangUpSignal(this.req);
  }

  notify(method: string, params: Record<string, unknown>): void {
    if (this.res.writableEnded) return;
    this.stream ??= new SseStream(this.res);
    this.stream.write(sseEvent(JSON.stringify({ jsonrpc: '2.0', method, params })));
  }

  finish(status: number, message: Record<string, unknown>): void {
    this.send(status, JSON.stringify({ jsonrpc: '2.0', ...message }));
  }

  respond(id: RequestId, result: Record<string, unknown> | SerializedResult): void {
    if (result instanceof SerializedResult) this.send(200, concatText(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":`, result.json, '}'));
    else this.finish(200, { id, result });
  }

  private send(status: number, json: JsonText): void {
    if (this.stream) {
      this.stream.end(sseEvent(json));
      return;
    }
    if (this.res.headersSent) return;
    this.res.writeHead(status, { 'content-type': 'application/json', 'content-length': textByteLength(json) });
    writeText(this.res, json, true);
  }

  fail(id: RequestId | null, error: unknown): void {
    const answer = errorAnswer(error);
    this.finish(answer.status, { id, error: answer.error });
  }
}

/** Serves one stateless message. */
export async function serveModern(endpoint: ModernEndpoint, req: IncomingMessage, res: ServerResponse, message: JSONRPCMessage, pin: string | undefined): Promise<void> {
  const exchange = new Exchange(req, res);
  if (!isRequest(message)) {
    // This revision defines no client notifications over HTTP; one is accepted and has no effect.
    if ('method' in message) res.writeHead(202).end();
    else exchange.finish(400, { id: null, error: { code: -32600, message: 'Invalid Request: a client sends requests, not responses.' } });
    return;
  }
  try {
    const request = readModernRequest(req, message);
    // Optional fields are assigned rather than spread from conditional literals: this runs on every call.
    if (endpoint.onAgent) {
      const agent: StatelessAgent = { client: request.clientInfo, protocolVersion: request.protocolVersion, callLabel: request.agentLabel };
      if (pin !== undefined) agent.pin = pin;
      endpoint.onAgent(agent);
    }
    // Visibility rules judge the agent by the name it gives itself, as on the session revisions.
    const scope: AgentScope = {};
    if (pin !== undefined) scope.pin = pin;
    if (request.clientInfo) scope.agentName = request.clientInfo.name;
    if (request.method === 'subscriptions/listen') {
      await endpoint.listens.serve(request, scope, res);
      return;
    }
    const method = endpoint.methods.get(request.method);
    // An unknown method answers 404 with -32601, which tells a modern client this endpoint speaks its revision.
    if (!method) throw new JunctionError('MethodNotFound', `Method not found: ${request.method}`);
    const result = await method(request, scope, exchange);
    exchange.respond(message.id, result);
  } catch (error) {
    exchange.fail(message.id, error);
  }
}
