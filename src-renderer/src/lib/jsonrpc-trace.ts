/**
 * A call as the JSON-RPC messages it was made of on MCP, rebuilt from what the console records: the
 * agent's `tools/call`, the progress notification last seen, each request the tool made of the agent
 * (elicitation, sampling, roots) with its answer, and the response. The console keeps values, not bytes, so
 * ids are placeholders and redacted values read `[redacted]`. Pure.
 */
import type { CallDetail, CallView, NestedRequestView } from '../store/types.js';

export type Direction = 'to Junction' | 'to the agent';

export interface TraceMessage {
  direction: Direction;
  label: string;
  message: Record<string, unknown>;
}

const REQUEST_ID = 1;
const PROGRESS_TOKEN = 'progress-1';

const NESTED_METHOD: Record<NestedRequestView['kind'], string> = { elicitation: 'elicitation/create', sampling: 'sampling/createMessage', roots: 'roots/list' };

/** What the console keeps of a nested request, as its request's params and its answer's result. */
const NESTED_SHAPES: Record<NestedRequestView['kind'], { params: (n: NestedRequestView) => Record<string, unknown>; result: (n: NestedRequestView) => Record<string, unknown> }> = {
  elicitation: { params: (n) => ({ message: n.summary }), result: (n) => ({ action: n.outcome ?? 'accept' }) },
  sampling: { params: (n) => ({ messages: [{ role: 'user', content: { type: 'text', text: n.summary } }] }), result: (n) => ({ model: n.outcome ?? 'unknown', role: 'assistant' }) },
  // The roots themselves are the agent's paths; the console keeps only how many there were ("2 roots").
  roots: { params: () => ({}), result: (n) => ({ roots: `[${n.outcome ?? 'roots'}]` }) },
};

function nestedMessages(nested: NestedRequestView, index: number): TraceMessage[] {
  const id = `junction-${index + 1}`;
  const shape = NESTED_SHAPES[nested.kind];
  const out: TraceMessage[] = [{ direction: 'to the agent', label: `${nested.kind} request`, message: { jsonrpc: '2.0', id, method: NESTED_METHOD[nested.kind], params: shape.params(nested) } }];
  if (nested.status === 'ok') {
    const result = shape.result(nested);
    out.push({ direction: 'to Junction', label: `${nested.kind} answer`, message: { jsonrpc: '2.0', id, result } });
  } else if (nested.status === 'error') {
    out.push({ direction: 'to Junction', label: `${nested.kind} error`, message: { jsonrpc: '2.0', id, error: { code: -32603, message: nested.errorCode ?? 'error' } } });
  }
  return out;
}

/** The `tools/call` an agent sends for these arguments. */
export function toolsCallRequest(tool: string, args: unknown, id: number | string = REQUEST_ID): Record<string, unknown> {
  return { jsonrpc: '2.0', id, method: 'tools/call', params: { name: tool, arguments: args ?? {} } };
}

export function callTrace(call: CallView, detail: CallDetail | undefined): TraceMessage[] {
  const request = toolsCallRequest(call.tool, detail?.arguments);
  if (call.progress) (request.params as Record<string, unknown>)._meta = { progressToken: PROGRESS_TOKEN };
  const out: TraceMessage[] = [{ direction: 'to Junction', label: 'request', message: request }];
  if (call.progress) out.push({ direction: 'to the agent', label: 'last progress notification', message: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: PROGRESS_TOKEN, ...call.progress } } });
  (call.nested ?? []).forEach((n, i) => out.push(...nestedMessages(n, i)));
  if (detail?.result !== undefined) out.push({ direction: 'to the agent', label: 'response', message: { jsonrpc: '2.0', id: REQUEST_ID, result: detail.result } });
  return out;
}

/** An edited `tools/call` request back as a tool name and arguments, or what is wrong with it. */
export function parseToolsCall(text: string): { ok: true; name: string; args: Record<string, unknown> } | { ok: false; problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    return { ok: false, problem: `not JSON: ${(error as Error).message}` };
  }
  const rec = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
  if (!rec(parsed) || parsed.method !== 'tools/call' || !rec(parsed.params)) return { ok: false, problem: 'a tools/call request with params is needed' };
  const { name, arguments: args } = parsed.params;
  if (typeof name !== 'string' || name === '') return { ok: false, problem: 'params.name must be the tool name' };
  if (args !== undefined && !rec(args)) return { ok: false, problem: 'params.arguments must be an object' };
  return { ok: true, name, args: args ?? {} };
}
