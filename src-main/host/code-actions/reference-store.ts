/**
 * Opaque, temporary action references. Each maps a random UUID to what the host needs to re-discover
 * the action, bound to the snapshot it was discovered in. Bounded in number (least recently used are
 * evicted) and in time; an unknown, expired, evicted or consumed reference all fail the same way,
 * because the agent's recovery is the same: discover again. Pure apart from the injected clock.
 */
import { randomUUID } from 'node:crypto';
import { JunctionError, next } from '../../contracts/index.js';
import type { SnapshotIdentity } from '../workspace/index.js';

export const DEFAULT_REFERENCE_LIFETIME_MS = 5 * 60_000;
export const DEFAULT_REFERENCE_CAPACITY = 2000;

export interface StoredReference<T> {
  actionId: string;
  snapshot: SnapshotIdentity;
  value: T;
  expiresAt: number;
}

export interface ReferenceStoreOptions {
  lifetimeMs?: number;
  capacity?: number;
  now?: () => number;
}

export function actionExpired(actionId: string): JunctionError {
  return new JunctionError('ActionExpired', `Action reference '${actionId}' is unknown, expired, evicted or already used; list the code actions again.`, {
    next: next('resolveTargetAgain', 'list-code-actions'),
    details: { actionId },
  });
}

export class ReferenceStore<T> {
  private readonly entries = new Map<string, StoredReference<T>>();
  readonly lifetimeMs: number;
  readonly capacity: number;
  private readonly now: () => number;

  constructor(options: ReferenceStoreOptions = {}) {
    this.lifetimeMs = options.lifetimeMs ?? DEFAULT_REFERENCE_LIFETIME_MS;
    this.capacity = options.capacity ?? DEFAULT_REFERENCE_CAPACITY;
    this.now = options.now ?? Date.now;
    if (!(this.lifetimeMs > 0) || !(this.capacity > 0)) throw new RangeError('reference lifetime and capacity must be positive');
  }

  add(snapshot: SnapshotIdentity, value: T): string {
    const actionId = randomUUID();
    while (this.entries.size >= this.capacity) this.entries.delete(this.entries.keys().next().value!);
    this.entries.set(actionId, { actionId, snapshot: { ...snapshot }, value, expiresAt: this.now() + this.lifetimeMs });
    return actionId;
  }

  /** The live reference; throws ActionExpired otherwise. Marks it most recently used. */
  get(actionId: string): StoredReference<T> {
    const entry = this.entries.get(actionId);
    if (!entry) throw actionExpired(actionId);
    this.entries.delete(actionId);
    if (entry.expiresAt <= this.now()) throw actionExpired(actionId);
    this.entries.set(actionId, entry);
    return entry;
  }

  consume(actionId: string): void {
    this.entries.delete(actionId);
  }

  /** Live references, after dropping expired ones. */
  size(): number {
    const now = this.now();
    for (const [id, entry] of this.entries) if (entry.expiresAt <= now) this.entries.delete(id);
    return this.entries.size;
  }
}
