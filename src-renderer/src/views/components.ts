/**
 * Each view's component, loaded on first use (one chunk per view, so the first render stays small). The
 * record is keyed by the registry's ids: a view listed there without a component here does not compile.
 * It sits above the views (only App imports it), so no view depends back on it.
 */
import { lazy, type ComponentType, type LazyExoticComponent } from 'react';
import type { ViewId } from './registry.js';

const load = (importer: () => Promise<ComponentType>): LazyExoticComponent<ComponentType> => lazy(async () => ({ default: await importer() }));

export const VIEW_COMPONENTS: Record<ViewId, LazyExoticComponent<ComponentType>> = {
  plugins: load(async () => (await import('./PluginsView.js')).PluginsView),
  agents: load(async () => (await import('./AgentsView.js')).AgentsView),
  calls: load(async () => (await import('./CallsView.js')).CallsView),
  run: load(async () => (await import('./RunToolView.js')).RunToolView),
  transactions: load(async () => (await import('./TransactionsView.js')).TransactionsView),
  approvals: load(async () => (await import('./ApprovalsView.js')).ApprovalsView),
  recovery: load(async () => (await import('./RecoveryView.js')).RecoveryView),
  bridge: load(async () => (await import('./BridgeView.js')).BridgeView),
  policy: load(async () => (await import('./PolicyView.js')).PolicyView),
  settings: load(async () => (await import('./SettingsView.js')).SettingsView),
};
