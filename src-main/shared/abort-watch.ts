/**
 * Abort callbacks multiplexed onto one listener per signal. A caller may pass one long-lived signal
 * (an agent session's, a keep-alive connection's) to many calls; a listener per call would pile onto
 * that signal (Node warns past 10 with MaxListenersExceededWarning) and cost an EventTarget insert and
 * removal each. Here the signal carries at most one listener of ours, added with the first callback and
 * kept while the signal lives: calls that come one after another on a connection reuse it.
 */
interface Watch {
  readonly callbacks: Set<() => void>;
  readonly listener: () => void;
}

const watches = new WeakMap<AbortSignal, Watch>();

/** Runs `callback` once when `signal` aborts (never if it already has); returns a function that withdraws it. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  let watch = watches.get(signal);
  if (!watch) {
    const callbacks = new Set<() => void>();
    const listener = (): void => {
      watches.delete(signal);
      for (const run of [...callbacks]) run();
      callbacks.clear();
    };
    watch = { callbacks, listener };
    watches.set(signal, watch);
    signal.addEventListener('abort', listener, { once: true });
  }
  const current = watch;
  // A distinct wrapper per registration, so the same function registered twice is withdrawn once.
  const entry = (): void => callback();
  current.callbacks.add(entry);
  return () => {
    current.callbacks.delete(entry);
  };
}

/**
 * A signal of the call's own that follows `parent`, for code we do not own (in-process plugins): the
 * parent may be a connection's, shared by every call it carries, and a listener that such code adds and
 * never removes must die with the call, not pile up on the connection. `release` when the call ends.
 */
export function callScopedSignal(parent: AbortSignal): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  if (parent.aborted) {
    controller.abort(parent.reason);
    return { signal: controller.signal, release: () => undefined };
  }
  const release = onAbort(parent, () => controller.abort(parent.reason));
  return { signal: controller.signal, release };
}
