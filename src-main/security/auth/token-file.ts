/**
 * The token for mode `token` when the operator did not choose one: created once, kept in the state
 * directory readable by the owner only, so other local users cannot read it and drive the bridge.
 */
import { randomBytes } from 'node:crypto';
import { constants } from 'node:fs';
import { chmod, link, lstat, mkdir, open, readFile, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { JunctionError } from '../../contracts/index.js';

export const TOKEN_DIRECTORY = 'auth';
export const TOKEN_FILE = 'token';

const DIR_MODE = 0o700;
const FILE_MODE = 0o600;
const TOKEN_SHAPE = /^[A-Za-z0-9._~+/=-]{16,512}$/;
// POSIX permission bits mean nothing on Windows (ACLs guard the user profile there).
const POSIX = process.platform !== 'win32';

function errno(error: unknown): string | undefined {
  return error instanceof Error && 'code' in error && typeof error.code === 'string' ? error.code : undefined;
}

/** Refuses anything but a real, own directory or file, then removes group and other permission bits. */
async function tighten(path: string, kind: 'directory' | 'file', mode: number): Promise<void> {
  const stat = await lstat(path);
  const right = kind === 'directory' ? stat.isDirectory() : stat.isFile();
  if (!right) throw new JunctionError('ConfigInvalid', `${path} must be a ${kind} (symbolic links are refused so the token cannot be redirected).`);
  if (!POSIX) return;
  if (typeof process.getuid === 'function' && stat.uid !== process.getuid()) {
    throw new JunctionError('ConfigInvalid', `${path} belongs to another user (uid ${stat.uid}); refusing to use its token.`);
  }
  if ((stat.mode & 0o777) !== mode) await chmod(path, mode);
}

async function readToken(path: string): Promise<string> {
  const token = (await readFile(path, 'utf8')).trim();
  if (!TOKEN_SHAPE.test(token)) {
    throw new JunctionError('ConfigInvalid', `${path} does not hold a usable token (16 to 512 URL-safe characters); fix or delete it to have a new one created.`);
  }
  return token;
}

/**
 * Writes the token to a private temporary file, then hard-links it into place: `link` fails if the
 * name exists, so the token file appears atomically and complete, and two instances starting
 * together never overwrite each other's token or read a half-written one.
 */
async function createToken(path: string): Promise<string | undefined> {
  const token = randomBytes(32).toString('base64url');
  const temporary = `${path}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`;
  const handle = await open(temporary, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, FILE_MODE);
  try {
    await handle.writeFile(`${token}\n`, 'utf8');
    await handle.sync();
  } finally {
    await handle.close();
  }
  try {
    await link(temporary, path);
    return token;
  } catch (error) {
    if (errno(error) === 'EEXIST') return undefined;
    throw error;
  } finally {
    await unlink(temporary);
  }
}

export async function loadOrCreateToken(stateDir: string): Promise<string> {
  const dir = join(stateDir, TOKEN_DIRECTORY);
  await mkdir(dir, { recursive: true, mode: DIR_MODE });
  await tighten(dir, 'directory', DIR_MODE);
  const path = join(dir, TOKEN_FILE);
  const created = await createToken(path);
  await tighten(path, 'file', FILE_MODE);
  return created ?? (await readToken(path));
}
