import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { open } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgv, resolveConfig } from '../../../src-main/app/config/index.js';
import { startJunction } from '../../../src-main/app/junction.js';
import { createLogger } from '../../../src-main/shared/log.js';

/**
 * A configured workspace whose opening is held on purpose: one of its documents is a symlink to a
 * named pipe, so reading it waits until the test writes the pipe. Meanwhile the server listens.
 */
test('/readyz answers 503 Starting until the configured workspaces are open, then 200; /healthz is 200 throughout', async (t) => {
  if (process.platform === 'win32') return t.skip('named pipes in a directory need POSIX');
  const root = mkdtempSync(join(tmpdir(), 'junction-ready-ws-'));
  const stateDir = mkdtempSync(join(tmpdir(), 'junction-ready-state-'));
  writeFileSync(join(root, 'a.ts'), 'export const a = 1;\n');
  const fifo = join(root, 'held-pipe');
  assert.equal(spawnSync('mkfifo', [fifo]).status, 0, 'mkfifo');
  symlinkSync(fifo, join(root, 'held.ts'));

  let announcePort: (port: number) => void = () => undefined;
  const listening = new Promise<number>((resolve) => (announcePort = resolve));
  const logger = createLogger('info', (line) => {
    const match = /listening on 127\.0\.0\.1:(\d+)/.exec(line);
    if (match) announcePort(Number(match[1]));
  });
  const { parsed, problems } = parseArgv(['port=0', `state-dir=${stateDir}`, `workspace=${root}`, 'console=false']);
  const starting = startJunction({ config: resolveConfig([{ values: parsed.values, problems }]), logger });
  const port = await listening;
  const base = `http://127.0.0.1:${port}`;
  try {
    const notReady = await fetch(`${base}/readyz`);
    assert.equal(notReady.status, 503);
    const body = (await notReady.json()) as { ready: boolean; workspaces: { opened: number; total: number }; error: { code: string } };
    assert.equal(body.ready, false);
    assert.deepEqual(body.workspaces, { opened: 0, total: 1 });
    assert.equal(body.error.code, 'Starting');
    assert.equal((await fetch(`${base}/healthz`)).status, 200, 'liveness does not wait for start-up');

    const writer = await open(fifo, 'w');
    await writer.writeFile('export const held = 2;\n');
    await writer.close();
    const junction = await starting;
    try {
      const ready = await fetch(`${base}/readyz`);
      assert.equal(ready.status, 200);
      assert.deepEqual(await ready.json(), { ready: true, workspaces: { opened: 1, total: 1 } });
    } finally {
      await junction.close();
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
    rmSync(stateDir, { recursive: true, force: true });
  }
});
