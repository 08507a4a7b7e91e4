/** A link to one call in Live calls (`#calls/<id>`), so the address bar, a new tab and Copy link all work. */
import { routeHash } from '../store/ui.js';

/** `which` tells the links of a table apart for a screen reader; the visible text stays short. */
export function CallLink({ callId, which }: { callId: string; which: string }) {
  return (
    <a href={routeHash({ view: 'calls', callId })} title={callId}>
      open call<span className="visually-hidden"> {which}</span>
    </a>
  );
}
