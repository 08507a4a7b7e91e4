export { createAuthorizationWebhook, AUTHORIZATION_SCHEMA_VERSION, type AuthorizationWebhookOptions } from './authorization-webhook.js';
export {
  createAnalyticsWebhooks,
  ANALYTICS_CATEGORIES,
  ANALYTICS_SCHEMA_VERSION,
  type AnalyticsCategory,
  type AnalyticsStats,
  type AnalyticsWebhooks,
  type AnalyticsWebhooksOptions,
} from './analytics-webhooks.js';
export { DEFAULT_HEADER_NAME, DEFAULT_TIMEOUT_MS } from './options.js';
export { SIGNATURE_FIELD, signBody } from './signature.js';
export type { WebhookLogger } from './logger.js';
export { mountWebhooks, type MountedWebhooks, type WebhooksMountContext } from './mount.js';
