import type { IncomingMessage } from 'node:http';
import { readBodyLimited } from '../../security/index.js';
import { JunctionError } from '../../shared/errors.js';

/** The body reader the MCP and direct-API handlers take: the capped body, or a PayloadTooLarge JunctionError. */
export function bodyReader(maxBytes: number): (req: IncomingMessage) => Promise<Buffer> {
  return async (req) => {
    const read = await readBodyLimited(req, maxBytes);
    if (read.ok) return read.body;
    throw new JunctionError(read.code, read.message, { details: { limitBytes: read.limitBytes } });
  };
}
