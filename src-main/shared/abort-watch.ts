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
 * WeakMap: some watched signals are a single call's (one the SDK's Protocol made, a parked 2026-07-28
 * call's) and die with it, and a WeakMap entry per short-lived key is ephemeron work for the collector.
 * A session's plain tools/call, the one made on every bridged call, has an `abortable` signal instead,
 * whose watch is not put on the signal at all (below).
 */
const WATCH = Symbol('abort-watch');

interface WatchedSignal extends AbortSignal {
  [WATCH]?: Watch | undefined;
}

const ONCE = { once: true } as const;

/**
 * The watches of the signals `abortable` made, while their calls run. Kept here, not on the signal: a
 * property added to an AbortSignal costs about 1.4 µs (Node builds it with a changed prototype), a
 * Map entry set and deleted about 0.1 µs, and each is deleted when its call ends.
 */
const ownWatches = new Map<AbortSignal, Watch>();

/** A watch whose listener forgets itself through `forget` and then runs the callbacks once. */
function newWatch(forget: () => void): Watch {
  const callbacks = new Set<() => void>();
  const listener = (): void => {
    forget();
    for (const run of [...callbacks]) run();
    callbacks.clear();
  };
  return { callbacks, listener };
}

/** Runs `callback` once when `signal` aborts (never if it already has); returns a function that withdraws it. */
export function onAbort(signal: AbortSignal, callback: () => void): () => void {
  const watched: WatchedSignal = signal;
  let watch = ownWatches.get(signal) ?? watched[WATCH];
  if (!watch) {
    watch = newWatch(() => (watched[WATCH] = undefined));
    watched[WATCH] = watch;
    signal.addEventListener('abort', watch.listener, ONCE);
  }
  const current = watch;
  // A distinct wrapper per registration, so the same function registered twice is withdrawn once.
  const entry = (): void => callback();
  current.callbacks.add(entry);
  return () => {
    current.callbacks.delete(entry);
  };
}

/** A call's own signal, the one way to abort it, and the end of the call. */
export interface Abortable {
  readonly signal: AbortSignal;
  abort(reason?: unknown): void;
  /** The call is over: callbacks added from now on are watched like any other signal's (those added before still run on `abort`). */
  end(): void;
}

/**
 * A fresh signal for one call whose `abort` runs the `onAbort` callbacks itself, so they cost no
 * EventTarget listener: a bridged session call's signal is watched by its plugin port and its pending
 * invocation, and on a plain AbortController's signal that watch cost about 3 µs per call of the
 * 6 its signal cost (micro-benchmark, Node 20). Listeners other code adds to the signal run first.
 */
export function abortable(): Abortable {
  const controller = new AbortController();
  const signal = controller.signal;
  const watch = newWatch(() => ownWatches.delete(signal));
  ownWatches.set(signal, watch);
  return {
    signal,
    abort(reason?: unknown) {
      if (signal.aborted) return;
      controller.abort(reason);
      watch.listener();
    },
    end() {
      ownWatches.delete(signal);
    },
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
