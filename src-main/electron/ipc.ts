/**
 * The Electron transport of the control room: one `ipcMain.handle` per console command, frames pushed
 * with `webContents.send`. Only the console window's own frames may talk to it.
 */
import { ipcMain, type IpcMainEvent, type IpcMainInvokeEvent, type WebContents } from 'electron';
import { COMMAND_NAMES, snapshotParts, type ControlHub } from '../control/index.js';
import { type ControlResult } from '../contracts/index.js';
import { FRAME_CHANNEL, INVOKE_CHANNEL_PREFIX, SUBSCRIBE_CHANNEL } from './channels.js';
import { APP_ORIGIN } from './protocol.js';

function fromConsole(event: IpcMainEvent | IpcMainInvokeEvent): boolean {
  const url = event.senderFrame?.url ?? '';
  return url.startsWith(`${APP_ORIGIN}/`);
}

const REFUSED: ControlResult<never> = { ok: false, error: { code: 'Forbidden', message: 'Console commands are accepted from the console window only.' } };

export function registerControlIpc(hub: ControlHub): () => void {
  const detachers = new Map<WebContents, () => void>();

  for (const command of COMMAND_NAMES) {
    ipcMain.handle(`${INVOKE_CHANNEL_PREFIX}${command}`, (event, args: unknown) => (fromConsole(event) ? hub.execute(command, args) : REFUSED));
  }

  const onSubscribe = (event: IpcMainEvent): void => {
    if (!fromConsole(event)) return;
    const contents = event.sender;
    // A reload subscribes again; the old stream must stop so the page gets one snapshot, not two streams.
    detachers.get(contents)?.();
    // A long call log goes in parts, as over the WebSocket, so the window never deserialises it in one task.
    const detach = hub.attach((frame) => {
      for (const part of frame.type === 'snapshot' ? snapshotParts(frame) : [frame]) {
        if (!contents.isDestroyed()) contents.send(FRAME_CHANNEL, part);
      }
    });
    detachers.set(contents, detach);
    contents.once('destroyed', () => {
      detach();
      detachers.delete(contents);
    });
  };
  ipcMain.on(SUBSCRIBE_CHANNEL, onSubscribe);

  return () => {
    for (const command of COMMAND_NAMES) ipcMain.removeHandler(`${INVOKE_CHANNEL_PREFIX}${command}`);
    ipcMain.removeListener(SUBSCRIBE_CHANNEL, onSubscribe);
    for (const detach of detachers.values()) detach();
    detachers.clear();
  };
}
