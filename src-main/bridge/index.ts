/**
 * The bridge's door for the composition: the bridge as one part of a running Junction. Its sub-rooms
 * (signalr, plugins, projects, presence, webhooks) keep their own doors.
 */
export { mountBridge, type BridgeMountContext, type MountedBridge } from './mount.js';
export type { ConnectCommand } from './client-setup.js';
