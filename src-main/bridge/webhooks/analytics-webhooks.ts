/**
 * Fire-and-forget analytics notifications, one URL per event category. `emit` never blocks, never
 * throws and never waits on the network: events go into a bounded queue (the oldest is dropped when
 * it is full, so a slow receiver sees the most recent activity) that a few senders drain.
 * With no URL configured the whole subsystem is one shared inert object: no queue, no timers.
 */
import { z } from 'zod';
import type { JsonObject } from '../../shared/index.js';
import { BoundedQueue } from '../../security/index.js';
import type { WebhookLogger } from './logger.js';
import { commonWebhookOptions, parseOptions, webhookUrl } from './options.js';
import { describeFailure, postJson } from './post-json.js';

export const ANALYTICS_SCHEMA_VERSION = '1.0';
export const ANALYTICS_CATEGORIES = ['tool', 'prompt', 'resource', 'connection'] as const;
export type AnalyticsCategory = (typeof ANALYTICS_CATEGORIES)[number];

const DEFAULT_DRAIN_MS = 1000;
// A drop is logged on the first occurrence and then once per this many, so overload cannot flood the log.
const DROP_LOG_INTERVAL = 1000;

const optionsSchema = commonWebhookOptions.extend({
  urls: z.object({ tool: webhookUrl.optional(), prompt: webhookUrl.optional(), resource: webhookUrl.optional(), connection: webhookUrl.optional() }).default({}),
  queueCapacity: z.number().int().positive().default(1000),
  concurrency: z.number().int().positive().max(16).default(2),
});

export type AnalyticsWebhooksOptions = z.input<typeof optionsSchema> & {
  logger: WebhookLogger;
  now?: () => Date;
};

export interface AnalyticsStats {
  queued: number;
  inFlight: number;
  delivered: number;
  failed: number;
  dropped: number;
}

export interface AnalyticsWebhooks {
  /** False when no URL is configured; callers may skip building event data then. */
  readonly enabled: boolean;
  /** Queues `{ schemaVersion, eventType, timestamp, data }` for the category's URL; a no-op without one. */
  emit(category: AnalyticsCategory, eventType: string, data: JsonObject): void;
  stats(): AnalyticsStats;
  /** Stops accepting events, lets queued ones go out for up to `drainMs`, then aborts the rest. */
  close(drainMs?: number): Promise<void>;
}

const ZERO_STATS: AnalyticsStats = Object.freeze({ queued: 0, inFlight: 0, delivered: 0, failed: 0, dropped: 0 });

const DISABLED: AnalyticsWebhooks = Object.freeze({
  enabled: false,
  emit: () => undefined,
  stats: () => ZERO_STATS,
  close: () => Promise.resolve(),
});

interface Delivery {
  url: string;
  eventType: string;
  body: string;
}

export function createAnalyticsWebhooks(input: AnalyticsWebhooksOptions): AnalyticsWebhooks {
  const { logger, now = () => new Date(), ...settings } = input;
  const { urls, token, headerName, timeoutMs, queueCapacity, concurrency } = parseOptions(optionsSchema, settings, 'analytics webhook');
  if (!ANALYTICS_CATEGORIES.some((category) => urls[category] !== undefined)) return DISABLED;

  const queue = new BoundedQueue<Delivery>(queueCapacity, 'drop-oldest');
  const shutdown = new AbortController();
  let inFlight = 0;
  let delivered = 0;
  let failed = 0;
  let closed = false;
  let pumpScheduled = false;
  let onIdle: (() => void) | undefined;

  async function deliver({ url, eventType, body }: Delivery): Promise<void> {
    try {
      const { status } = await postJson({ url, body, token, headerName, timeoutMs, signal: shutdown.signal });
      if (status >= 200 && status <= 299) {
        delivered++;
        return;
      }
      failed++;
      logger.warn('analytics webhook rejected an event', { eventType, status });
    } catch (error) {
      failed++;
      logger.warn('analytics webhook delivery failed', { eventType, cause: describeFailure(error, timeoutMs) });
    }
  }

  function pump(): void {
    pumpScheduled = false;
    while (inFlight < concurrency && !shutdown.signal.aborted) {
      const next = queue.shift();
      if (!next) break;
      inFlight++;
      void deliver(next).finally(() => {
        inFlight--;
        pump();
      });
    }
    if (inFlight === 0 && queue.size === 0) onIdle?.();
  }

  function emit(category: AnalyticsCategory, eventType: string, data: JsonObject): void {
    const url = urls[category];
    if (closed || url === undefined) return;
    let body: string;
    try {
      // Serialised now so later mutation of `data` by the caller cannot change what is sent.
      body = JSON.stringify({ schemaVersion: ANALYTICS_SCHEMA_VERSION, eventType, timestamp: now().toISOString(), data });
    } catch (error) {
      failed++;
      logger.warn('analytics event could not be serialised', { eventType, cause: describeFailure(error, timeoutMs) });
      return;
    }
    const droppedBefore = queue.dropped;
    queue.push({ url, eventType, body });
    const dropped = queue.dropped;
    if (dropped > droppedBefore && (dropped === 1 || dropped % DROP_LOG_INTERVAL === 0)) {
      logger.warn('analytics queue full; dropping the oldest events', { dropped, capacity: queueCapacity });
    }
    if (!pumpScheduled) {
      pumpScheduled = true;
      // Sending starts after the caller's turn, so emit costs one serialisation and one push.
      queueMicrotask(pump);
    }
  }

  async function drainThenStop(drainMs: number): Promise<void> {
    if (inFlight > 0 || queue.size > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          shutdown.abort();
          queue.clear();
          // Aborted deliveries settle and call pump, which reports idle; this covers an already idle queue.
          pump();
        }, drainMs);
        onIdle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    shutdown.abort();
  }

  let closing: Promise<void> | undefined;
  function close(drainMs = DEFAULT_DRAIN_MS): Promise<void> {
    closed = true;
    closing ??= drainThenStop(drainMs);
    return closing;
  }

  return {
    enabled: true,
    emit,
    stats: () => ({ queued: queue.size, inFlight, delivered, failed, dropped: queue.dropped }),
    close,
  };
}
