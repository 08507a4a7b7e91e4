import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonNestingExceeds, readBodyLimited } from '../../security/index.js';
import { JunctionError, next } from '../../contracts/index.js';

export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
}

/** Far deeper than any tool's arguments or MCP message, far shallower than what overflows a recursive walk. */
export const MAX_JSON_DEPTH = 128;

/** The setting a PayloadTooLarge refusal names, so the operator knows what raises the limit. */
const BODY_LIMIT_SETTING = 'max-body-bytes';
/**
 * After a 413 the rest of an upload of declared length is read and dropped, when it is at most four
 * times the limit and arrives within this long, and the connection stays usable: closing on unread
 * bytes resets it, and a client still sending (fetch, the MCP SDK) then sees only the reset ("fetch
 * failed"), never the answer. An upload of unknown or larger length is cut off as before.
 */
const LINGER_MS = 5_000;
const lingerBytes = (maxBytes: number) => 4 * maxBytes;

function closeAfterRefusal(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('connection', 'close');
  res.once('finish', () => req.socket.destroy());
}

function drainAfterTooLarge(req: IncomingMessage, res: ServerResponse, maxBytes: number): void {
  const declared = Number(req.headers['content-length']);
  if (!Number.isFinite(declared) || declared > lingerBytes(maxBytes)) {
    closeAfterRefusal(req, res);
    return;
  }
  const timer = setTimeout(() => req.socket.destroy(), LINGER_MS);
  timer.unref();
  req.once('end', () => clearTimeout(timer));
  req.resume();
}

/**
 * The body reader the MCP and direct-API handlers take: the capped body, or a JunctionError
 * (PayloadTooLarge, RequestTimeout, InvalidArguments for JSON nested too deep). A refused request's connection is closed once its answer is
 * flushed, so neither the rest of a huge upload nor a trickling client keeps it busy; only an upload a
 * little over the limit whose length is declared is read to its end, so its client reads the 413.
 */
export function bodyReader(limits: BodyLimits): (req: IncomingMessage, res: ServerResponse) => Promise<Buffer> {
  return async (req, res) => {
    const read = await readBodyLimited(req, limits.maxBytes, limits.timeoutMs);
    if (read.ok) {
      if (!jsonNestingExceeds(read.body, MAX_JSON_DEPTH)) return read.body;
      throw new JunctionError('InvalidArguments', `The request body nests arrays or objects deeper than ${MAX_JSON_DEPTH} levels.`, {
        next: next('fixArguments'),
        details: { maxDepth: MAX_JSON_DEPTH },
      });
    }
    if (read.code === 'PayloadTooLarge') {
      drainAfterTooLarge(req, res, limits.maxBytes);
      const declared = Number(req.headers['content-length']);
      const size = Number.isFinite(declared) && declared > limits.maxBytes ? { sizeBytes: declared } : {};
      const stated = 'sizeBytes' in size ? ` (it declares ${declared} bytes)` : '';
      throw new JunctionError(read.code, `${read.message.replace(/\.$/, '')}${stated}; the setting ${BODY_LIMIT_SETTING} raises it.`, {
        details: { limitBytes: read.limitBytes, ...size, setting: BODY_LIMIT_SETTING },
      });
    }
    closeAfterRefusal(req, res);
    throw new JunctionError(read.code, read.message, { details: { timeoutMs: read.timeoutMs } });
  };
}
