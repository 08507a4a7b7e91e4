/** Call observers the composition root attaches to the dispatcher: the console's live view and analytics. */
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
    nested(nested) {
      control.publish({ type: 'call.nested', nested });
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
