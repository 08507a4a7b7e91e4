/** Reading and locating workspace files for the journal: refuses anything that would escape the root. */
import { lstat, readdir, readFile, realpath } from 'node:fs/promises';
import { join } from 'node:path';
import { JunctionError } from '../contracts/index.js';
import { isCode, removeIfPresent } from './durable-fs.js';

export function absolutePath(root: string, relative: string): string {
  return join(root, ...relative.split('/'));
}

export async function assertWorkspaceRoot(root: string): Promise<void> {
  let real: string;
  try {
    real = await realpath(root);
  } catch (error) {
    if (isCode(error, 'ENOENT')) throw new JunctionError('WorkspaceNotFound', `Workspace root does not exist: ${root}`);
    throw error;
  }
  if (real !== root) throw new JunctionError('ValidationFailed', `workspaceRoot must be symlink-resolved: ${root} is ${real}`);
}

/**
 * Returns a checker that every existing ancestor of a path is a real directory: a symlinked directory
 * could point outside the workspace, and renames through it would land there. Verified directories
 * are remembered, so a commit checks each directory once.
 */
export function ancestorChecker(root: string): (relative: string) => Promise<void> {
  const verified = new Set<string>();
  return (relative) => assertNoSymlinkAncestors(root, relative, verified);
}

async function assertNoSymlinkAncestors(root: string, relative: string, verified: Set<string>): Promise<void> {
  const segments = relative.split('/');
  let current = root;
  for (const segment of segments.slice(0, -1)) {
    current = join(current, segment);
    if (verified.has(current)) continue;
    let info;
    try {
      info = await lstat(current);
    } catch (error) {
      if (isCode(error, 'ENOENT')) return;
      throw error;
    }
    if (info.isSymbolicLink()) throw new JunctionError('PathOutsideWorkspace', `${relative} passes through the symbolic link ${current}`, { details: { path: relative } });
    if (!info.isDirectory()) throw new JunctionError('ValidationFailed', `${relative}: ${current} is not a directory`, { details: { path: relative } });
    verified.add(current);
  }
}

/** Current content of a regular file, or null when nothing is there. */
export async function readRegularFile(absolute: string, relative: string): Promise<Buffer | null> {
  let info;
  try {
    info = await lstat(absolute);
  } catch (error) {
    if (isCode(error, 'ENOENT')) return null;
    throw error;
  }
  if (!info.isFile()) throw new JunctionError('ValidationFailed', `${relative} is not a regular file; the journal only replaces regular files`, { details: { path: relative } });
  return readFile(absolute);
}

/** The name `tempPathFor` gives a commit's temp file. */
const COMMIT_TEMP = /^\.jx-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}-\d+\.tmp$/;
/** Large trees no commit writes into (transactions may not touch them). */
const NOT_SWEPT = new Set(['node_modules', '.git']);

/** Removes every commit temp file under `root`, without following symbolic links; returns how many. */
export async function removeCommitTemps(root: string): Promise<number> {
  let removed = 0;
  const entries = await readdir(root, { withFileTypes: true }).catch((error: unknown) => {
    if (isCode(error, 'ENOENT') || isCode(error, 'ENOTDIR')) return [];
    throw error;
  });
  for (const entry of entries) {
    if (entry.isDirectory() && !NOT_SWEPT.has(entry.name)) removed += await removeCommitTemps(join(root, entry.name));
    else if (entry.isFile() && COMMIT_TEMP.test(entry.name) && (await removeIfPresent(join(root, entry.name)))) removed++;
  }
  return removed;
}
