/** Why a plugin invocation produced no reply, and the outcomes the bridge answers for its own failures of a call. */
import type { ToolOutcome } from '../../contracts/index.js';
import type { MessageSize } from '../signalr/index.js';
import { bridgeFailure } from './outcome.js';

/**
 * `notSent`: the connection was already gone, so nothing ran and the call may be routed again;
 * `clientError`: the plugin's RunCallTool handler itself failed; `protocol`: its reply did not parse;
 * `noAnswer`: it completed without any result; `payloadTooLarge`: the call or its answer is over the hub's limit.
 */
export type InvokeFailureReason = 'notSent' | 'timeout' | 'aborted' | 'connectionClosed' | 'clientError' | 'protocol' | 'noAnswer' | 'payloadTooLarge';

/** Why a plugin invocation produced no reply. */
export class InvokeFailure extends Error {
  constructor(
    readonly reason: InvokeFailureReason,
    message: string,
    /** For `payloadTooLarge`: the message's size, the limit, and which way it went. */
    readonly size?: MessageSize,
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
  const outcome = failureOutcome(tool, failure, timeoutMs);
  // A call its caller gave up on is cancelled, not unanswered.
  return failure.reason === 'aborted' ? outcome : { ...outcome, unanswered: true };
}

function failureOutcome(tool: string, failure: InvokeFailure, timeoutMs: number): ToolOutcome {
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
    case 'payloadTooLarge':
      return payloadTooLargeOutcome(tool, failure);
  }
}

/** The setting that raises the hub's message limit, named in every refusal it causes. */
export const FRAME_LIMIT_SETTING = 'max-frame-bytes';

function payloadTooLargeOutcome(tool: string, failure: InvokeFailure): ToolOutcome {
  const size = failure.size;
  if (!size) return bridgeFailure(tool, 'PayloadTooLarge', failure.message, { setting: FRAME_LIMIT_SETTING });
  const what = size.direction === 'reply' ? `The plugin's answer to '${tool}' is` : `The call of '${tool}' with these arguments is a hub message of`;
  const message = `${what} ${size.bytes} bytes, over the hub's limit of ${size.limitBytes} bytes; the setting ${FRAME_LIMIT_SETTING} raises it.`;
  return bridgeFailure(tool, 'PayloadTooLarge', message, { sizeBytes: size.bytes, limitBytes: size.limitBytes, setting: FRAME_LIMIT_SETTING, direction: size.direction });
}

