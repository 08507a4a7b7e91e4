/**
 * A module loaded on first need rather than at start, for what an idle Junction does not use (the MCP
 * SDK's Server, ajv): every module loaded at start stays resident, its source text included. The
 * load runs once and later needs share its promise. A failed load is not kept, so the next need loads
 * again, and it rejects with an InternalError naming what did not load, for the caller to answer with.
 */
import { JunctionError } from '../contracts/index.js';
import { errorMessage } from './error-message.js';

export function onFirstNeed<T>(what: string, load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((error: unknown) => {
      loading = undefined;
      throw new JunctionError('InternalError', `${what} did not load: ${errorMessage(error)}`, { cause: error });
    }));
}
