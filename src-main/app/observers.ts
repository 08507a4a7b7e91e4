/** Call observers the composition root attaches to the dispatcher: the console's live view, analytics, agent presence. */
import type { IncomingMessage } from 'node:http';
import type { AgentPresence } from '../bridge/presence/index.js';
import type { AnalyticsWebhooks } from '../bridge/webhooks/index.js';
import type { ControlHub } from '../control/index.js';
import type { CallObserver } from '../mcp/index.js';

export function consoleCallObserver(control: ControlHub): CallObserver {
  const args = new Map<string, unknown>();
  return {
    started(call, callArgs) {
      args.set(call.callId, callArgs);
      control.publish({ type: 'call.started', call });
    },
    progress(callId, progress) {
      control.publish({ type: 'call.progress', callId, progress });
    },
    finished(call, result) {
      control.publish({ type: 'call.finished', call });
      control.recordCallDetail(call.callId, args.get(call.callId), result);
      args.delete(call.callId);
    },
  };
}

export function analyticsCallObserver(webhooks: AnalyticsWebhooks): CallObserver {
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

/** A direct HTTP API caller is present while it calls (see AgentPresence for when it leaves). */
export function apiPresenceObserver(presence: AgentPresence): CallObserver {
  return {
    started(call) {
      if (call.transport === 'http-api') presence.apiCall(call.agent);
    },
    progress() {},
    finished() {},
  };
}

/**
 * Direct HTTP callers have no session; two scripts on one machine are told apart by their User-Agent.
 * The label is bounded and printable because it reaches plugins, the console and the rate limiter.
 */
export function apiAgentLabel(req: IncomingMessage): string {
  const agent = (req.headers['user-agent'] ?? '').replace(/\p{Cc}/gu, ' ').trim().slice(0, 120);
  return `http ${req.socket.remoteAddress ?? 'unknown'}${agent ? ` ${agent}` : ''}`;
}
