/**
 * The Electron transport without the Electron binary (it cannot be installed here): the real preload
 * script runs in a VM context whose `require('electron')` hands it an IPC pair that routes invoke and
 * send to the real `registerControlIpc` in the same process, as Electron's ipcRenderer/ipcMain would.
 * It shows the preload and the main process agree on channel names and that both take commands from
 * the command table. test/e2e/electron.test.ts runs the real window where the binary exists.
 */
import { describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { runInNewContext } from 'node:vm';
import ts from 'typescript';
import type { ControlWireFrame } from '../../../src-main/contracts/index.js';
import { CONTROL_COMMAND_NAMES } from '../../../src-main/contracts/index.js';
import { unknownCommandError } from '../../../src-main/control/index.js';
import { FRAME_CHANNEL, INVOKE_CHANNEL, SUBSCRIBE_CHANNEL } from '../../../src-main/electron/channels.js';
import { registerControlIpc, type ControlIpcMain } from '../../../src-main/electron/ipc.js';
import { createWorld } from '../../integration/control/support/world.js';

type Listener = (event: unknown, ...args: unknown[]) => void;
interface ExposedChannel {
  invoke(command: unknown, args: unknown): Promise<{ ok: boolean; value?: unknown; error?: { code: string } }>;
  onFrame(listener: (frame: ControlWireFrame) => void): () => void;
}

function electronPair(frameUrl: string) {
  const handlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
  const mainListeners = new Map<string, Listener>();
  const rendererListeners = new Map<string, Set<Listener>>();
  const channelsUsed = new Set<string>();
  const sender = {
    isDestroyed: () => false,
    send: (channel: string, payload: unknown) => {
      // Electron's IPC structured-clones what crosses.
      for (const l of rendererListeners.get(channel) ?? []) l({}, structuredClone(payload));
    },
    once: () => undefined,
  };
  const event = { senderFrame: { url: frameUrl }, sender };
  const fakeMain = {
    handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => unknown) => void handlers.set(channel, handler),
    removeHandler: (channel: string) => void handlers.delete(channel),
    on: (channel: string, listener: Listener) => (mainListeners.set(channel, listener), fakeMain),
    removeListener: (channel: string) => (mainListeners.delete(channel), fakeMain),
  };
  const ipcMain = fakeMain as unknown as ControlIpcMain;
  let exposed: ExposedChannel | undefined;
  const electron = {
    contextBridge: { exposeInMainWorld: (key: string, api: ExposedChannel) => (assert.equal(key, 'junction'), (exposed = api)) },
    ipcRenderer: {
      async invoke(channel: string, ...args: unknown[]) {
        channelsUsed.add(channel);
        const handler = handlers.get(channel);
        if (!handler) throw new Error(`No handler registered for '${channel}'`);
        return structuredClone(await handler(event, ...args.map((a) => structuredClone(a))));
      },
      send(channel: string) {
        channelsUsed.add(channel);
        mainListeners.get(channel)?.(event);
      },
      on(channel: string, listener: Listener) {
        channelsUsed.add(channel);
        if (!rendererListeners.has(channel)) rendererListeners.set(channel, new Set());
        rendererListeners.get(channel)!.add(listener);
      },
      removeListener(channel: string, listener: Listener) {
        rendererListeners.get(channel)?.delete(listener);
      },
    },
  };
  const source = readFileSync(new URL('../../../src-main/electron/preload.cts', import.meta.url), 'utf8');
  const script = ts.transpileModule(source, { compilerOptions: { module: ts.ModuleKind.CommonJS, target: ts.ScriptTarget.ES2022 } }).outputText;
  runInNewContext(script, {
    require: (name: string) => {
      if (name !== 'electron') throw new Error(`a sandboxed preload cannot require '${name}'`);
      return electron;
    },
    exports: {},
  });
  assert.ok(exposed, 'the preload exposed window.junction');
  return { ipcMain, channel: exposed, channelsUsed, handlers };
}

describe('Electron IPC transport', () => {
  test('the preload reaches every table command through the main process, on the channels channels.ts names', async () => {
    const world = createWorld();
    const pair = electronPair('app://console/index.html');
    const unregister = registerControlIpc(pair.ipcMain, world.hub);
    world.requestApproval({ approvalId: 'a1' });
    const approved = await pair.channel.invoke('approve', { approvalId: 'a1' });
    assert.equal(approved.ok, true);
    assert.equal((approved.value as { state: string }).state, 'approved');
    for (const name of CONTROL_COMMAND_NAMES) {
      const refused = await pair.channel.invoke(name, { notAnArgument: true });
      assert.equal(refused.error?.code, 'InvalidArguments', name);
    }
    assert.deepEqual(await pair.channel.invoke('format-disk', {}), { ok: false, error: unknownCommandError('format-disk') });
    const frames: ControlWireFrame[] = [];
    pair.channel.onFrame((frame) => frames.push(frame));
    assert.equal(frames[0]?.type, 'snapshot');
    assert.deepEqual([...pair.channelsUsed].sort(), [FRAME_CHANNEL, INVOKE_CHANNEL, SUBSCRIBE_CHANNEL].sort());
    unregister();
    assert.equal(pair.handlers.size, 0, 'unregistering removes the invoke handler');
  });

  test('a frame from another origin is refused and reaches no handler', async () => {
    const world = createWorld();
    const pair = electronPair('https://example.com/');
    registerControlIpc(pair.ipcMain, world.hub);
    world.requestApproval({ approvalId: 'a1' });
    const refused = await pair.channel.invoke('approve', { approvalId: 'a1' });
    assert.equal(refused.error?.code, 'Forbidden');
    assert.deepEqual(world.commands, []);
  });
});
