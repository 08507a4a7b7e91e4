/** One webhook POST: JSON body, token header, hard timeout, bounded response, no redirects. */
export const MAX_RESPONSE_BYTES = 64 * 1024;

export interface PostJsonRequest {
  url: string;
  body: string;
  token: string | undefined;
  headerName: string;
  timeoutMs: number;
  /** Aborts the request early, e.g. when the sender shuts down. */
  signal?: AbortSignal;
}

export interface PostJsonResponse {
  status: number;
  text: string;
}

export class WebhookResponseTooLarge extends Error {
  constructor() {
    super(`webhook response exceeded ${MAX_RESPONSE_BYTES} bytes`);
    this.name = 'WebhookResponseTooLarge';
  }
}

async function readBounded(response: Response): Promise<string> {
  if (!response.body) return '';
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > MAX_RESPONSE_BYTES) {
      await reader.cancel();
      throw new WebhookResponseTooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Rejects on network failure, timeout (`TimeoutError`), abort, redirect or an oversized response. */
export async function postJson(request: PostJsonRequest): Promise<PostJsonResponse> {
  const timeout = AbortSignal.timeout(request.timeoutMs);
  const headers: Record<string, string> = { 'content-type': 'application/json; charset=utf-8' };
  if (request.token !== undefined) headers[request.headerName] = request.token;
  const response = await fetch(request.url, {
    method: 'POST',
    headers,
    body: request.body,
    // A redirect would carry the token header to wherever the receiver points; treat it as a failure.
    redirect: 'error',
    signal: request.signal ? AbortSignal.any([timeout, request.signal]) : timeout,
  });
  return { status: response.status, text: await readBounded(response) };
}

/** A short reason for logs, with timeouts named as such. */
export function describeFailure(error: unknown, timeoutMs: number): string {
  if (error instanceof Error && error.name === 'TimeoutError') return `timed out after ${timeoutMs} ms`;
  if (error instanceof Error) {
    const cause = error.cause instanceof Error ? `: ${error.cause.message}` : '';
    return `${error.message}${cause}`;
  }
  return String(error);
}
