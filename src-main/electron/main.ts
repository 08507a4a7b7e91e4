/**
 * Electron shell around the same core the headless mode runs: one instance per user, one console window,
 * a tray, and OS notifications for approvals. The only room that imports 'electron'.
 */
import { app, BrowserWindow, ipcMain, Notification } from 'electron';
import { fileURLToPath } from 'node:url';
import type { ControlHub } from '../control/index.js';
import { registerControlIpc } from './ipc.js';
import { registerAppScheme, serveRenderer } from './protocol.js';
import { createTray } from './tray.js';
import { createConsoleWindow } from './window.js';

export interface ElectronJunction {
  hub: ControlHub;
  stop(): Promise<void>;
}

export interface RunElectronOptions {
  /** Starts the core (the composition root's `startJunction`) and hands back its control hub. */
  start(): Promise<ElectronJunction>;
  /** The built renderer bundle (src-renderer/dist). */
  rendererDir: string;
  /** Compiled preload script; defaults to preload.cjs beside this module. */
  preloadPath?: string;
}

function focus(window: BrowserWindow | undefined): void {
  if (!window || window.isDestroyed()) return;
  if (window.isMinimized()) window.restore();
  window.show();
  window.focus();
}

export async function runElectron(options: RunElectronOptions): Promise<void> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return;
  }
  registerAppScheme();
  await app.whenReady();

  const junction = await options.start();
  serveRenderer(options.rendererDir);
  const unregisterIpc = registerControlIpc(ipcMain, junction.hub);
  const preload = options.preloadPath ?? fileURLToPath(new URL('./preload.cjs', import.meta.url));
  let window: BrowserWindow | undefined = createConsoleWindow(preload);
  let quitting = false;

  const show = (): void => {
    if (!window || window.isDestroyed()) window = createConsoleWindow(preload);
    focus(window);
  };
  const destroyTray = createTray(junction.hub, { show, quit: () => app.quit() });

  app.on('second-instance', show);
  app.on('activate', show);
  const notify = (title: string, body: string): void => {
    if (!Notification.isSupported()) return;
    const note = new Notification({ title, body });
    note.on('click', show);
    note.show();
  };
  const unsubscribe = junction.hub.subscribe((event) => {
    if (event.type === 'approval.requested') {
      notify('Junction: approval requested', `Commit of ${event.approval.files.length} file(s) in ${event.approval.workspaceId} is waiting for you.`);
    } else if (event.type === 'callApproval.requested') {
      notify('Junction: tool call waiting', `${event.approval.agentName} wants to call ${event.approval.tool} (${event.approval.target}).`);
    }
  });

  // The tray keeps the core alive with the window closed; quitting is explicit.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', (event) => {
    if (quitting) return;
    quitting = true;
    event.preventDefault();
    unsubscribe();
    unregisterIpc();
    destroyTray();
    void junction.stop().finally(() => app.exit(0));
  });
}
