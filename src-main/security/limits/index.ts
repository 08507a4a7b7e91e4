export { createRateLimiter, type RateDecision, type RateLimiter, type RateLimiterOptions } from './rate-limiter.js';
export { createInFlightLimiter, type InFlightLimiter, type InFlightLimiterOptions, type InFlightSlot } from './in-flight-limiter.js';
export { readBodyLimited, type BodyRead } from './body-limit.js';
export { BoundedQueue, type DropPolicy, type QueueCounters } from './bounded-queue.js';
export { jsonNestingExceeds } from './json-depth.js';
