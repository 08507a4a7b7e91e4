/**
 * The console's views, declared once: the navigation, the command palette, access keys, the address
 * (`#id`) and the tests all read this list. Adding a view is one entry here and its component file.
 *
 * Components load on first use (one chunk per view), which keeps the first render small and lets Node
 * (the tests) read the list without evaluating any view.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';

export interface ViewDefinition<Id extends string = string> {
  id: Id;
  /** The tab's and the palette's label. */
  label: string;
  /** The view's own level-2 heading. */
  heading: string;
  /** What the view is for, in the palette. */
  hint: string;
  component: LazyExoticComponent<ComponentType>;
}

function view<Id extends string>(id: Id, label: string, heading: string, hint: string, load: () => Promise<ComponentType>): ViewDefinition<Id> {
  return { id, label, heading, hint, component: lazy(async () => ({ default: await load() })) };
}

export const VIEWS = [
  view('plugins', 'Plugins', 'Plugins', 'connected applications, their tools and connection history', async () => (await import('./PluginsView.js')).PluginsView),
  view('agents', 'Agents', 'Agents', 'connected MCP sessions and HTTP callers', async () => (await import('./AgentsView.js')).AgentsView),
  view('calls', 'Live calls', 'Live calls', 'every tool call, live and recorded', async () => (await import('./CallsView.js')).CallsView),
  view('run', 'Run a tool', 'Run a tool', 'call any tool as the console', async () => (await import('./RunToolView.js')).RunToolView),
  view('transactions', 'Transactions', 'Transactions', 'staged revisions, diffs and ended transactions', async () => (await import('./TransactionsView.js')).TransactionsView),
  view('approvals', 'Approvals', 'Approvals', 'held calls and commits waiting for you', async () => (await import('./ApprovalsView.js')).ApprovalsView),
  view('recovery', 'Recovery', 'Recovery', 'the commit journal and what recovery did', async () => (await import('./RecoveryView.js')).RecoveryView),
  view('bridge', 'Bridge', 'Bridge', 'endpoints and client configuration', async () => (await import('./BridgeView.js')).BridgeView),
  view('policy', 'Policy', 'Approval policy', 'rules, grants and decisions', async () => (await import('./PolicyView.js')).PolicyView),
  view('settings', 'Settings', 'Settings', 'the effective configuration', async () => (await import('./SettingsView.js')).SettingsView),
] as const;

export type ViewId = (typeof VIEWS)[number]['id'];

export const VIEW_IDS: readonly ViewId[] = VIEWS.map((v) => v.id);

export function isViewId(text: string): text is ViewId {
  return (VIEW_IDS as readonly string[]).includes(text);
}

export function viewById(id: ViewId): ViewDefinition<ViewId> {
  return VIEWS.find((v) => v.id === id) ?? VIEWS[0];
}

/** Alt+1 … Alt+9 then Alt+0 reach the first ten views in order; later ones have none. */
export function accessKeyOf(index: number): string | undefined {
  if (index < 9) return String(index + 1);
  return index === 9 ? '0' : undefined;
}
