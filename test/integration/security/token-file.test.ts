import { after, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { chmod, mkdir, mkdtemp, readdir, readFile, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadOrCreateToken, TOKEN_DIRECTORY, TOKEN_FILE } from '../../../src-main/security/index.js';
import { JunctionError } from '../../../src-main/contracts/errors.js';

const posix = process.platform !== 'win32';
const roots: string[] = [];

async function stateDir(): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'junction-token-'));
  roots.push(dir);
  return dir;
}

const modeOf = async (path: string) => (await stat(path)).mode & 0o777;
const isConfigInvalid = (error: unknown) => error instanceof JunctionError && error.code === 'ConfigInvalid';

describe('loadOrCreateToken', { skip: !posix && 'POSIX permission bits are not meaningful on Windows' }, () => {
  after(async () => {
    for (const dir of roots) await rm(dir, { recursive: true, force: true });
  });

  test('creates a 32-byte random token in a 0600 file inside a 0700 directory', async () => {
    const dir = await stateDir();
    const token = await loadOrCreateToken(dir);
    assert.match(token, /^[A-Za-z0-9_-]{43}$/);
    assert.equal(Buffer.from(token, 'base64url').length, 32);
    const file = join(dir, TOKEN_DIRECTORY, TOKEN_FILE);
    assert.equal((await readFile(file, 'utf8')).trim(), token);
    assert.equal(await modeOf(file), 0o600);
    assert.equal(await modeOf(join(dir, TOKEN_DIRECTORY)), 0o700);
  });

  test('returns the same token on later loads and a different one for another state directory', async () => {
    const dir = await stateDir();
    const first = await loadOrCreateToken(dir);
    assert.equal(await loadOrCreateToken(dir), first);
    assert.notEqual(await loadOrCreateToken(await stateDir()), first);
  });

  test('concurrent first runs agree on one token', async () => {
    const dir = await stateDir();
    const tokens = await Promise.all(Array.from({ length: 8 }, () => loadOrCreateToken(dir)));
    assert.equal(new Set(tokens).size, 1);
    assert.deepEqual(await readdir(join(dir, TOKEN_DIRECTORY)), [TOKEN_FILE], 'no temporary files are left behind');
  });

  test('tightens loosened permissions on load', async () => {
    const dir = await stateDir();
    const token = await loadOrCreateToken(dir);
    const file = join(dir, TOKEN_DIRECTORY, TOKEN_FILE);
    await chmod(file, 0o644);
    await chmod(join(dir, TOKEN_DIRECTORY), 0o755);
    assert.equal(await loadOrCreateToken(dir), token);
    assert.equal(await modeOf(file), 0o600);
    assert.equal(await modeOf(join(dir, TOKEN_DIRECTORY)), 0o700);
  });

  test('keeps an operator-supplied token and refuses an unusable one', async () => {
    const dir = await stateDir();
    await mkdir(join(dir, TOKEN_DIRECTORY), { mode: 0o700 });
    const file = join(dir, TOKEN_DIRECTORY, TOKEN_FILE);
    await writeFile(file, 'operator-chosen-token-1234\n', { mode: 0o600 });
    assert.equal(await loadOrCreateToken(dir), 'operator-chosen-token-1234');
    await writeFile(file, 'short');
    await assert.rejects(loadOrCreateToken(dir), isConfigInvalid);
    await writeFile(file, '');
    await assert.rejects(loadOrCreateToken(dir), isConfigInvalid);
  });

  test('refuses a token file that is a symbolic link', async () => {
    const dir = await stateDir();
    const elsewhere = join(await stateDir(), 'planted');
    await writeFile(elsewhere, 'attacker-chosen-token-1234');
    await mkdir(join(dir, TOKEN_DIRECTORY), { mode: 0o700 });
    await symlink(elsewhere, join(dir, TOKEN_DIRECTORY, TOKEN_FILE));
    await assert.rejects(loadOrCreateToken(dir), isConfigInvalid);
  });
});
