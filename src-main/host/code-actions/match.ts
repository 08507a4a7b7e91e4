/** Re-discovery must find exactly one action matching a reference; zero or several are distinct failures. */
import { JunctionError, next } from '../../contracts/index.js';
import { actionExpired } from './reference-store.js';

export function matchExactlyOne<T>(actionId: string, candidates: readonly T[], matches: (candidate: T) => boolean): T {
  const found = candidates.filter(matches);
  if (found.length === 0) throw actionExpired(actionId);
  if (found.length > 1) {
    throw new JunctionError('ActionAmbiguous', `Action reference '${actionId}' now matches ${found.length} actions; list the code actions again and pick one.`, {
      next: next('resolveTargetAgain', 'list-code-actions'),
      details: { actionId, matches: found.length },
    });
  }
  return found[0]!;
}
