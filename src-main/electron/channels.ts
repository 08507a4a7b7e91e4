/**
 * IPC channel names between the main process and the preload. The sandboxed preload cannot import
 * local modules, so preload.cts spells the same three names (test/unit/electron checks they agree).
 * Commands share one invoke channel: the command's name travels as an argument and the main process
 * checks it against the console command table, so adding a command changes nothing here.
 */
export const INVOKE_CHANNEL = 'junction:invoke';
export const SUBSCRIBE_CHANNEL = 'junction:subscribe';
export const FRAME_CHANNEL = 'junction:frame';

/** The console window's origin: the private `app://` scheme protocol.ts serves the renderer on. */
export const APP_SCHEME = 'app';
export const APP_ORIGIN = `${APP_SCHEME}://console`;
