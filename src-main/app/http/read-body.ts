import type { IncomingMessage, ServerResponse } from 'node:http';
import { jsonNestingExceeds, readBodyLimited } from '../../security/index.js';
import { JunctionError, next } from '../../contracts/index.js';

export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
}

/** Far deeper than any tool's arguments or MCP message, far shallower than what overflows a recursive walk. */
export const MAX_JSON_DEPTH = 128;

/**
 * The body reader the MCP and direct-API handlers take: the capped body, or a JunctionError
 * (PayloadTooLarge, RequestTimeout, InvalidArguments for JSON nested too deep). A refused request's connection is closed once its answer is
 * flushed, so neither the rest of a huge upload nor a trickling client keeps it busy.
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
    res.setHeader('connection', 'close');
    res.once('finish', () => req.socket.destroy());
    const details = read.code === 'PayloadTooLarge' ? { limitBytes: read.limitBytes } : { timeoutMs: read.timeoutMs };
    throw new JunctionError(read.code, read.message, { details });
  };
}
