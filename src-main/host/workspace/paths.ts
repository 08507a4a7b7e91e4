/**
 * Workspace-relative path rules. Every path an agent sends is normalised to a POSIX relative path
 * before anything touches the disk, so one spelling maps to one document.
 */
import { JunctionError, next } from '../../shared/errors.js';

function outside(input: string, why: string): JunctionError {
  return new JunctionError('PathOutsideWorkspace', `Path '${input}' is not inside the workspace: ${why}.`, {
    next: next('fixArguments'),
    details: { path: input },
  });
}

/** Normalises an agent-supplied path; rejects absolute paths, drive letters, `..` segments and empty paths. */
export function normaliseRelativePath(input: string): string {
  const slashed = input.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) throw outside(input, 'absolute paths are not accepted');
  if (slashed.includes('\0')) throw outside(input, 'it contains a NUL character');
  const segments = slashed.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) throw outside(input, "'..' segments are not accepted");
  if (segments.length === 0) throw outside(input, 'it names the workspace root, not a document');
  return segments.join('/');
}

/** True when `candidate` (absolute, POSIX or native) equals `root` or lies beneath it. */
export function isWithin(root: string, candidate: string): boolean {
  const r = root.replace(/\\/g, '/').replace(/\/+$/, '');
  const c = candidate.replace(/\\/g, '/');
  return c === r || c.startsWith(`${r}/`);
}
