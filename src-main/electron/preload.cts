/**
 * Exposes exactly the console's ControlChannel to the renderer as `window.junction` and nothing else:
 * no ipcRenderer, no Node. Runs sandboxed, so it is a self-contained CommonJS script (see channels.ts)
 * with no module wrapper of its own; the block keeps its names out of the global scope. It knows no
 * command names: the main process checks each against the command table.
 */
{
  // eslint-disable-next-line @typescript-eslint/no-require-imports -- sandboxed preloads can only require('electron')
  const electron: typeof import('electron') = require('electron');
  const INVOKE_CHANNEL = 'junction:invoke';
  const SUBSCRIBE_CHANNEL = 'junction:subscribe';
  const FRAME_CHANNEL = 'junction:frame';

  electron.contextBridge.exposeInMainWorld('junction', {
    invoke(command: unknown, args: unknown): Promise<unknown> {
      return electron.ipcRenderer.invoke(INVOKE_CHANNEL, command, args);
    },
    onFrame(listener: (frame: unknown) => void): () => void {
      const handler = (_event: unknown, frame: unknown): void => listener(frame);
      electron.ipcRenderer.on(FRAME_CHANNEL, handler);
      electron.ipcRenderer.send(SUBSCRIBE_CHANNEL);
      return () => {
        electron.ipcRenderer.removeListener(FRAME_CHANNEL, handler);
      };
    },
  });
}
