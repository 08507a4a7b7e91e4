/** The dispatcher's per-agent admission, from the security room's rate and in-flight limiters. */
import type { Admission } from '../mcp/index.js';
import { createInFlightLimiter, createRateLimiter } from '../security/index.js';

export function createAdmission(options: { ratePerSecond: number; burst: number; maxInFlight: number }): Admission {
  const rate = createRateLimiter({ ratePerSecond: options.ratePerSecond, burst: options.burst });
  const inFlight = createInFlightLimiter({ maxPerKey: options.maxInFlight });
  return {
    take(agent) {
      const decision = rate.take(agent);
      return decision.ok ? { ok: true } : { ok: false, message: decision.message, retryAfterMs: decision.retryAfterMs };
    },
    acquire(agent) {
      const slot = inFlight.acquire(agent);
      return slot.ok ? slot : { ok: false, message: slot.message };
    },
  };
}
