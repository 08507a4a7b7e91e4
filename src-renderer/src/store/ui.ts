/**
 * Navigation state shared by the shell, the views and the command palette: which view is open, which
 * call is selected, which tool the runner shows. Kept apart from the data store so a burst of call
 * events never re-renders navigation, and navigation never touches the reducer.
 */
import { create } from 'zustand';

export const VIEW_IDS = ['plugins', 'calls', 'run', 'transactions', 'approvals', 'recovery', 'bridge', 'policy', 'settings'] as const;
export type ViewId = (typeof VIEW_IDS)[number];

function initialView(): ViewId {
  const hash = window.location.hash.slice(1);
  return (VIEW_IDS as readonly string[]).includes(hash) ? (hash as ViewId) : 'plugins';
}

export interface UiState {
  view: ViewId;
  selectedCallId: string | undefined;
  runTool: string | undefined;
  /** Arguments to prefill in the runner (from a call's "Run again"). */
  runArgs: Record<string, unknown> | undefined;
  paletteOpen: boolean;
  /** Plugin connections whose detail is expanded; kept across view changes. */
  expandedPlugins: ReadonlySet<string>;
  go(view: ViewId): void;
  selectCall(callId: string | undefined): void;
  openCall(callId: string): void;
  openTool(name: string, args?: Record<string, unknown>): void;
  openPlugin(connectionId: string): void;
  togglePlugin(connectionId: string): void;
  setPalette(open: boolean): void;
}

export const useUi = create<UiState>()((set) => ({
  view: initialView(),
  selectedCallId: undefined,
  runTool: undefined,
  runArgs: undefined,
  paletteOpen: false,
  expandedPlugins: new Set<string>(),
  go: (view) => set({ view }),
  selectCall: (selectedCallId) => set({ selectedCallId }),
  openCall: (callId) => set({ view: 'calls', selectedCallId: callId }),
  openTool: (name, args) => set({ view: 'run', runTool: name, runArgs: args }),
  openPlugin: (connectionId) => set((s) => ({ view: 'plugins', expandedPlugins: new Set([...s.expandedPlugins, connectionId]) })),
  togglePlugin: (connectionId) =>
    set((s) => {
      const next = new Set(s.expandedPlugins);
      if (!next.delete(connectionId)) next.add(connectionId);
      return { expandedPlugins: next };
    }),
  setPalette: (paletteOpen) => set({ paletteOpen }),
}));
