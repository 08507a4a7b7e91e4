/** Events the host emits for the console; each payload is exactly the matching ControlEvent. */
import type { ControlEvent } from '../contracts/index.js';

export type HostEventType = 'workspace.updated' | 'approval.requested' | 'approval.decided';
export type HostEvents = { [K in HostEventType]: Extract<ControlEvent, { type: K }> };
