/**
 * The I/O half of path safety: a normalised relative path may still leave the workspace through a
 * symlink. Resolves the deepest existing ancestor and checks it stays under the real root.
 */
import { realpath } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { JunctionError, next } from '../../shared/errors.js';
import { isWithin, normaliseRelativePath } from './paths.js';

async function deepestExistingReal(path: string): Promise<string> {
  let current = path;
  for (;;) {
    try {
      return await realpath(current);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
      const parent = dirname(current);
      if (parent === current) throw error;
      current = parent;
    }
  }
}

/** Normalises `input` and proves it resolves inside `realRoot`; returns the POSIX relative path. */
export async function guardWorkspacePath(realRoot: string, input: string): Promise<string> {
  const relative = normaliseRelativePath(input);
  const resolved = await deepestExistingReal(join(realRoot, relative));
  if (!isWithin(realRoot, resolved)) {
    throw new JunctionError('PathOutsideWorkspace', `Path '${input}' leads out of the workspace through a symbolic link.`, {
      next: next('fixArguments'),
      details: { path: input },
    });
  }
  return relative;
}
