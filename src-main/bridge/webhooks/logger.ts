/** The logging the webhooks need; the app passes its own logger. Fields never carry tokens. */
export interface WebhookLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}
