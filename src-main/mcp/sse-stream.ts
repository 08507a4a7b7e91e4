/**
 * One server-sent-events response of the streamable HTTP transport: the standalone GET stream, or a
 * POST's answer once something besides its responses has to reach the agent. It owns its keep-alive
 * timer, so nothing about the stream outlives it.
 */
import type { ServerResponse } from 'node:http';
import type { JsonText } from '../contracts/index.js';
import { concatText, writeText } from '../shared/index.js';

/** A comment line every so often keeps proxies and idle timeouts from cutting a quiet stream (the SDK's own interval). */
export const SSE_KEEP_ALIVE_MS = 15_000;
const KEEP_ALIVE_FRAME = ': keepalive\n\n';

/** `sessionId` for the session revisions; a stateless (2026-07-28) stream has none. */
export function sseHeaders(sessionId?: string): Record<string, string> {
  return { 'content-type': 'text/event-stream', 'cache-control': 'no-cache, no-transform', 'x-accel-buffering': 'no', ...(sessionId !== undefined ? { 'mcp-session-id': sessionId } : {}) };
}

/** One JSON-RPC message as an SSE event; `json` is the message already serialised. */
export const sseEvent = (json: JsonText): JsonText => concatText('event: message\ndata: ', json, '\n\n');

export class SseStream {
  private readonly keepAlive: NodeJS.Timeout;
  private ended = false;

  /**
   * Starts the stream on `res`. With `first` the headers go out in the same write as that event;
   * without, they are flushed at once so the agent sees the stream open.
   */
  constructor(
    private readonly res: ServerResponse,
    sessionId?: string,
    first?: JsonText,
  ) {
    res.writeHead(200, sseHeaders(sessionId));
    if (first === undefined) res.flushHeaders();
    else writeText(res, first);
    this.keepAlive = setInterval(this.ping, SSE_KEEP_ALIVE_MS).unref();
  }

  write(frame: JsonText): void {
    if (!this.ended) writeText(this.res, frame);
  }

  /** Ends the response (with a last frame, if given) and stops the keep-alive. */
  end(last?: JsonText): void {
    if (this.ended) return;
    this.stop();
    if (last === undefined) this.res.end();
    else writeText(this.res, last, true);
  }

  /** Stops the keep-alive when the agent went away; the response is already closed. */
  stop(): void {
    this.ended = true;
    clearInterval(this.keepAlive);
  }

  private readonly ping = (): void => {
    this.write(KEEP_ALIVE_FRAME);
  };
}
