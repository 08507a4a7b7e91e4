import { useEffect, useRef, type KeyboardEvent } from 'react';
import { useConsole } from './store/store.js';
import { waitingForOperator } from './store/reducer.js';
import { parseRoute, routeHash, useUi } from './store/ui.js';
import { useTheme } from './lib/theme.js';
import { accessKeyOf, viewById, VIEWS } from './views/registry.js';
import { VIEW_COMPONENTS } from './views/components.js';
import { MetricsHeader } from './components/MetricsHeader.js';
import { CommandPalette } from './components/CommandPalette.js';
import { Notices } from './components/Notices.js';
import { ElicitationBanner, ElicitationDialog } from './components/ElicitationDialog.js';
import { SamplingDialog } from './components/SamplingDialog.js';

const IS_MAC = /Mac|iPhone|iPad/.test(navigator.platform);

function bannerText(commits: number, calls: number): string {
  const parts = [commits > 0 ? `${commits} commit${commits === 1 ? '' : 's'}` : '', calls > 0 ? `${calls} tool call${calls === 1 ? '' : 's'}` : ''].filter(Boolean);
  return `${parts.join(' and ')} ${commits + calls === 1 ? 'is' : 'are'} waiting for your approval.`;
}

/** What the tab title says is waiting, so it is seen from another tab or window. */
function titleText(approvals: number, answers: number): string {
  const total = approvals + answers;
  if (total === 0) return 'Junction console';
  const what = [approvals > 0 ? `approval${approvals === 1 ? '' : 's'}` : '', answers > 0 ? `answer${answers === 1 ? '' : 's'}` : ''].filter(Boolean).join(' and ');
  return `(${total}) ${what} waiting · Junction`;
}

export function App() {
  const view = useUi((s) => s.view);
  const selectedCallId = useUi((s) => s.selectedCallId);
  const setView = useUi((s) => s.go);
  const follow = useUi((s) => s.follow);
  const setPalette = useUi((s) => s.setPalette);
  const status = useConsole((s) => s.status);
  const version = useConsole((s) => s.data.version);
  const gaps = useConsole((s) => s.data.gaps);
  const pendingCommits = useConsole((s) => waitingForOperator(s.data).commits);
  const heldCalls = useConsole((s) => waitingForOperator(s.data).calls);
  const answers = useConsole((s) => (s.data.elicitations?.pending.length ?? 0) + (s.data.elicitations?.sampling.length ?? 0));
  const pending = pendingCommits + heldCalls;
  const [theme, cycleTheme] = useTheme();
  const tabs = useRef<Array<HTMLButtonElement | null>>([]);

  // The address follows the view and the selected call, and the view follows an address typed or pasted.
  useEffect(() => {
    const hash = routeHash({ view, callId: selectedCallId });
    if (window.location.hash !== hash) window.location.hash = hash;
  }, [view, selectedCallId]);
  useEffect(() => {
    const onHash = (): void => follow(parseRoute(window.location.hash));
    window.addEventListener('hashchange', onHash);
    return () => window.removeEventListener('hashchange', onHash);
  }, [follow]);

  useEffect(() => {
    document.title = titleText(pending, answers);
  }, [pending, answers]);

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

  const current = viewById(view);
  const Current = VIEW_COMPONENTS[current.id];
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
      <ElicitationBanner />
      <Notices />
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
                accessKey={accessKeyOf(i)}
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
          <Current />
        </main>
      </div>
      <CommandPalette />
      <ElicitationDialog />
      <SamplingDialog />
    </div>
  );
}
