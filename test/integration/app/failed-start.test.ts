/**
 * A start that fails half-way closes every part it started, in reverse order, whatever step fails:
 * the port is free again, the state-directory lock is released (another Junction, and `junction
 * connect` in another process, start on the same directory and port), the audit writer thread has
 * exited and no timer or socket is left behind.
 */
import { createHook } from 'node:async_hooks';
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgv, resolveConfigWithOrigins } from '../../../src-main/app/config/index.js';
import { startJunction, START_STEPS, type JunctionOptions } from '../../../src-main/app/junction.js';
import { silentLogger } from '../../../src-main/shared/log.js';
import { stdioAgent } from '../../support/cli.js';
import { eventually } from '../../support/junction-harness.js';

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Binds the port itself: fails while anything (a leaked Junction) still holds it. */
async function portIsFree(port: number): Promise<boolean> {
  const server = createServer();
  const bound = await new Promise<boolean>((resolve) => {
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => resolve(true));
  });
  if (bound) await new Promise<void>((resolve) => server.close(() => resolve()));
  return bound;
}

function options(stateDir: string, port: number, args: string[] = []): JunctionOptions {
  const { parsed, problems } = parseArgv([...args, `port=${port}`, `state-dir=${stateDir}`, 'log-level=error']);
  return { ...resolveConfigWithOrigins([{ values: parsed.values, problems }]), logger: silentLogger };
}

/** Handles that keep something held: a timer, a server or socket, a thread, a child, a file watcher. */
const HELD = new Set(['Timeout', 'TCPSERVERWRAP', 'TCPWRAP', 'PIPESERVERWRAP', 'PIPEWRAP', 'WORKER', 'MESSAGEPORT', 'PROCESSWRAP', 'FSEVENTWRAP', 'STATWATCHER', 'UDPWRAP']);

/**
 * Every handle (timer, socket, server, worker thread, file watcher…) created while `run` runs, and which
 * of them are still alive: unref'd timers included, which `process.getActiveResourcesInfo` leaves out.
 */
async function tracked(run: () => Promise<unknown>): Promise<{ alive(): string[]; stop(): void }> {
  const live = new Map<number, string>();
  let recording = true;
  const hook = createHook({
    init(id, type) {
      if (recording && HELD.has(type)) live.set(id, type);
    },
    destroy(id) {
      live.delete(id);
    },
  }).enable();
  try {
    await run();
  } finally {
    recording = false;
  }
  return { alive: () => [...live.values()], stop: () => hook.disable() };
}

/** What must hold after a failed start on `stateDir` and `port`. */
async function assertNothingLeft(stateDir: string, port: number, handles: { alive(): string[]; stop(): void }): Promise<void> {
  try {
    await eventually(() => handles.alive().length === 0, 10_000, 'every handle the start created to be closed').catch(() => assert.fail(`left open: ${handles.alive().join(', ')}`));
  } finally {
    handles.stop();
  }
  assert.equal(await portIsFree(port), true, `port ${port} is free again`);
  // The lock, the audit database and the port are all usable by the next Junction.
  const next = await startJunction(options(stateDir, port));
  assert.equal(next.port, port);
  await next.close();
}

describe('a start that fails half-way', () => {
  test('a configured workspace that is missing fails after the server listened, and leaves nothing held', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'junction-failed-start-'));
    const port = await freePort();
    const missing = join(stateDir, 'no-such-workspace');
    try {
      const handles = await tracked(() =>
        assert.rejects(startJunction(options(stateDir, port, [`workspace=${missing}`])), (error: Error & { code?: string }) => error.code === 'WorkspaceNotFound'),
      );
      await assertNothingLeft(stateDir, port, handles);

      // `junction connect` in another process finds nothing on the port and starts its own Junction on the directory.
      const agent = await stdioAgent(['connect', `port=${port}`, `state-dir=${stateDir}`, 'log-level=error', 'console=false']);
      try {
        const { tools } = await agent.listTools();
        assert.ok(tools.some((t) => t.name === 'server-status'));
      } finally {
        await agent.close();
      }
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });

  test('a failure at each step of the start unwinds every step before it', async () => {
    const stateDir = mkdtempSync(join(tmpdir(), 'junction-failed-step-'));
    const port = await freePort();
    try {
      assert.ok(START_STEPS.length >= 8, `the start is a sequence of steps (${START_STEPS.join(', ')})`);
      for (const step of START_STEPS) {
        const injected = new Error(`injected failure after ${step}`);
        const started: string[] = [];
        const handles = await tracked(() =>
          assert.rejects(
            startJunction({
              ...options(stateDir, port),
              afterStep: (name) => {
                started.push(name);
                if (name === step) throw injected;
              },
            }),
            (error) => error === injected,
          ),
        );
        assert.deepEqual(started, START_STEPS.slice(0, START_STEPS.indexOf(step) + 1), 'steps run in their declared order');
        await assertNothingLeft(stateDir, port, handles);
      }
    } finally {
      rmSync(stateDir, { recursive: true, force: true });
    }
  });
});
