/**
 * Project pins in request paths (`/p/{pin}/mcp`, `/p/{pin}/api/tools/{name}`), as McpPlugin.Server
 * reads them: the pin is 1–64 hex characters, the leading prefix of a project's path hash, compared
 * lower-cased. Absent and malformed are different answers on purpose: a malformed pin is refused,
 * never downgraded to "unpinned" (that would route the call to whichever project happens to be
 * selected or most recently active). An upper-case `/P/` marker is refused as malformed too: the
 * configuration snippets always write `/p/`, and refusing is the answer that can never misroute.
 */
export const INVALID_PROJECT_PIN = 'invalid_project_pin';

export type PinnedPath =
  | { kind: 'absent'; rest: string }
  | { kind: 'valid'; pin: string; rest: string }
  | { kind: 'malformed'; raw: string };

const PIN = /^[0-9a-f]{1,64}$/i;

/** Splits a leading `/p/{pin}` off `pathname` (no query); `rest` is the path the route serves. */
export function splitPinnedPath(pathname: string): PinnedPath {
  const segments = pathname.split('/');
  const marker = segments[1] ?? '';
  if (segments.length < 3 || segments[0] !== '' || marker.toLowerCase() !== 'p') return { kind: 'absent', rest: pathname };
  const raw = segments[2] ?? '';
  if (marker !== 'p' || !PIN.test(raw)) return { kind: 'malformed', raw: `${marker}/${raw}`.slice(0, 80) };
  return { kind: 'valid', pin: raw.toLowerCase(), rest: `/${segments.slice(3).join('/')}` };
}

/** True when `pin` routes to a project whose path hash (current or legacy) starts with it. */
export function pinMatches(pin: string, hashes: ReadonlyArray<string | undefined>): boolean {
  return hashes.some((hash) => hash !== undefined && hash.length > 0 && hash.toLowerCase().startsWith(pin));
}
