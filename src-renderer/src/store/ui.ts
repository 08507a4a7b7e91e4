/**
 * Navigation state shared by the shell, the views and the command palette: which view is open, which
 * call is selected, which tool the runner shows. Kept apart from the data store so a burst of call
 * events never re-renders navigation, and navigation never touches the reducer.
 *
 * The address names the view and the selected call (`#calls/<callId>`), so a URL points at a call.
 */
import { create } from 'zustand';
import { isViewId, type ViewId } from '../views/registry.js';

export type { ViewId } from '../views/registry.js';

export interface Route {
  view: ViewId;
  callId: string | undefined;
}

/** `#calls/0192…` → the calls view with that call selected; anything unknown opens Plugins. */
export function parseRoute(hash: string): Route {
  const [view = '', ...rest] = hash.replace(/^#/, '').split('/');
  const callId = rest.length > 0 ? decodeURIComponent(rest.join('/')) : undefined;
  if (!isViewId(view)) return { view: 'plugins', callId: undefined };
  return { view, callId: view === 'calls' && callId ? callId : undefined };
}

export function routeHash(route: Route): string {
  return route.view === 'calls' && route.callId ? `#calls/${encodeURIComponent(route.callId)}` : `#${route.view}`;
}

/** The full address of a call in this console, for sharing. */
export function callUrl(location: Pick<Location, 'origin' | 'pathname'>, callId: string): string {
  return `${location.origin}${location.pathname}${routeHash({ view: 'calls', callId })}`;
}

function initialRoute(): Route {
  return typeof window === 'undefined' ? { view: 'plugins', callId: undefined } : parseRoute(window.location.hash);
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
  /** The elicitation whose dialog is open. */
  answering: string | undefined;
  go(view: ViewId): void;
  /** Follows the address (the operator pasted or edited it). */
  follow(route: Route): void;
  selectCall(callId: string | undefined): void;
  openCall(callId: string): void;
  openTool(name: string, args?: Record<string, unknown>): void;
  openPlugin(connectionId: string): void;
  togglePlugin(connectionId: string): void;
  setPalette(open: boolean): void;
  answer(elicitationId: string | undefined): void;
}

const initial = initialRoute();

export const useUi = create<UiState>()((set) => ({
  view: initial.view,
  selectedCallId: initial.callId,
  runTool: undefined,
  runArgs: undefined,
  paletteOpen: false,
  expandedPlugins: new Set<string>(),
  answering: undefined,
  go: (view) => set({ view }),
  follow: (route) => set(route.callId ? { view: route.view, selectedCallId: route.callId } : { view: route.view }),
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
  answer: (answering) => set({ answering }),
}));
