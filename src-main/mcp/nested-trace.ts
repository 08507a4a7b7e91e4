/**
 * Wraps a call's agent requests so every elicitation, sampling and roots request is reported to the call
 * observers (the console's call trace) when it starts and when it ends, under its parent call.
 */
import { randomUUID } from 'node:crypto';
import type { NestedRequestView, AgentRequests } from '../contracts/index.js';
import { boundedText } from '../shared/index.js';
import { isJunctionError } from '../contracts/index.js';

const SUMMARY_CHARS = 200;

function lastMessageText(params: Record<string, unknown>): string {
  const messages = Array.isArray(params['messages']) ? (params['messages'] as unknown[]) : [];
  const last = messages[messages.length - 1] as { content?: { text?: unknown } } | undefined;
  return typeof last?.content?.text === 'string' ? last.content.text : '';
}

export function traceAgentRequests(requests: AgentRequests, callId: string, report: (nested: NestedRequestView) => void): AgentRequests {
  async function traced<T>(kind: NestedRequestView['kind'], summary: string, run: () => Promise<T>, outcomeOf: (result: T) => string | undefined): Promise<T> {
    const view: NestedRequestView = { callId, nestedId: randomUUID(), kind, status: 'pending', startedAt: Date.now(), summary: boundedText(summary, SUMMARY_CHARS) };
    report(view);
    try {
      const result = await run();
      const outcome = outcomeOf(result);
      report({ ...view, status: 'ok', durationMs: Date.now() - view.startedAt, ...(outcome ? { outcome: boundedText(outcome, SUMMARY_CHARS) } : {}) });
      return result;
    } catch (error) {
      report({ ...view, status: 'error', durationMs: Date.now() - view.startedAt, errorCode: isJunctionError(error) ? error.code : 'InternalError' });
      throw error;
    }
  }
  return {
    elicit: (params, signal, key) => traced('elicitation', params.message, () => requests.elicit(params, signal, key), (r) => r.action),
    sample: (params, signal, key) =>
      traced('sampling', lastMessageText(params), () => requests.sample(params, signal, key), (r) => (typeof r['model'] === 'string' ? r['model'] : undefined)),
    // The roots are the agent's own paths: the trace keeps how many, not which.
    listRoots: (signal, key) => traced('roots', 'roots/list', () => requests.listRoots(signal, key), (r) => `${r.roots.length} roots`),
    log: (level, data, logger) => requests.log(level, data, logger),
  };
}
