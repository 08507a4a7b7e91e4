/**
 * Each view's component, keyed by the registry's ids: a view listed there without a component here does
 * not compile. It sits above the views (only App imports it), so no view depends back on it.
 *
 * The views are in the main bundle, not loaded on first use: a lazily loaded view put a second request
 * and compile between the snapshot's arrival and the first rows (a waterfall that cost bench:console's
 * first render more than the whole bundle's parse).
 */
import type { ComponentType } from 'react';
import type { ViewId } from './registry.js';
import { AgentsView } from './AgentsView.js';
import { ApprovalsView } from './ApprovalsView.js';
import { BridgeView } from './BridgeView.js';
import { CallsView } from './CallsView.js';
import { PluginsView } from './PluginsView.js';
import { PolicyView } from './PolicyView.js';
import { RecoveryView } from './RecoveryView.js';
import { RunToolView } from './RunToolView.js';
import { SettingsView } from './SettingsView.js';
import { TransactionsView } from './TransactionsView.js';
import { VisibilityView } from './VisibilityView.js';

export const VIEW_COMPONENTS: Record<ViewId, ComponentType> = {
  plugins: PluginsView,
  agents: AgentsView,
  calls: CallsView,
  run: RunToolView,
  transactions: TransactionsView,
  approvals: ApprovalsView,
  recovery: RecoveryView,
  bridge: BridgeView,
  policy: PolicyView,
  visibility: VisibilityView,
  settings: SettingsView,
};
