/**
 * Reads a request body into memory up to a cap. A declared Content-Length over the cap is refused
 * before reading anything; a chunked or lying body is refused as soon as the running total passes
 * the cap, and nothing past it is kept. After a refusal the stream is paused: answer 413 with
 * `Connection: close` so the rest of the upload is never read.
 */
import type { IncomingMessage } from 'node:http';
import { refuse, type Refusal } from '../refusal.js';

export type BodyRead = { ok: true; body: Buffer } | (Refusal<413, 'PayloadTooLarge'> & { limitBytes: number });

const ignore = (): void => undefined;

function tooLarge(maxBytes: number): BodyRead {
  return { ...refuse(413, 'PayloadTooLarge', `Request body is larger than the ${maxBytes}-byte limit.`), limitBytes: maxBytes };
}

/** Rejects only when the stream itself fails (client aborted, socket error). */
export function readBodyLimited(req: IncomingMessage, maxBytes: number): Promise<BodyRead> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) {
    req.pause();
    return Promise.resolve(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const cleanup = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total > maxBytes) {
        cleanup();
        // The unread upload may still fail (the client gives up); nobody is waiting for that error.
        req.on('error', ignore);
        req.pause();
        chunks.length = 0;
        resolve(tooLarge(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve({ ok: true, body: Buffer.concat(chunks, total) });
    };
    const onError = (error: Error): void => {
      cleanup();
      reject(error);
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
  });
}
