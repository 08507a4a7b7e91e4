/**
 * The tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) over the bridge. A 2026-07-28 call
 * whose plugin answers `Processing` (McpPlugin's long-running tools, `ctx.processing()` in the
 * TypeScript SDK) becomes a task when its request declared the extension: the agent gets the task at
 * once and follows it with tasks/get; questions the plugin asks from then on wait in the task's
 * `inputRequests` until tasks/update answers them; tasks/cancel cancels the plugin's call. The call
 * itself runs on unchanged, through the same dispatcher, approval policy and audit trail.
 *
 * Tasks are bounded in number and kept for a bounded time from their creation; a task is visible only
 * to the agent that created it (the route's pin and the client's name, as a parked call is), and its
 * id is random, so it cannot be guessed either.
 */
import { randomUUID } from 'node:crypto';
import { JunctionError, type ToolOutcome } from '../../contracts/index.js';
import type { CallOwner, ParkedCall } from './input-required.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

export interface TaskLimits {
  /** How long a task can be read after it was created; a task still running then is cancelled. */
  ttlMs: number;
  /** Tasks kept at once; past it the oldest finished one goes, and with none finished a call stays a plain call. */
  maxTasks: number;
  /** What the agent is told to wait between polls. */
  pollIntervalMs: number;
}

/** Half an hour: beyond the 5 minutes a plugin's `Processing` call may take, so a result outlives its wait. */
export const TASK_LIMITS: TaskLimits = { ttlMs: 30 * 60_000, maxTasks: 256, pollIntervalMs: 1000 };

type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** How a finished call ends its task: what a plain call would have answered, as a result or a JSON-RPC error. */
export type TaskEnding = { kind: 'result'; result: Record<string, unknown> } | { kind: 'error'; error: { code: number; message: string; data?: unknown } };

interface Task {
  readonly taskId: string;
  readonly owner: CallOwner;
  readonly call: ParkedCall<ToolOutcome>;
  readonly createdAt: number;
  updatedAt: number;
  statusMessage: string | undefined;
  ending: TaskEnding | undefined;
  cancelled: boolean;
  expires: NodeJS.Timeout;
}

const iso = (ms: number) => new Date(ms).toISOString();

export class TaskStore {
  private readonly tasks = new Map<string, Task>();

  constructor(
    private readonly limits: TaskLimits,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * Makes a task of a call that went long; undefined when every place is held by a running task (the
   * call then goes on as a plain call). `end` says how the call's outcome ends the task.
   */
  create(call: ParkedCall<ToolOutcome>, message: string | undefined, end: (outcome: ToolOutcome) => TaskEnding): Record<string, unknown> | undefined {
    if (!this.makeRoom()) return undefined;
    const createdAt = this.now();
    const task: Task = {
      taskId: randomUUID(),
      owner: call.owner,
      call,
      createdAt,
      updatedAt: createdAt,
      statusMessage: message,
      ending: undefined,
      cancelled: false,
      expires: setTimeout(() => this.expire(task), this.limits.ttlMs).unref(),
    };
    call.taskId = task.taskId;
    this.tasks.set(task.taskId, task);
    void call.outcome.then((outcome) => {
      task.ending = end(outcome);
      task.updatedAt = this.now();
    });
    return this.view(task);
  }

  /** The task as tasks/get shows it: its result or error once finished, its open questions while it waits. */
  get(owner: CallOwner, taskId: unknown): Record<string, unknown> {
    const task = this.find(owner, taskId);
    const view = this.view(task);
    const status = view['status'] as TaskStatus;
    if (status === 'input_required') return { ...view, inputRequests: task.call.inputRequests() };
    if (status === 'completed' && task.ending?.kind === 'result') return { ...view, result: task.ending.result };
    if (status === 'failed' && task.ending?.kind === 'error') return { ...view, error: task.ending.error };
    return view;
  }

  /** tasks/update: answers the questions `inputResponses` names; keys not outstanding are ignored. */
  update(owner: CallOwner, taskId: unknown, inputResponses: unknown): void {
    const task = this.find(owner, taskId);
    task.call.answer(inputResponses);
    task.updatedAt = this.now();
  }

  /** tasks/cancel: cancels the plugin's call; a finished task stays as it ended. */
  cancel(owner: CallOwner, taskId: unknown): void {
    const task = this.find(owner, taskId);
    if (task.ending || task.cancelled) return;
    task.cancelled = true;
    task.updatedAt = this.now();
    task.call.abort.abort();
  }

  size(): number {
    return this.tasks.size;
  }

  close(): void {
    for (const task of [...this.tasks.values()]) this.expire(task);
  }

  private status(task: Task): TaskStatus {
    if (task.cancelled) return 'cancelled';
    if (task.ending) return task.ending.kind === 'result' ? 'completed' : 'failed';
    return task.call.questions.size > 0 ? 'input_required' : 'working';
  }

  private view(task: Task): Record<string, unknown> {
    const status = this.status(task);
    return {
      taskId: task.taskId,
      status,
      ...(task.statusMessage !== undefined && status === 'working' ? { statusMessage: task.statusMessage } : {}),
      createdAt: iso(task.createdAt),
      // A question the plugin asked changes the status as much as an answer or the end does.
      lastUpdatedAt: iso(Math.max(task.updatedAt, task.call.lastAskedAt)),
      ttlMs: this.limits.ttlMs,
      pollIntervalMs: this.limits.pollIntervalMs,
    };
  }

  /** Another agent's task reads exactly as one that does not exist, so task ids reveal nothing. */
  private find(owner: CallOwner, taskId: unknown): Task {
    const task = typeof taskId === 'string' ? this.tasks.get(taskId) : undefined;
    if (!task || task.owner.key !== owner.key) {
      throw new JunctionError('TaskNotFound', `Invalid params: task '${String(taskId)}' is not known: it never existed, has expired (tasks are kept ${this.limits.ttlMs / 60_000} minutes), or belongs to another agent.`);
    }
    return task;
  }

  private makeRoom(): boolean {
    if (this.tasks.size < this.limits.maxTasks) return true;
    for (const task of this.tasks.values()) {
      if (task.ending || task.cancelled) {
        this.expire(task);
        return true;
      }
    }
    return false;
  }

  private expire(task: Task): void {
    clearTimeout(task.expires);
    this.tasks.delete(task.taskId);
    if (!task.ending) task.call.abort.abort();
  }
}
