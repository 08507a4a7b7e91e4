/**
 * Refusals of bad input are logged once per distinct input, so a client retrying the same mistake (a
 * plugin reconnecting every few seconds) cannot flood the log; the memory of what was logged is bounded.
 */
import type { Logger } from '../shared/index.js';

export function onceLogger(logger: Logger, max = 1_000): (key: string, message: string) => void {
  const seen = new Set<string>();
  return (key, message) => {
    if (seen.has(key)) return;
    if (seen.size >= max) seen.clear();
    seen.add(key);
    logger.warn(message);
  };
}
