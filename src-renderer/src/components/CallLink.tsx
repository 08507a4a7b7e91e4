/** A link to one call in Live calls (`#calls/<id>`), so the address bar, a new tab and Copy link all work. */
import { routeHash } from '../store/ui.js';

export function CallLink({ callId, label }: { callId: string; label: string }) {
  return (
    <a href={routeHash({ view: 'calls', callId })} title={callId} aria-label={label}>
      open call
    </a>
  );
}
