import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBodyLimited } from '../../security/index.js';
import { JunctionError } from '../../shared/errors.js';

export interface BodyLimits {
  maxBytes: number;
  timeoutMs: number;
}

/**
 * The body reader the MCP and direct-API handlers take: the capped body, or a JunctionError
 * (PayloadTooLarge, RequestTimeout). A refused request's connection is closed once its answer is
 * flushed, so neither the rest of a huge upload nor a trickling client keeps it busy.
 */
export function bodyReader(limits: BodyLimits): (req: IncomingMessage, res: ServerResponse) => Promise<Buffer> {
  return async (req, res) => {
    const read = await readBodyLimited(req, limits.maxBytes, limits.timeoutMs);
    if (read.ok) return read.body;
    res.setHeader('connection', 'close');
    res.once('finish', () => req.socket.destroy());
    const details = read.code === 'PayloadTooLarge' ? { limitBytes: read.limitBytes } : { timeoutMs: read.timeoutMs };
    throw new JunctionError(read.code, read.message, { details });
  };
}
