/** Tray icon whose tooltip and menu summarise plugins and pending approvals. */
import { Menu, Tray, nativeImage } from 'electron';
import type { ControlHub } from '../control/index.js';
import type { ControlSnapshot } from '../contracts/index.js';

const ICON = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAALklEQVR4nGNQiTzOQAmGMf6TiQejAYTAEDAAHePRPFgNIMH/NDJg4FMiuQaQjQFOxlhSqaYH+QAAAABJRU5ErkJggg==';

export function statusLine(snapshot: ControlSnapshot): string {
  const connected = snapshot.plugins.filter((p) => p.state === 'connected').length;
  const pending = snapshot.approvals.filter((a) => a.state === 'pending').length + (snapshot.callApprovals ?? []).filter((a) => a.state === 'pending').length;
  const parts = [`${connected} plugin${connected === 1 ? '' : 's'} connected`, snapshot.bridge.running ? 'bridge running' : 'bridge stopped'];
  if (pending > 0) parts.push(`${pending} approval${pending === 1 ? '' : 's'} waiting`);
  return `Junction: ${parts.join(', ')}`;
}

export function createTray(hub: ControlHub, actions: { show(): void; quit(): void }): () => void {
  const tray = new Tray(nativeImage.createFromDataURL(ICON));
  const refresh = (): void => {
    const line = statusLine(hub.snapshotFrame().snapshot);
    tray.setToolTip(line);
    tray.setContextMenu(
      Menu.buildFromTemplate([
        { label: line, enabled: false },
        { type: 'separator' },
        { label: 'Show console', click: actions.show },
        { label: 'Quit Junction', click: actions.quit },
      ]),
    );
  };
  refresh();
  tray.on('click', actions.show);
  const unsubscribe = hub.subscribe((event) => {
    if (event.type.startsWith('plugin.') || event.type.startsWith('approval.') || event.type.startsWith('callApproval.') || event.type === 'bridge.state') refresh();
  });
  return () => {
    unsubscribe();
    tray.destroy();
  };
}
