/**
 * One POST to /mcp that carried requests, until every one of them is answered. Its answer is plain
 * JSON (one write) unless something besides the responses must reach the agent first: a request that
 * asked for progress, or a notification or request the server sends about one of the calls (progress,
 * log lines, elicitation, sampling). Then the answer turns into an SSE stream that ends with the last
 * response.
 */
import type { ServerResponse } from 'node:http';
import type { RequestId } from '@modelcontextprotocol/sdk/types.js';
import type { JsonText } from '../contracts/index.js';
import { concatText, textByteLength, writeText } from '../shared/index.js';
import { refuse } from './jsonrpc-http.js';
import { sseEvent, SseStream } from './sse-stream.js';

/** What an exchange tells its session when the agent hung up before every call was answered. */
export interface ExchangeOwner {
  abandoned(ids: readonly RequestId[], exchange: PostExchange): void;
}

export class PostExchange {
  /** Each request id in arrival order, with its serialised response once there is one. */
  private readonly answers = new Map<RequestId, JsonText | undefined>();
  private unanswered: number;
  private stream: SseStream | undefined;
  private done = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly sessionId: string,
    ids: readonly RequestId[],
    /** A batch is answered with an array even when it held one request. */
    private readonly batch: boolean,
    private readonly owner: ExchangeOwner,
    streamAtOnce: boolean,
  ) {
    for (const id of ids) this.answers.set(id, undefined);
    this.unanswered = this.answers.size;
    if (streamAtOnce) this.stream = new SseStream(res, sessionId);
    res.once('close', this.closed);
  }

  /** A notification or request about one of the calls: it can only travel on a stream. */
  relate(json: string): void {
    if (this.done) return;
    if (this.stream) {
      this.stream.write(sseEvent(json));
      return;
    }
    // Responses that were waiting for their siblings go out first, in the order they came.
    const frames: JsonText[] = [];
    for (const answer of this.answers.values()) if (answer !== undefined) frames.push(sseEvent(answer));
    this.stream = new SseStream(this.res, this.sessionId, concatText(...frames, sseEvent(json)));
  }

  respond(id: RequestId, json: JsonText): void {
    if (this.done || this.answers.get(id) !== undefined || !this.answers.has(id)) return;
    this.unanswered--;
    if (this.stream) {
      // Written at once; the map keeps only that it was answered.
      this.answers.set(id, '');
      if (this.unanswered === 0) this.finish(sseEvent(json));
      else this.stream.write(sseEvent(json));
      return;
    }
    this.answers.set(id, json);
    if (this.unanswered > 0) return;
    const answers = [...this.answers.values()] as JsonText[];
    const body = this.batch ? concatText('[', ...answers.flatMap((answer, i) => (i === 0 ? [answer] : [',', answer])), ']') : json;
    this.done = true;
    this.res.writeHead(200, { 'content-type': 'application/json', 'content-length': textByteLength(body), 'mcp-session-id': this.sessionId });
    writeText(this.res, body, true);
  }

  /** The session closed under the calls: a stream just ends; an answer not yet begun says the session is gone. */
  abandon(): void {
    if (this.done) return;
    if (this.stream) this.finish();
    else {
      this.done = true;
      refuse(this.res, 404, -32001, 'Session not found: the session was closed while this request was running.');
    }
  }

  private finish(last?: JsonText): void {
    this.done = true;
    this.stream?.end(last);
  }

  private readonly closed = (): void => {
    this.stream?.stop();
    if (this.done) return;
    this.done = true;
    const ids: RequestId[] = [];
    for (const [id, answer] of this.answers) if (answer === undefined) ids.push(id);
    this.owner.abandoned(ids, this);
  };
}
