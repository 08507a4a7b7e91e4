/**
 * Exclusive ownership of a state directory. The lock file is created with 'wx' so exactly one instance
 * wins; a lock left by a dead process is taken over, a live one refuses with StateDirectoryLocked.
 */
import { link, open, readFile, rename, stat, unlink } from 'node:fs/promises';
import { JunctionError, next } from '../../contracts/index.js';
import { fsyncDirectory, isCode, removeIfPresent } from '../durable-fs.js';
import type { OwnerRecord } from '../model.js';
import { encodeOwner } from '../persisted/index.js';
import type { StateLayout } from './layout.js';

export interface StaleLock {
  pid: number | null;
  instanceId: string | null;
  /** Why it was judged stale. */
  reason: string;
}

export interface StateLock {
  /** Present when a stale lock was taken over to acquire this one. */
  takenOver: StaleLock | null;
  release(): Promise<void>;
}

/** A lock whose content cannot be read yet may be mid-creation by another starter; only this old is it abandoned. */
const UNREADABLE_LOCK_GRACE_MS = 5_000;
const MAX_ATTEMPTS = 3;

/**
 * Locks held by this process. A lock naming our own pid but none of these instances is a leftover of
 * an earlier process that happened to get the same pid (common for pid 1 in containers).
 */
const heldInThisProcess = new Set<string>();

interface LockHolder {
  pid: number | null;
  instanceId: string | null;
  text: string;
}

/** Reads only `pid` and `instanceId`, which every lock format carries; a lock is never rewritten. */
function parseHolder(text: string): LockHolder {
  try {
    const raw = JSON.parse(text) as { pid?: unknown; instanceId?: unknown };
    const pid = typeof raw.pid === 'number' && Number.isInteger(raw.pid) && raw.pid > 0 ? raw.pid : null;
    const instanceId = typeof raw.instanceId === 'string' ? raw.instanceId : null;
    return { pid, instanceId, text };
  } catch {
    return { pid: null, instanceId: null, text };
  }
}

export function isProcessAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return isCode(error, 'EPERM');
  }
}

function lockedError(layout: StateLayout, holder: LockHolder): JunctionError {
  return new JunctionError('StateDirectoryLocked', `State directory ${layout.root} is owned by a running instance (pid ${holder.pid ?? 'unknown'}). Stop it or use another state directory.`, {
    next: next('inspectStatus', 'recovery-status'),
    details: { stateDir: layout.root, pid: holder.pid, instanceId: holder.instanceId },
  });
}

async function createLock(layout: StateLayout, text: string): Promise<boolean> {
  let handle;
  try {
    handle = await open(layout.lockFile, 'wx');
  } catch (error) {
    if (isCode(error, 'EEXIST')) return false;
    throw error;
  }
  try {
    await handle.writeFile(text);
    await handle.sync();
  } finally {
    await handle.close();
  }
  await fsyncDirectory(layout.root);
  return true;
}

async function judgeStale(layout: StateLayout, holder: LockHolder): Promise<string | null> {
  if (holder.pid === process.pid) return holder.instanceId !== null && heldInThisProcess.has(holder.instanceId) ? null : `pid ${holder.pid} is this process, which does not hold that lock`;
  if (holder.pid !== null) return isProcessAlive(holder.pid) ? null : `process ${holder.pid} is not running`;
  const age = Date.now() - (await stat(layout.lockFile)).mtimeMs;
  return age > UNREADABLE_LOCK_GRACE_MS ? 'lock content is unreadable and old' : null;
}

/**
 * Moves the stale lock aside, then checks that what moved is the lock that was judged: if another
 * starter replaced it meanwhile, that live lock is put back (link never overwrites) and we refuse.
 */
async function takeOver(layout: StateLayout, holder: LockHolder, owner: OwnerRecord): Promise<boolean> {
  const aside = `${layout.lockFile}.stale-${owner.instanceId}`;
  try {
    await rename(layout.lockFile, aside);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return false;
    throw error;
  }
  const moved = await readFile(aside, 'utf8');
  if (moved !== holder.text) {
    try {
      await link(aside, layout.lockFile);
    } finally {
      await removeIfPresent(aside);
    }
    throw lockedError(layout, parseHolder(moved));
  }
  await unlink(aside);
  return true;
}

export async function acquireStateLock(layout: StateLayout, owner: OwnerRecord): Promise<StateLock> {
  const text = encodeOwner(owner);
  let takenOver: StaleLock | null = null;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (await createLock(layout, text)) {
      heldInThisProcess.add(owner.instanceId);
      return { takenOver, release: () => releaseLock(layout, owner.instanceId, text) };
    }
    let current: string;
    try {
      current = await readFile(layout.lockFile, 'utf8');
    } catch (error) {
      if (isCode(error, 'ENOENT')) continue;
      throw error;
    }
    const holder = parseHolder(current);
    const reason = await judgeStale(layout, holder);
    if (reason === null) throw lockedError(layout, holder);
    if (await takeOver(layout, holder, owner)) takenOver = { pid: holder.pid, instanceId: holder.instanceId, reason };
  }
  throw lockedError(layout, { pid: null, instanceId: null, text: '' });
}

/** Removes the lock only while it is still ours, so a release never deletes a successor's lock. */
async function releaseLock(layout: StateLayout, instanceId: string, text: string): Promise<void> {
  heldInThisProcess.delete(instanceId);
  let current: string;
  try {
    current = await readFile(layout.lockFile, 'utf8');
  } catch (error) {
    if (isCode(error, 'ENOENT')) return;
    throw error;
  }
  if (current === text) await unlink(layout.lockFile);
}
