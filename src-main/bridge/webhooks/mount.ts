/**
 * The webhooks as a part of a running Junction: the authorization webhook agents and plugins pass, and
 * the analytics webhooks, told of every finished tool call (a dispatcher observer) and of plugins
 * connecting and leaving (the console's event stream). Disposing drains what is queued, briefly.
 */
import type { ControlEvent } from '../../contracts/index.js';
import type { CallObserver } from '../../mcp/index.js';
import type { AuthorizationGate } from '../../security/index.js';
import { createAnalyticsWebhooks, type AnalyticsWebhooks } from './analytics-webhooks.js';
import { createAuthorizationWebhook } from './authorization-webhook.js';
import type { WebhookLogger } from './logger.js';

export interface WebhooksMountContext {
  urls: { tool?: string | undefined; prompt?: string | undefined; resource?: string | undefined; connection?: string | undefined; authorization?: string | undefined };
  token?: string | undefined;
  headerName?: string | undefined;
  timeoutMs?: number | undefined;
  authorizationFailOpen: boolean;
  logger: WebhookLogger;
  /** The console's event stream. */
  events: { subscribe(listener: (event: ControlEvent) => void): () => void };
}

export interface MountedWebhooks {
  analytics: AnalyticsWebhooks;
  authorization: AuthorizationGate | undefined;
  observers: CallObserver[];
  dispose(): Promise<void>;
}

function toolCallObserver(webhooks: AnalyticsWebhooks): CallObserver {
  return {
    started() {},
    progress() {},
    finished(call) {
      webhooks.emit('tool', 'tool.call.completed', {
        toolName: call.tool,
        target: call.target,
        transport: call.transport,
        requestSizeBytes: call.requestBytes,
        responseSizeBytes: call.responseBytes ?? 0,
        status: call.status === 'ok' ? 'success' : 'error',
        ...(call.errorCode ? { errorCode: call.errorCode } : {}),
        durationMs: call.durationMs ?? 0,
      });
    },
  };
}

export function mountWebhooks(context: WebhooksMountContext): MountedWebhooks {
  const common = { token: context.token, headerName: context.headerName, timeoutMs: context.timeoutMs, logger: context.logger };
  const authorization = context.urls.authorization ? createAuthorizationWebhook({ ...common, url: context.urls.authorization, failOpen: context.authorizationFailOpen }) : undefined;
  const { tool, prompt, resource, connection } = context.urls;
  const analytics = createAnalyticsWebhooks({ ...common, urls: { tool, prompt, resource, connection } });
  const unsubscribe = analytics.enabled
    ? context.events.subscribe((event) => {
        if (event.type === 'plugin.connected') {
          const { connectionId, role, name } = event.plugin;
          analytics.emit('connection', 'connection.plugin.connected', { connectionId, role, name });
        } else if (event.type === 'plugin.disconnected') {
          analytics.emit('connection', 'connection.plugin.disconnected', { connectionId: event.connectionId });
        }
      })
    : () => undefined;
  return {
    analytics,
    authorization,
    observers: analytics.enabled ? [toolCallObserver(analytics)] : [],
    async dispose() {
      unsubscribe();
      await analytics.close();
    },
  };
}
