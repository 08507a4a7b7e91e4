import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useConsole } from './store/store.js';
import { pendingApprovals, pendingCallApprovals } from './store/reducer.js';
import { useUi, type ViewId } from './store/ui.js';
import { useTheme } from './lib/theme.js';
import { MetricsHeader } from './components/MetricsHeader.js';
import { CommandPalette } from './components/CommandPalette.js';
import { PluginsView } from './views/PluginsView.js';
import { CallsView } from './views/CallsView.js';
import { RunToolView } from './views/RunToolView.js';
import { TransactionsView } from './views/TransactionsView.js';
import { ApprovalsView } from './views/ApprovalsView.js';
import { RecoveryView } from './views/RecoveryView.js';
import { BridgeView } from './views/BridgeView.js';
import { PolicyView } from './views/PolicyView.js';
import { SettingsView } from './views/SettingsView.js';

const VIEWS: ReadonlyArray<{ id: ViewId; label: string; key: string; render: () => React.ReactNode }> = [
  { id: 'plugins', label: 'Plugins', key: '1', render: () => <PluginsView /> },
  { id: 'calls', label: 'Live calls', key: '2', render: () => <CallsView /> },
  { id: 'run', label: 'Run a tool', key: '3', render: () => <RunToolView /> },
  { id: 'transactions', label: 'Transactions', key: '4', render: () => <TransactionsView /> },
  { id: 'approvals', label: 'Approvals', key: '5', render: () => <ApprovalsView /> },
  { id: 'recovery', label: 'Recovery', key: '6', render: () => <RecoveryView /> },
  { id: 'bridge', label: 'Bridge', key: '7', render: () => <BridgeView /> },
  { id: 'policy', label: 'Policy', key: '8', render: () => <PolicyView /> },
  { id: 'settings', label: 'Settings', key: '9', render: () => <SettingsView /> },
];

const IS_MAC = /Mac|iPhone|iPad/.test(navigator.platform);

function Notices() {
  const notices = useConsole((s) => s.notices);
  const dismiss = useConsole((s) => s.dismiss);
  return (
    <div className="notices" role="status" aria-live="polite">
      {notices.map((n) => (
        <p key={n.id} className={`notice ${n.kind}`}>
          {n.text}{' '}
          <button type="button" className="link" aria-label="Dismiss message" onClick={() => dismiss(n.id)}>
            ×
          </button>
        </p>
      ))}
    </div>
  );
}

function bannerText(commits: number, calls: number): string {
  const parts = [commits > 0 ? `${commits} commit${commits === 1 ? '' : 's'}` : '', calls > 0 ? `${calls} tool call${calls === 1 ? '' : 's'}` : ''].filter(Boolean);
  return `${parts.join(' and ')} ${commits + calls === 1 ? 'is' : 'are'} waiting for your approval.`;
}

export function App() {
  const view = useUi((s) => s.view);
  const setView = useUi((s) => s.go);
  const setPalette = useUi((s) => s.setPalette);
  const status = useConsole((s) => s.status);
  const version = useConsole((s) => s.data.version);
  const gaps = useConsole((s) => s.data.gaps);
  const pendingCommits = useConsole((s) => pendingApprovals(s.data).length);
  const heldCalls = useConsole((s) => pendingCallApprovals(s.data).length);
  const pending = pendingCommits + heldCalls;
  const [theme, cycleTheme] = useTheme();
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);

  useEffect(() => {
    window.location.hash = view;
  }, [view]);

  // A waiting approval shows in the tab title too, so it is seen from another tab or window.
  useEffect(() => {
    document.title = pending > 0 ? `(${pending}) approval waiting · Junction` : 'Junction console';
  }, [pending]);

  // Ctrl+K / Cmd+K opens the palette from anywhere, including inside inputs.
  useEffect(() => {
    const onKey = (e: globalThis.KeyboardEvent): void => {
      if ((e.ctrlKey || e.metaKey) && e.key.toLowerCase() === 'k') {
        e.preventDefault();
        setPalette(true);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [setPalette]);

  const onNavKey = (event: KeyboardEvent<HTMLElement>): void => {
    const index = VIEWS.findIndex((v) => v.id === view);
    let target: number;
    if (event.key === 'ArrowDown' || event.key === 'ArrowRight') target = (index + 1) % VIEWS.length;
    else if (event.key === 'ArrowUp' || event.key === 'ArrowLeft') target = (index - 1 + VIEWS.length) % VIEWS.length;
    else if (event.key === 'Home') target = 0;
    else if (event.key === 'End') target = VIEWS.length - 1;
    else return;
    event.preventDefault();
    const next = VIEWS[target];
    if (!next) return;
    setView(next.id);
    tabs.current[target]?.focus();
  };

  const current = VIEWS.find((v) => v.id === view) ?? VIEWS[0]!;
  return (
    <div className="shell">
      <a className="skip-link" href="#view-panel">Skip to content</a>
      <header className="topbar">
        <h1>Junction</h1>
        <span className="muted">{version && `v${version}`}</span>
        <span className={`pill conn-${status}`} data-testid="connection">
          {status === 'open' ? 'live' : status}
        </span>
        {gaps > 0 && <span className="pill warn">{gaps} gap(s) in the event stream</span>}
        <button type="button" className="secondary palette-button" onClick={() => setPalette(true)} aria-keyshortcuts={IS_MAC ? 'Meta+K' : 'Control+K'} data-testid="open-palette">
          Jump to… <kbd>{IS_MAC ? '⌘' : 'Ctrl'}+K</kbd>
        </button>
        <button type="button" className="secondary theme-toggle" onClick={cycleTheme} aria-label={`Theme: ${theme}. Switch theme`}>
          Theme: {theme}
        </button>
      </header>
      <MetricsHeader />
      {pending > 0 && view !== 'approvals' && (
        <div className="banner" role="alert" data-testid="approval-banner">
          {bannerText(pendingCommits, heldCalls)}{' '}
          <button type="button" className="primary" onClick={() => setView('approvals')}>
            Review now
          </button>
        </div>
      )}
      <div className="body">
        <nav aria-label="Console views">
          <div role="tablist" aria-orientation="vertical" onKeyDown={onNavKey}>
            {VIEWS.map((v, i) => (
              <button
                key={v.id}
                ref={(el) => {
                  tabs.current[i] = el;
                }}
                type="button"
                role="tab"
                id={`tab-${v.id}`}
                aria-selected={v.id === view}
                aria-controls="view-panel"
                tabIndex={v.id === view ? 0 : -1}
                accessKey={v.key}
                onClick={() => setView(v.id)}
              >
                {v.label}
                {v.id === 'approvals' && pending > 0 && (
                  <span className="badge" aria-label={`${pending} pending`} data-testid="approval-badge">
                    {pending}
                  </span>
                )}
              </button>
            ))}
          </div>
          <p className="nav-hint muted">
            <kbd>{IS_MAC ? '⌘' : 'Ctrl'}+K</kbd> jump · arrows move between views
          </p>
        </nav>
        <main id="view-panel" role="tabpanel" aria-labelledby={`tab-${current.id}`} tabIndex={-1}>
          {current.render()}
        </main>
      </div>
      <CommandPalette views={VIEWS} />
      <Notices />
    </div>
  );
}
