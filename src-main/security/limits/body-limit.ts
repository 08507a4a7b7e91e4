/**
 * Reads a request body into memory up to a cap and within a deadline. A declared Content-Length over
 * the cap is refused before reading anything; a chunked or lying body is refused as soon as the
 * running total passes the cap, and nothing past it is kept; a body still incomplete at the deadline
 * (a client trickling bytes to hold the connection) is refused with 408. After a refusal the stream is
 * paused: answer with `Connection: close` and close the socket so the rest of the upload is never read.
 */
import type { IncomingMessage } from 'node:http';
import { refuse, type Refusal } from '../refusal.js';

export type BodyRead =
  | { ok: true; body: Buffer }
  | (Refusal<'PayloadTooLarge'> & { limitBytes: number })
  | (Refusal<'RequestTimeout'> & { timeoutMs: number });

const ignore = (): void => undefined;

function tooLarge(maxBytes: number): BodyRead {
  return { ...refuse('PayloadTooLarge', `Request body is larger than the ${maxBytes}-byte limit.`), limitBytes: maxBytes };
}

function tooSlow(timeoutMs: number): BodyRead {
  return { ...refuse('RequestTimeout', `The request body did not arrive within ${timeoutMs} ms.`), timeoutMs };
}

/** Rejects only when the stream itself fails (client aborted, socket error). */
export function readBodyLimited(req: IncomingMessage, maxBytes: number, timeoutMs: number): Promise<BodyRead> {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > maxBytes) {
    req.pause();
    return Promise.resolve(tooLarge(maxBytes));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let total = 0;
    const refuseWith = (refusal: BodyRead): void => {
      cleanup();
      // The unread upload may still fail (the client gives up); nobody is waiting for that error.
      req.on('error', ignore);
      req.pause();
      chunks.length = 0;
      resolve(refusal);
    };
    // Timers run before I/O in each event-loop turn: after a long stall the deadline would fire while the
    // rest of the body already sits in the socket. Deciding in the check phase lets that I/O be read first.
    let check: NodeJS.Immediate | undefined;
    const deadline = setTimeout(() => {
      check = setImmediate(() => refuseWith(tooSlow(timeoutMs)));
    }, timeoutMs);
    const cleanup = (): void => {
      clearTimeout(deadline);
      if (check) clearImmediate(check);
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
    };
    const onData = (chunk: Buffer): void => {
      total += chunk.length;
      if (total > maxBytes) {
        refuseWith(tooLarge(maxBytes));
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
