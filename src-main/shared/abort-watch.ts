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

/**
 * A signal's watch is kept on the signal itself, under a symbol no other code knows, rather than in a
 * WeakMap: many watched signals are a single call's (a session's tools/call) and die with it, and a
 * WeakMap entry per short-lived key is ephemeron work for the collector. A fresh signal watched and
 * withdrawn three times, as the bridge does per call, cost about 2 µs less so in a micro-benchmark.
 */
const WATCH = Symbol('abort-watch');

interface WatchedSignal extends AbortSignal {
  [WATCH]?: Watch | undefined;
}

const ONCE = { once: true } as const;

/** Runs `callback` once when `signal` aborts (never if it already has); returns a function that withdraws it. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  const watched: WatchedSignal = signal;
  let watch = watched[WATCH];
  if (!watch) {
    const callbacks = new Set<() => void>();
    const listener = (): void => {
      watched[WATCH] = undefined;
      for (const run of [...callbacks]) run();
      callbacks.clear();
    };
    watch = { callbacks, listener };
    watched[WATCH] = watch;
    signal.addEventListener('abort', listener, ONCE);
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
