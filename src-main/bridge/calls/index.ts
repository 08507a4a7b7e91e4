/**
 * One agent call to a plugin, from routing to outcome: the call guard (whole-call deadline, argument
 * validation, re-send of `notExecuted` calls), reading the plugin's reply, and turning it into a tool
 * outcome through the one table from McpPlugin's ErrorKind and HttpStatusCode to Junction's codes.
 *
 *   guardedCall(registry, invoker, settings, tool, args, ctx)   -> ToolOutcome (never throws for plugin failures)
 *   parseCallReply(raw)                                        -> PluginReply (InvokeFailure on a malformed one)
 *   errorCodeOfKind(kind, notFound)                            -> ErrorCode for a plugin's ErrorKind
 */
export { guardedCall, type GuardSettings, type ToolCallOptions, type ToolInvoker } from './call-guard.js';
export { prepareArgumentValidation } from './arguments.js';
export { CallDeadline } from './call-deadline.js';
export { FRAME_LIMIT_SETTING, InvokeFailure, invokeFailureOutcome, type InvokeFailureReason } from './failures.js';
export { bridgeFailure, errorCodeOfKind, errorCodeOfReply, outcomeFromReply, replyFromEnvelope, isNotExecuted, type PluginReply } from './outcome.js';
export { issuesText, parseCallReply } from './call-reply.js';
export { contentProblem, toMcpContent } from './content.js';
