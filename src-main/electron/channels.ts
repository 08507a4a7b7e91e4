/**
 * IPC channel names between the main process and the preload. The sandboxed preload cannot import
 * local modules, so preload.cts spells the same two names; keep them in step.
 */
export const INVOKE_CHANNEL_PREFIX = 'junction:command:';
export const SUBSCRIBE_CHANNEL = 'junction:subscribe';
export const FRAME_CHANNEL = 'junction:frame';
