/**
 * The `hmacSignature` field: HMAC-SHA256, keyed by the webhook token, over the exact bytes of the body
 * serialised without the field. The field is then spliced in as the last member, so a receiver can
 * verify from the raw body alone: cut `,"hmacSignature":"sha256=…"` before the closing brace and hash
 * what remains; re-serialising the parsed object in key order gives the same bytes too.
 */
import { createHmac } from 'node:crypto';

export const SIGNATURE_FIELD = 'hmacSignature';

export function signBody(body: string, secret: string): string {
  return `sha256=${createHmac('sha256', secret).update(body, 'utf8').digest('hex')}`;
}

/** `body` must be a serialised JSON object with at least one member. */
export function withSignature(body: string, secret: string): string {
  return `${body.slice(0, -1)},${JSON.stringify(SIGNATURE_FIELD)}:${JSON.stringify(signBody(body, secret))}}`;
}
