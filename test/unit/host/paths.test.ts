import { test, describe } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, mkdir, realpath, rm, symlink } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { guardWorkspacePath, normaliseRelativePath } from '../../../src-main/host/workspace/index.js';

describe('path safety', () => {
  test('normalises to POSIX relative paths', () => {
    assert.equal(normaliseRelativePath('src\\a.ts'), 'src/a.ts');
    assert.equal(normaliseRelativePath('./src//a.ts'), 'src/a.ts');
    for (const bad of ['../a.ts', 'src/../../a.ts', '/etc/passwd', 'C:\\x.ts', '', '.', 'a\0b']) {
      assert.throws(() => normaliseRelativePath(bad), { code: 'PathOutsideWorkspace' }, bad);
    }
  });

  test('symlinks leading out of the workspace are refused; inside ones are fine', async () => {
    const dir = await realpath(await mkdtemp(join(tmpdir(), 'junction-paths-')));
    try {
      const root = join(dir, 'root');
      await mkdir(join(root, 'inner'), { recursive: true });
      await mkdir(join(dir, 'outside'));
      await symlink(join(dir, 'outside'), join(root, 'out'));
      await symlink(join(root, 'inner'), join(root, 'alias'));
      await assert.rejects(guardWorkspacePath(root, 'out/new/file.ts'), { code: 'PathOutsideWorkspace' });
      assert.equal(await guardWorkspacePath(root, 'alias/new.ts'), 'alias/new.ts');
      assert.equal(await guardWorkspacePath(root, 'brand/new/dir/x.ts'), 'brand/new/dir/x.ts');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
