/**
 * Plugin connections that ended, remembered by the control hub for the snapshot: a console that opens
 * (or reloads) after a plugin died still sees who held the slot, when it was last seen and why it went.
 */
import type { ControlEvent, DepartedPluginView, PluginView } from '../contracts/index.js';

/** Departures kept, newest first (the console keeps as many). */
export const MAX_DEPARTURES = 20;

/** A connection lost and awaited was last seen when it went awaited (the bridge does not say when). */
function lastSeen(plugin: PluginView, known: PluginView | undefined, now: number): PluginView {
  if (plugin.state !== 'awaited' || plugin.disconnectedAt !== undefined) return plugin;
  return { ...plugin, disconnectedAt: known?.state === 'awaited' ? (known.disconnectedAt ?? now) : now };
}

export class PluginDepartures {
  /** The latest view of every connected plugin: what a departure remembers of it. */
  private readonly live = new Map<string, PluginView>();
  private readonly gone: DepartedPluginView[] = [];

  observe(event: ControlEvent, now: number): void {
    if (event.type === 'plugin.connected' || event.type === 'plugin.updated') {
      this.live.set(event.plugin.connectionId, lastSeen(event.plugin, this.live.get(event.plugin.connectionId), now));
      return;
    }
    if (event.type !== 'plugin.disconnected') return;
    const plugin = this.live.get(event.connectionId);
    this.live.delete(event.connectionId);
    if (!plugin) return;
    this.gone.unshift({ plugin, at: plugin.disconnectedAt ?? now, ...(event.reason ? { reason: event.reason } : {}), ...(event.replacedBy ? { replacedBy: event.replacedBy } : {}) });
    this.gone.length = Math.min(this.gone.length, MAX_DEPARTURES);
  }

  list(): DepartedPluginView[] {
    return [...this.gone];
  }
}
