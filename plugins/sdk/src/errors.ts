/**
 * Thrown by a tool whose failure is nobody's fault in the request (the app is compiling, a service the
 * tool needs is not built yet). Pass `notExecuted: true` only when the tool changed nothing and a
 * plugin reload ends the condition: a bridge with the call guard then sends the call again.
 */
export class ToolUnavailableError extends Error {
  readonly notExecuted: boolean;

  constructor(message: string, options: { notExecuted?: boolean; cause?: unknown } = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'ToolUnavailableError';
    this.notExecuted = options.notExecuted ?? false;
  }
}

/**
 * A request to the agent (ctx.elicit, ctx.sample) that did not get an answer. `code` is stable:
 * `CapabilityUnavailable` (the agent, or a bridge without the MCP extension, cannot do it),
 * `CallNotActive`, `InvalidRequest`, `AgentRequestFailed`, `TooManyRequests`.
 */
export class AgentRequestError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'AgentRequestError';
  }
}

/** A notice for the operator (plugin.notifyOperator) the bridge did not take; `code` is stable (see notifyOperator). */
export class OperatorNoticeError extends Error {
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
    this.name = 'OperatorNoticeError';
  }
}

/** The human-readable text of anything thrown: an Error's message, or the thrown value's string form. */
export function errorMessage(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
