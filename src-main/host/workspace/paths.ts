/**
 * Workspace-relative path rules. Every path an agent sends is normalised to a POSIX relative path
 * before anything touches the disk, so one spelling maps to one document.
 */
import { JunctionError, next } from '../../contracts/index.js';

function outside(input: string, why: string): JunctionError {
  return new JunctionError('PathOutsideWorkspace', `Path '${input}' is not inside the workspace: ${why}.`, {
    next: next('fixArguments'),
    details: { path: input },
  });
}

/** Common file-system limits (NAME_MAX per segment; far below PATH_MAX for the whole relative path). */
const MAX_SEGMENT_BYTES = 255;
const MAX_PATH_BYTES = 1024;

function tooLong(input: string, why: string): JunctionError {
  return new JunctionError('InvalidArguments', `Path '${input.slice(0, 80)}${input.length > 80 ? '…' : ''}' is too long: ${why}.`, {
    next: next('fixArguments'),
    details: { pathLength: input.length, maxPathBytes: MAX_PATH_BYTES, maxSegmentBytes: MAX_SEGMENT_BYTES },
  });
}

/** Normalises an agent-supplied path; rejects absolute paths, drive letters, `..` segments, empty and over-long paths. */
export function normaliseRelativePath(input: string): string {
  if (Buffer.byteLength(input, 'utf8') > MAX_PATH_BYTES) throw tooLong(input, `more than ${MAX_PATH_BYTES} bytes`);
  const slashed = input.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[A-Za-z]:/.test(slashed)) throw outside(input, 'absolute paths are not accepted');
  if (slashed.includes('\0')) throw outside(input, 'it contains a NUL character');
  const segments = slashed.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.some((s) => s === '..')) throw outside(input, "'..' segments are not accepted");
  if (segments.length === 0) throw outside(input, 'it names the workspace root, not a document');
  if (segments.some((s) => Buffer.byteLength(s, 'utf8') > MAX_SEGMENT_BYTES)) throw tooLong(input, `a name is longer than ${MAX_SEGMENT_BYTES} bytes`);
  return segments.join('/');
}

/** True when `candidate` (absolute, POSIX or native) equals `root` or lies beneath it. */
export function isWithin(root: string, candidate: string): boolean {
  const r = root.replace(/\\/g, '/').replace(/\/+$/, '');
  const c = candidate.replace(/\\/g, '/');
  return c === r || c.startsWith(`${r}/`);
}
