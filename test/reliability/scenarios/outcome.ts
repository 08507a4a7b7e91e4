/** How one agent call ended, classified the way every reliability scenario counts it. */
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError } from '@modelcontextprotocol/sdk/types.js';
import { ERROR_CODES } from '../../../src-main/contracts/errors.js';

export type CallOutcome =
  | { kind: 'result'; value: unknown; ms: number }
  | { kind: 'structured-error'; code: string; message: string; ms: number }
  /** The transport failed (the server went away): an error the agent sees, not a hang. */
  | { kind: 'transport-error'; message: string; ms: number }
  | { kind: 'unstructured-error'; raw: unknown; ms: number }
  | { kind: 'hung'; ms: number };

const KNOWN_CODES = new Set<string>(ERROR_CODES);

/** Reads `structuredContent.error` of an MCP tool result when it carries a known code. */
export function structuredErrorOf(result: unknown): { code: string; message: string } | undefined {
  if (typeof result !== 'object' || result === null) return undefined;
  const content = (result as { structuredContent?: unknown }).structuredContent;
  if (typeof content !== 'object' || content === null) return undefined;
  return knownError((content as { error?: unknown }).error);
}

/** A structured error `{ code, message }` with one of Junction's codes. */
function knownError(error: unknown): { code: string; message: string } | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (typeof code !== 'string' || !KNOWN_CODES.has(code) || typeof message !== 'string') return undefined;
  return { code, message };
}

export function classifyResult(result: unknown, ms: number): CallOutcome {
  const isError = typeof result === 'object' && result !== null && (result as { isError?: unknown }).isError === true;
  if (!isError) return { kind: 'result', value: result, ms };
  const error = structuredErrorOf(result);
  return error ? { kind: 'structured-error', ...error, ms } : { kind: 'unstructured-error', raw: result, ms };
}

/** Calls a tool and classifies how it ended; `watchdogMs` turns a hang into an outcome instead of a stuck test. */
export async function callOutcome(agent: Client, name: string, args: Record<string, unknown>, watchdogMs: number): Promise<CallOutcome> {
  const started = Date.now();
  let timer: NodeJS.Timeout | undefined;
  const watchdog = new Promise<CallOutcome>((resolve) => {
    timer = setTimeout(() => resolve({ kind: 'hung', ms: Date.now() - started }), watchdogMs);
  });
  const call = agent
    .callTool({ name, arguments: args }, undefined, { timeout: watchdogMs * 2 })
    .then((result) => classifyResult(result, Date.now() - started))
    .catch((error: unknown): CallOutcome => {
      // A protocol error (an unknown tool is -32602 over MCP) carries Junction's structured error as its data: an answer, not a lost call.
      const structured = error instanceof McpError ? knownError(error.data) : undefined;
      if (structured) return { kind: 'structured-error', ...structured, ms: Date.now() - started };
      return { kind: 'transport-error', message: error instanceof Error ? error.message : String(error), ms: Date.now() - started };
    });
  try {
    return await Promise.race([call, watchdog]);
  } finally {
    clearTimeout(timer);
  }
}

/** A call "ended" when it produced anything but a hang or an unstructured error. */
export function ended(outcome: CallOutcome): boolean {
  return outcome.kind === 'result' || outcome.kind === 'structured-error' || outcome.kind === 'transport-error';
}

export function describeOutcome(outcome: CallOutcome): string {
  switch (outcome.kind) {
    case 'result':
      return `result in ${outcome.ms} ms`;
    case 'structured-error':
      return `${outcome.code} in ${outcome.ms} ms`;
    case 'transport-error':
      return `transport error (${outcome.message.slice(0, 80)}) in ${outcome.ms} ms`;
    case 'unstructured-error':
      return `UNSTRUCTURED error ${JSON.stringify(outcome.raw).slice(0, 200)}`;
    case 'hung':
      return `HUNG for ${outcome.ms} ms`;
  }
}
