/**
 * The zustand store the views read. Frames are batched so a burst of events renders once; the reducer
 * itself is pure (reducer.ts).
 */
import { create } from 'zustand';
import type { ControlChannel, ControlCommandName, ControlCommands, ControlResult, ControlWireFrame, StructuredErrorLike } from './types.js';
import { applyFrames, EMPTY_DATA, type ConsoleData } from './reducer.js';

export type ConnectionStatus = 'connecting' | 'open' | 'closed';

export interface Notice {
  id: number;
  kind: 'ok' | 'error';
  text: string;
}

export interface ConsoleState {
  data: ConsoleData;
  status: ConnectionStatus;
  notices: Notice[];
  channel: ControlChannel | undefined;
  setStatus(status: ConnectionStatus): void;
  receive(frames: readonly ControlWireFrame[]): void;
  connect(channel: ControlChannel): () => void;
  /** Runs a command, reports its outcome as a notice, and returns the result for the caller. */
  run<C extends ControlCommandName>(command: C, args: ControlCommands[C]['args'], success: string): Promise<ControlResult<ControlCommands[C]['result']>>;
  dismiss(id: number): void;
}

let noticeId = 0;

/**
 * At most this often the store applies queued frames and React renders. Layout and paint of the calls
 * table, not the reducer, dominate under load, so 20 renders a second keep the page responsive.
 * The apply runs in a timer task, not in requestAnimationFrame: inside a frame callback the reducer, React's
 * render and commit, and the browser's style, layout and paint of the result all made one long task; from
 * a timer the browser lays out and paints in its own next frame task.
 */
const MIN_APPLY_INTERVAL_MS = 50;

function describe(error: StructuredErrorLike): string {
  return `${error.code}: ${error.message}`;
}

export const useConsole = create<ConsoleState>()((set, get) => ({
  data: EMPTY_DATA,
  status: 'connecting',
  notices: [],
  channel: undefined,
  setStatus: (status) => set({ status }),
  receive: (frames) => set((s) => ({ data: applyFrames(s.data, frames) })),
  connect(channel) {
    set({ channel });
    let queued: ControlWireFrame[] = [];
    let scheduled = false;
    let lastFlush = 0;
    const flush = (): void => {
      scheduled = false;
      lastFlush = performance.now();
      const frames = queued;
      queued = [];
      get().receive(frames);
    };
    return channel.onFrame((frame) => {
      queued.push(frame);
      if (scheduled) return;
      scheduled = true;
      setTimeout(flush, Math.max(0, lastFlush + MIN_APPLY_INTERVAL_MS - performance.now()));
    });
  },
  async run(command, args, success) {
    const channel = get().channel;
    const result: ControlResult<ControlCommands[typeof command]['result']> = channel
      ? await channel.invoke(command, args)
      : { ok: false, error: { code: 'PluginUnavailable', message: 'Not connected.' } };
    const notice: Notice = { id: ++noticeId, kind: result.ok ? 'ok' : 'error', text: result.ok ? success : describe(result.error) };
    set((s) => ({ notices: [...s.notices.slice(-4), notice] }));
    return result;
  },
  dismiss: (id) => set((s) => ({ notices: s.notices.filter((n) => n.id !== id) })),
}));
