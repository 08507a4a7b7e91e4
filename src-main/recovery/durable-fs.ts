/**
 * The journal's only file-system primitives. Each one is durable when it returns: data is fsynced and,
 * where a directory entry changed, so is the directory, so a crash can never expose a half-written name.
 */
import { open, readFile, rename, unlink, rm, mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';

function isCode(error: unknown, code: string): boolean {
  return (error as NodeJS.ErrnoException | null)?.code === code;
}

/** Directory fsync is how a rename or unlink becomes durable on POSIX; Windows cannot open directories and has no equivalent. */
export async function fsyncDirectory(dir: string): Promise<void> {
  if (process.platform === 'win32') return;
  const handle = await open(dir, 'r');
  try {
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Fault-injection seam for tests: asked before every write with the path; an error it returns is
 * raised after half the data is written, as a full disk (ENOSPC) fails a write part-way. It may take
 * its time answering, as a slow disk would.
 */
export type WriteFault = (path: string) => NodeJS.ErrnoException | undefined | Promise<NodeJS.ErrnoException | undefined>;
let writeFault: WriteFault | undefined;

export function injectWriteFault(fault: WriteFault | undefined): void {
  writeFault = fault;
}

/** Creates or truncates `path`, writes `data` and fsyncs the file (not its directory). */
export async function writeSynced(path: string, data: string | Uint8Array): Promise<void> {
  const handle = await open(path, 'w');
  try {
    const fault = await writeFault?.(path);
    if (fault) {
      const bytes = typeof data === 'string' ? Buffer.from(data) : data;
      await handle.writeFile(bytes.subarray(0, Math.floor(bytes.length / 2)));
      throw fault;
    }
    await handle.writeFile(data);
    await handle.sync();
  } finally {
    await handle.close();
  }
}

/**
 * Replaces `target` atomically: write to `tempPath` (same directory) + fsync + rename + fsync of the
 * directory. A failed write removes its partial temp file, which on a full disk holds the space the
 * next attempt needs.
 */
export async function replaceDurably(target: string, data: string | Uint8Array, tempPath: string): Promise<void> {
  try {
    await writeSynced(tempPath, data);
    await rename(tempPath, target);
  } catch (error) {
    await removeIfPresent(tempPath).catch(() => undefined);
    throw error;
  }
  await fsyncDirectory(dirname(target));
}

/** Removes a file and makes the removal durable; true when something was removed. */
export async function removeDurably(path: string): Promise<boolean> {
  try {
    await unlink(path);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return false;
    throw error;
  }
  await fsyncDirectory(dirname(path));
  return true;
}

/** Removes a file without waiting for durability: for leftovers whose absence does not matter to correctness. */
export async function removeIfPresent(path: string): Promise<boolean> {
  try {
    await unlink(path);
    return true;
  } catch (error) {
    if (isCode(error, 'ENOENT')) return false;
    throw error;
  }
}

export async function removeTree(path: string): Promise<void> {
  await rm(path, { recursive: true, force: true });
}

export async function readIfExists(path: string): Promise<Buffer | null> {
  try {
    return await readFile(path);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return null;
    throw error;
  }
}

/** mkdir -p that also fsyncs the parent of every directory it created, so new entries survive a crash. */
export async function ensureDirectoryDurably(dir: string): Promise<void> {
  const first = await mkdir(dir, { recursive: true });
  if (first === undefined) return;
  let current = dir;
  const created: string[] = [];
  while (current.length >= first.length) {
    created.push(current);
    const parent = dirname(current);
    if (parent === current) break;
    current = parent;
  }
  for (const made of created) await fsyncDirectory(dirname(made));
}

/** True for the errors a full disk or an exhausted quota raises. */
export function isDiskFull(error: unknown): boolean {
  return isCode(error, 'ENOSPC') || isCode(error, 'EDQUOT');
}

export { isCode };
