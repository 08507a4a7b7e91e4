/**
 * Server-to-client invocations waiting for the client's Completion ("client results"). Each entry
 * settles exactly once: by the client's Completion, its own timeout, its abort signal or other
 * cancellation, or the connection closing.
 */
import { onAbort, callDeadlines, errorMessage } from '../../shared/index.js';
import { HubInvocationError, type InvokeOptions } from './types.js';

interface Pending {
  method: string;
  resolve: (value: unknown) => void;
  reject: (error: HubInvocationError) => void;
  dispose: () => void;
}

export class PendingInvocations {
  private readonly pending = new Map<string, Pending>();
  private nextId = 1;

  /** Allocates an invocation id and a promise for its result; `transmit` sends the invocation (a HubInvocationError it throws is the rejection as is). */
  start(method: string, options: InvokeOptions, transmit: (invocationId: string) => void): Promise<unknown> {
    const id = String(this.nextId++);
    return new Promise<unknown>((resolve, reject) => {
      if (options.signal?.aborted) {
        reject(new HubInvocationError('aborted', `Invocation of client method '${method}' was aborted.`));
        return;
      }
      let cancelTimeout: (() => void) | undefined;
      let stopWatching: (() => void) | undefined;
      let withdrawCancel: (() => void) | undefined;
      const entry: Pending = {
        method,
        resolve,
        reject,
        dispose: () => {
          cancelTimeout?.();
          stopWatching?.();
          withdrawCancel?.();
        },
      };
      this.pending.set(id, entry);
      if (options.timeoutMs !== undefined) {
        const ms = options.timeoutMs;
        cancelTimeout = callDeadlines.after(ms, () => this.fail(id, new HubInvocationError('timeout', `Client method '${method}' did not complete within ${ms} ms.`)));
      }
      const abort = () => this.fail(id, new HubInvocationError('aborted', `Invocation of client method '${method}' was aborted.`));
      if (options.signal) stopWatching = onAbort(options.signal, abort);
      if (options.cancelWhen) withdrawCancel = options.cancelWhen(abort);
      try {
        transmit(id);
      } catch (error) {
        const reason = error instanceof HubInvocationError ? error : new HubInvocationError('connectionClosed', `Could not send invocation of client method '${method}': ${errorMessage(error)}`);
        this.fail(id, reason);
      }
    });
  }

  /** Settles the invocation the client completed; false when the id is unknown (already settled or never issued). */
  complete(id: string, outcome: { error?: string; result?: unknown }): boolean {
    const entry = this.take(id);
    if (!entry) return false;
    if (outcome.error !== undefined) entry.reject(new HubInvocationError('clientError', outcome.error));
    else entry.resolve(outcome.result);
    return true;
  }

  /** Fails one invocation (its Completion could not be read); the client method it was, or undefined when the id is unknown. */
  failOne(id: string, error: (method: string) => HubInvocationError): string | undefined {
    const entry = this.take(id);
    if (!entry) return undefined;
    entry.reject(error(entry.method));
    return entry.method;
  }

  failAll(error: HubInvocationError): void {
    for (const id of [...this.pending.keys()]) this.fail(id, error);
  }

  get size(): number {
    return this.pending.size;
  }

  private fail(id: string, error: HubInvocationError): void {
    this.take(id)?.reject(error);
  }

  private take(id: string): Pending | undefined {
    const entry = this.pending.get(id);
    if (!entry) return undefined;
    this.pending.delete(id);
    entry.dispose();
    return entry;
  }
}
