/**
 * NotifyOperator (MCP extension 1, feature `operatorNotices`): a plugin shows the operator a notice,
 * raised as a bridge event whose subject is the plugin. Only a connection that declared the feature
 * may send one; the payload is read by the contract's schema (sizes bounded there) and each
 * connection has its own token bucket, so a hostile plugin cannot flood the console: the excess is
 * refused with TooManyRequests and raises nothing.
 */
import { randomUUID } from 'node:crypto';
import { ExtensionErrorCode, NotifyOperatorSchema, PluginToServer, ResponseErrorKind, extensionError } from '../../../plugins/sdk/wire/index.js';
import type { OperatorNotice } from '../../contracts/index.js';
import { createRateLimiter } from '../../security/index.js';
import type { TypedEmitter } from '../../shared/index.js';
import type { ProjectRegistry } from '../projects/index.js';
import type { HubServer } from '../signalr/index.js';
import type { BridgeEvents } from '../source/index.js';
import type { HubWire } from './payloads.js';

/** Each connection may raise this many notices at once, then one every two seconds. */
export const NOTICE_BURST = 5;
export const NOTICES_PER_SECOND = 0.5;
/** Connections whose buckets are remembered; a forgotten one only starts again with a full bucket. */
const MAX_TRACKED_CONNECTIONS = 1_024;

export function attachOperatorNotices(hub: HubServer, projects: ProjectRegistry, events: TypedEmitter<BridgeEvents>, wire: HubWire, now: () => number): Array<() => void> {
  const rate = createRateLimiter({ ratePerSecond: NOTICES_PER_SECOND, burst: NOTICE_BURST, maxKeys: MAX_TRACKED_CONNECTIONS, now });
  return [
    hub.on(PluginToServer.NotifyOperator, (connection, raw) => {
      const notice = wire.read(connection, PluginToServer.NotifyOperator, NotifyOperatorSchema, raw);
      const record = projects.get(connection.id);
      if (!record?.handshake?.features.includes('operatorNotices')) {
        return extensionError(notice.requestId, ExtensionErrorCode.CapabilityUnavailable, 'This connection did not declare the operatorNotices feature in its handshake.', ResponseErrorKind.Unavailable);
      }
      const taken = rate.take(connection.id);
      if (!taken.ok) {
        return extensionError(notice.requestId, ExtensionErrorCode.TooManyRequests, `At most ${NOTICE_BURST} notices at once, then one every ${1 / NOTICES_PER_SECOND} s; retry in ${taken.retryAfterMs} ms.`, ResponseErrorKind.Conflict);
      }
      const raised: OperatorNotice = {
        id: randomUUID(),
        level: notice.level,
        title: notice.title,
        message: notice.message,
        subject: { kind: 'plugin', id: connection.id, label: `plugin ${record.name}` },
        at: now(),
      };
      events.emit('operatorNotice', raised);
      return wire.acknowledged(notice.requestId);
    }),
  ];
}
