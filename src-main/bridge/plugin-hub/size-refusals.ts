/**
 * Messages the hub could not take, told to the operator: one over the frame limit (either way) or
 * one that did not parse. The hub has already failed what it carried (that call alone, or closed the
 * connection when it could not be placed); here a Processing call whose too-large completion the hub
 * refused fails too, and each refusal is one log line, the plugin's latest warning (its console row
 * and server-status), and an operator notice (bounded per connection, so a plugin that keeps
 * answering too much cannot flood the console; the log line and the warning still come).
 */
import { randomUUID } from 'node:crypto';
import { PluginToServer } from '../../../plugins/sdk/wire/index.js';
import { createRateLimiter } from '../../security/index.js';
import type { TypedEmitter } from '../../shared/index.js';
import { FRAME_LIMIT_SETTING, InvokeFailure } from '../calls/index.js';
import type { ProjectRegistry } from '../projects/index.js';
import type { HubServer, MalformedMessage, OversizedMessage } from '../signalr/index.js';
import type { BridgeEvents } from '../source/index.js';
import type { HubPluginPort } from './hub-plugin-port.js';

const NOTICE_BURST = 3;
const NOTICES_PER_SECOND = 0.1;
const MAX_TRACKED_CONNECTIONS = 1_024;

export type RefusalReporter = (connectionId: string, title: string, message: string) => void;

/** One log line, the plugin's warning and (rate permitting) a notice, for each message refused. */
export function refusalReporter(projects: ProjectRegistry, events: TypedEmitter<BridgeEvents>, warn: (connectionId: string, message: string) => void, now: () => number): RefusalReporter {
  const rate = createRateLimiter({ ratePerSecond: NOTICES_PER_SECOND, burst: NOTICE_BURST, maxKeys: MAX_TRACKED_CONNECTIONS, now });
  return (connectionId, title, message) => {
    warn(connectionId, message);
    projects.noteFinding(connectionId, title, `${title}: ${message}`);
    if (!rate.take(connectionId).ok) return;
    const name = projects.get(connectionId)?.name ?? connectionId;
    events.emit('operatorNotice', { id: randomUUID(), level: 'warning', title, message, subject: { kind: 'plugin', id: connectionId, label: `plugin ${name}` }, at: now() });
  };
}

function oversized(message: OversizedMessage, port: HubPluginPort, report: RefusalReporter): void {
  const { connection, bytes, limitBytes } = message;
  const completion = message.target?.toLowerCase() === PluginToServer.NotifyToolRequestCompleted.toLowerCase() ? message.requestId : undefined;
  const failedCompletion =
    completion !== undefined && port.failTool(connection.id, completion, new InvokeFailure('payloadTooLarge', `The completion of call ${completion} is over the hub's limit.`, { bytes, limitBytes, direction: 'reply' }));
  const what = message.failedInvocation ?? message.target ?? (message.type === undefined ? 'A message' : `A message of type ${message.type}`);
  const fate = message.closed ? 'the connection was closed' : message.failedInvocation || failedCompletion ? 'that call failed with PayloadTooLarge' : 'it was refused';
  report(connection.id, 'Message over the hub limit', `${what} of ${bytes} bytes exceeds the hub's limit of ${limitBytes} bytes (${FRAME_LIMIT_SETTING}); ${fate}.`);
}

function malformed(message: MalformedMessage, report: RefusalReporter): void {
  const what = message.failedInvocation ? `The answer to ${message.failedInvocation}` : (message.target ?? 'A message');
  const fate = message.closed ? 'the connection was closed' : message.failedInvocation ? 'that call failed' : 'it was refused';
  report(message.connection.id, 'Malformed hub message', `${what} is not a valid hub message (${message.error}); ${fate}.`);
}

export function attachSizeRefusals(hub: HubServer, port: HubPluginPort, report: RefusalReporter): Array<() => void> {
  return [hub.events.on('oversized', (message) => oversized(message, port, report)), hub.events.on('malformed', (message) => malformed(message, report))];
}
