import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets in time independent of where they differ and of their lengths: both sides are
 * reduced to fixed-size SHA-256 digests first, because timingSafeEqual itself throws on unequal
 * lengths and an early length check would tell an attacker how long the token is.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const left = createHash('sha256').update(a, 'utf8').digest();
  const right = createHash('sha256').update(b, 'utf8').digest();
  return timingSafeEqual(left, right);
}
