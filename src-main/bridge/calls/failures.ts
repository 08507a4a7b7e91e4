/** Why a plugin invocation produced no reply, and the outcomes the bridge answers for its own failures of a call. */
import type { ToolOutcome } from '../../contracts/index.js';
import { bridgeFailure } from './outcome.js';

/**
 * `notSent`: the connection was already gone, so nothing ran and the call may be routed again;
 * `clientError`: the plugin's RunCallTool handler itself failed; `protocol`: its reply did not parse;
 * `noAnswer`: it completed without any result.
 */
export type InvokeFailureReason = 'notSent' | 'timeout' | 'aborted' | 'connectionClosed' | 'clientError' | 'protocol' | 'noAnswer';

/** Why a plugin invocation produced no reply. */
export class InvokeFailure extends Error {
  constructor(
    readonly reason: InvokeFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'InvokeFailure';
  }
}

export function cancelledOutcome(tool: string): ToolOutcome {
  return bridgeFailure(tool, 'PluginUnavailable', `The call to '${tool}' was cancelled before it finished.`);
}

export function notFoundOutcome(tool: string): ToolOutcome {
  return bridgeFailure(tool, 'ToolNotFound', `No connected plugin publishes a tool named '${tool}'.`);
}

export function timeoutOutcome(tool: string, timeoutMs: number, phase: string): ToolOutcome {
  return bridgeFailure(tool, 'ToolTimeout', `'${tool}' did not finish within ${timeoutMs} ms (${phase}).`, { timeoutMs });
}

export function invokeFailureOutcome(tool: string, failure: InvokeFailure, timeoutMs: number): ToolOutcome {
  switch (failure.reason) {
    case 'timeout':
      return timeoutOutcome(tool, timeoutMs, 'waiting for the plugin');
    case 'aborted':
      return cancelledOutcome(tool);
    case 'notSent':
    case 'connectionClosed':
      return bridgeFailure(tool, 'PluginUnavailable', `The plugin serving '${tool}' disconnected before answering; the call may or may not have run.`);
    case 'clientError':
      return bridgeFailure(tool, 'InternalError', failure.message);
    case 'protocol':
      return bridgeFailure(tool, 'InternalError', `The plugin serving '${tool}' answered with a malformed result: ${failure.message}`);
    case 'noAnswer':
      // McpPlugin.Server's answer when the plugin returns nothing: a bad gateway, not a fault of ours.
      return bridgeFailure(tool, 'InternalError', `The plugin serving '${tool}' returned no result.`, undefined, 502);
  }
}

