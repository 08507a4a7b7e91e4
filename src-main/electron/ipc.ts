/**
 * The Electron transport of the control room: one `ipcMain.handle` for every console command (the
 * hub checks the name and arguments against the command table), frames pushed with `webContents.send`.
 * Only the console window's own frames may talk to it. `ipcMain` is passed in so this adapter also
 * loads where the Electron binary does not (its test drives it with the real preload script).
 */
import type { IpcMain, IpcMainEvent, IpcMainInvokeEvent, WebContents } from 'electron';
import { snapshotParts, type ControlHub } from '../control/index.js';
import { type ControlResult } from '../contracts/index.js';
import { APP_ORIGIN, FRAME_CHANNEL, INVOKE_CHANNEL, SUBSCRIBE_CHANNEL } from './channels.js';

export type ControlIpcMain = Pick<IpcMain, 'handle' | 'removeHandler' | 'on' | 'removeListener'>;

function fromConsole(event: IpcMainEvent | IpcMainInvokeEvent): boolean {
  const url = event.senderFrame?.url ?? '';
  return url.startsWith(`${APP_ORIGIN}/`);
}

const REFUSED: ControlResult<never> = { ok: false, error: { code: 'Forbidden', message: 'Console commands are accepted from the console window only.' } };

export function registerControlIpc(ipcMain: ControlIpcMain, hub: ControlHub): () => void {
  const detachers = new Map<WebContents, () => void>();

  ipcMain.handle(INVOKE_CHANNEL, (event, command: unknown, args: unknown) => (fromConsole(event) ? hub.execute(command, args) : REFUSED));

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
    ipcMain.removeHandler(INVOKE_CHANNEL);
    ipcMain.removeListener(SUBSCRIBE_CHANNEL, onSubscribe);
    for (const detach of detachers.values()) detach();
    detachers.clear();
  };
}
