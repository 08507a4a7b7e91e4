/**
 * The I/O half of path safety: a normalised relative path may still leave the workspace through a
 * symlink. Resolves the deepest existing ancestor and checks it stays under the real root. Also the
 * rule for which paths a transaction may touch.
 */
import { realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { errnoOf, JunctionError, next } from '../../contracts/index.js';
import { isIgnoredPath, isSourcePath, SOURCE_EXTENSIONS } from './loader.js';
import { isWithin, normaliseRelativePath } from './paths.js';

/** The file system cannot hold this path as the caller spelled it: the caller's mistake, not ours. */
const UNUSABLE: Readonly<Record<string, string>> = {
  ENOTDIR: 'a part of it is a file, not a directory',
  ENAMETOOLONG: 'it is too long for the file system',
  ELOOP: 'it runs through a loop of symbolic links',
};

async function deepestExistingReal(path: string, input: string): Promise<string> {
  let current = path;
  for (;;) {
    try {
      return await realpath(current);
    } catch (error) {
      const why = UNUSABLE[errnoOf(error) ?? ''];
      if (why) throw new JunctionError('InvalidArguments', `Path '${input}' cannot be used: ${why}.`, { next: next('fixArguments'), details: { path: input } });
      if (errnoOf(error) !== 'ENOENT') throw error;
      const parent = dirname(current);
      if (parent === current) throw error;
      current = parent;
    }
  }
}

/** Normalises `input` and proves it resolves inside `realRoot`; returns the POSIX relative path. */
export async function guardWorkspacePath(realRoot: string, input: string): Promise<string> {
  const relative = normaliseRelativePath(input);
  const resolved = await deepestExistingReal(join(realRoot, relative), input);
  if (!isWithin(realRoot, resolved)) {
    throw new JunctionError('PathOutsideWorkspace', `Path '${input}' leads out of the workspace through a symbolic link.`, {
      next: next('fixArguments'),
      details: { path: input },
    });
  }
  return relative;
}

/**
 * A transaction touches only documents the workspace loader reads: source files outside dot-folders
 * (.git and its hooks among them) and dependency or build folders. Anything else would be written to
 * disk, then dropped from the snapshot by the watcher, bumping the epoch under every agent.
 */
export function assertTransactionPath(relative: string): void {
  const why = isIgnoredPath(relative)
    ? 'it lies in a folder the workspace ignores (dot-folders such as .git, node_modules, dist, build, out, coverage)'
    : isSourcePath(relative)
      ? undefined
      : `it is not a source document (${SOURCE_EXTENSIONS.join(', ')})`;
  if (why === undefined) return;
  throw new JunctionError('PathNotAllowed', `A transaction may not touch '${relative}': ${why}.`, { next: next('fixArguments'), details: { path: relative } });
}
