/** The console's live view of calls, a dispatcher observer, and how direct API callers are named. */
import type { IncomingMessage } from 'node:http';
import { redactCallJson, type RedactionRules } from '../audit/index.js';
import type { ControlHub } from '../control/index.js';
import type { CallObserver } from '../mcp/index.js';

/** Secrets are redacted before the console keeps a call's detail, exactly as in the audit trail. */
export function consoleCallObserver(control: ControlHub, rules: RedactionRules): CallObserver {
  return {
    started(call) {
      control.publish({ type: 'call.started', call });
    },
    progress(callId, progress) {
      control.publish({ type: 'call.progress', callId, progress });
    },
    finished(call, _result, json) {
      control.publish({ type: 'call.finished', call });
      control.recordCallDetail(call.callId, redactCallJson(json, rules).value);
    },
    nested(nested) {
      control.publish({ type: 'call.nested', nested });
    },
  };
}

/**
 * Direct HTTP callers have no session; for agent presence two scripts on one machine are told apart by
 * their User-Agent (rate limits stay per address: a caller cannot buy a fresh budget by renaming itself).
 * The label is bounded and printable because it reaches plugins and the console.
 */
export function apiCallerLabel(req: IncomingMessage): string {
  const agent = (req.headers['user-agent'] ?? '').replace(/\p{Cc}/gu, ' ').trim().slice(0, 120);
  return `http ${req.socket.remoteAddress ?? 'unknown'}${agent ? ` ${agent}` : ''}`;
}
