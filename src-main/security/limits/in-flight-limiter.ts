/**
 * Caps concurrent work per key (e.g. tool calls per agent) so one caller cannot occupy every plugin
 * slot. Keys with nothing in flight are forgotten, so the table is bounded by the work in progress.
 */
import { JunctionError } from '../../contracts/index.js';
import { refuse, type Refusal } from '../refusal.js';

export interface InFlightLimiterOptions {
  maxPerKey: number;
}

export type InFlightSlot = { ok: true; release: () => void } | Refusal<'Overloaded'>;

export interface InFlightLimiter {
  acquire(key: string): InFlightSlot;
  inFlight(key: string): number;
}

export function createInFlightLimiter({ maxPerKey }: InFlightLimiterOptions): InFlightLimiter {
  if (!Number.isInteger(maxPerKey) || maxPerKey <= 0) throw new JunctionError('ConfigInvalid', `maxPerKey must be a positive integer, got ${maxPerKey}.`);
  const counts = new Map<string, number>();

  return {
    acquire(key) {
      const current = counts.get(key) ?? 0;
      if (current >= maxPerKey) {
        return refuse('Overloaded', `${key} already has ${current} requests in flight (limit ${maxPerKey}); wait for one to finish.`);
      }
      counts.set(key, current + 1);
      let released = false;
      return {
        ok: true,
        // Idempotent: a finally block and an abort handler may both release the same slot.
        release() {
          if (released) return;
          released = true;
          const left = (counts.get(key) ?? 1) - 1;
          if (left <= 0) counts.delete(key);
          else counts.set(key, left);
        },
      };
    },
    inFlight(key) {
      return counts.get(key) ?? 0;
    },
  };
}
