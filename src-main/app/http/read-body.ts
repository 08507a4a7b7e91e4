import type { IncomingMessage } from 'node:http';
import { JunctionError } from '../../shared/errors.js';

/** Reads a request body, refusing (and not buffering) anything past `maxBytes`. */
export function readBodyLimited(req: IncomingMessage, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > maxBytes) {
      req.resume();
      reject(new JunctionError('PayloadTooLarge', `The request body (${declared} bytes) exceeds the limit of ${maxBytes} bytes.`, { details: { limit: maxBytes } }));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        req.removeAllListeners('data');
        req.resume();
        reject(new JunctionError('PayloadTooLarge', `The request body exceeds the limit of ${maxBytes} bytes.`, { details: { limit: maxBytes } }));
        return;
      }
      chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}
