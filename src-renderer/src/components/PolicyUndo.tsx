/**
 * The "always allow" rules written while this console watched, each with an Undo that takes exactly that
 * rule out again (the server finds it by content, wherever later edits moved it).
 */
import { useConsole } from '../store/store.js';
import { formatTime } from '../lib/format.js';
import { ruleMatchers, undoableAlwaysAllows } from '../lib/policy-rules.js';
import { useBusy } from './HeldCall.js';

export function PolicyUndo() {
  const changes = useConsole((s) => s.data.policyChanges);
  const run = useConsole((s) => s.run);
  const [busy, act] = useBusy();
  const undoable = undoableAlwaysAllows(changes);
  if (undoable.length === 0) return null;
  return (
    <ul className="policy-undo" aria-label="Always-allow rules you can undo">
      {undoable.map((change) => (
        <li key={change.version} className="callout" data-testid="always-allow-written">
          Rule {change.ruleIndex} written at {formatTime(change.at)} (policy version {change.version}): <code>{change.rule ? ruleMatchers(change.rule) : ''}</code> → allow.{' '}
          <button type="button" disabled={busy} onClick={() => void act(() => run('undoAlwaysAllow', { version: change.version }, 'Always-allow rule taken out'))}>
            Undo
          </button>
        </li>
      ))}
    </ul>
  );
}
