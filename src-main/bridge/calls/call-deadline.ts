/**
 * The whole-call budget of one plugin call (plugin-timeout), on the injected clock. It stands still
 * while the call waits for the agent or the operator (a pending elicitation or sampling request: a
 * human's answer is not the plugin's slowness), and runs on when the last of them ends; each such
 * request is bounded by its own timeout, so a held budget cannot wait forever.
 */
import { callDeadlines, type Deadlines } from '../../shared/index.js';

interface Watcher {
  fire: () => void;
  cancel: (() => void) | undefined;
}

export class CallDeadline {
  private readonly startedAt: number;
  private heldSince: number | undefined;
  private heldMs = 0;
  private holds = 0;
  private watcher: Watcher | undefined;

  constructor(
    readonly budgetMs: number,
    private readonly now: () => number,
    private readonly timers: Deadlines = callDeadlines,
  ) {
    this.startedAt = now();
  }

  /** What is left of the budget, not counting held time; infinite while held. */
  remaining(): number {
    if (this.holds > 0) return Number.POSITIVE_INFINITY;
    return this.startedAt + this.budgetMs + this.heldMs - this.now();
  }

  /** Stops the budget until the returned release runs (holds nest: it runs on when every hold is released). */
  hold(): () => void {
    if (this.holds++ === 0) {
      this.heldSince = this.now();
      this.watcher?.cancel?.();
      if (this.watcher) this.watcher.cancel = undefined;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (--this.holds > 0) return;
      this.heldMs += this.now() - (this.heldSince ?? this.now());
      this.heldSince = undefined;
      this.arm();
    };
  }

  /** Calls `expired` once the budget is spent, never while it is held; one watcher at a time. Returns the cancel. */
  onExpiry(expired: () => void): () => void {
    this.watcher?.cancel?.();
    const watcher: Watcher = { fire: expired, cancel: undefined };
    this.watcher = watcher;
    this.arm();
    return () => {
      watcher.cancel?.();
      if (this.watcher === watcher) this.watcher = undefined;
    };
  }

  private arm(): void {
    const watcher = this.watcher;
    if (!watcher || this.holds > 0) return;
    watcher.cancel?.();
    watcher.cancel = this.timers.after(Math.max(0, this.remaining()), () => {
      if (this.watcher !== watcher || this.holds > 0) return;
      this.watcher = undefined;
      watcher.fire();
    });
  }
}
