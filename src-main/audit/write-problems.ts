/**
 * Why the trail cannot write, for the store: the problem now, when to try the database again, and the
 * log's and the operator's words, told once per distinct problem. No I/O but the log and `onProblem`.
 */
import type { Logger } from '../shared/index.js';
import { describeDbError } from './database.js';

/** Why the trail cannot write: `key` tells kinds apart (`locked`, `full`, `access`, `corrupt`, …). */
export interface AuditProblem {
  key: string;
  message: string;
}

export interface WriteProblemsOptions {
  path: string;
  logger: Logger;
  /** How long after a failure the store waits before opening the database again. */
  retryMs: number;
  /** The store's queue bound, for the log's words. */
  maxQueue: number;
  now: () => number;
  onProblem?: (problem: AuditProblem) => void;
}

export class WriteProblems {
  private problem: AuditProblem | undefined;
  private retryAt = 0;

  constructor(private readonly options: WriteProblemsOptions) {}

  /** The problem now, in the operator's words; undefined while the trail writes. */
  get current(): AuditProblem | undefined {
    return this.problem;
  }

  /** Milliseconds until the database may be tried again; 0 when it may be now. */
  retryIn(): number {
    return Math.max(0, this.retryAt - this.options.now());
  }

  fail(error: unknown): void {
    const { path, logger, retryMs, maxQueue } = this.options;
    const problem = describeDbError(path, error);
    const first = this.problem?.key !== problem.key;
    this.problem = problem;
    this.retryAt = this.options.now() + retryMs;
    if (first) {
      logger.warn(`audit: ${problem.message}; tool calls continue unrecorded meanwhile (retrying every ${Math.round(retryMs / 1000)} s, holding up to ${maxQueue} records)`);
      this.options.onProblem?.(problem);
    }
  }

  /** A problem that is not the database's (an upgrade stopped at close): the status says it, nothing is retried for it. */
  note(problem: AuditProblem): void {
    this.problem = problem;
  }

  /** A write succeeded; `dropped` is the store's count of records it had to drop. */
  recovered(dropped: number): void {
    if (!this.problem) return;
    this.options.logger.warn(`audit: the audit database ${this.options.path} is writable again${dropped > 0 ? `; ${dropped} records were dropped meanwhile` : ''}`);
    this.problem = undefined;
  }
}
