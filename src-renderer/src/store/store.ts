/**
 * The zustand store the views read. Frames are batched so a burst of events renders once; the reducer
 * itself is pure (reducer.ts).
 */
import { create } from 'zustand';
import type { ControlChannel, ControlCommandName, ControlCommands, ControlResult, ControlWireFrame, NoticeSubject, OperatorNotice, StructuredErrorLike } from './types.js';
import { applyFrames, EMPTY_DATA, type ConsoleData } from './reducer.js';

export type ConnectionStatus = 'connecting' | 'open' | 'closed';

/** A message on screen: a notice the server raised, or the outcome of the operator's own command (`ok`). */
export interface ConsoleNotice {
  id: string;
  level: OperatorNotice['level'] | 'ok';
  title: string;
  message: string;
  subject?: NoticeSubject;
  at: number;
  ttlMs?: number;
}

/** Command outcomes kept for display; each also expires on screen. */
const MAX_FEEDBACK = 10;

export interface ConsoleState {
  data: ConsoleData;
  status: ConnectionStatus;
  /** Outcomes of the operator's commands, oldest first. */
  feedback: ConsoleNotice[];
  /** Notices the operator closed or that expired. */
  dismissed: ReadonlySet<string>;
  channel: ControlChannel | undefined;
  setStatus(status: ConnectionStatus): void;
  receive(frames: readonly ControlWireFrame[]): void;
  connect(channel: ControlChannel): () => void;
  /** Runs a command, reports its outcome as a notice, and returns the result for the caller. */
  run<C extends ControlCommandName>(command: C, args: ControlCommands[C]['args'], success: string, subject?: NoticeSubject): Promise<ControlResult<ControlCommands[C]['result']>>;
  dismiss(id: string): void;
}

let feedbackId = 0;

/**
 * At most this often the store applies queued frames and React renders. Layout and paint of the calls
 * table, not the reducer, dominate under load, so 20 renders a second keep the page responsive.
 * The apply runs in a timer task, not in requestAnimationFrame: inside a frame callback the reducer, React's
 * render and commit, and the browser's style, layout and paint of the result all made one long task; from
 * a timer the browser lays out and paints in its own next frame task.
 */
const MIN_APPLY_INTERVAL_MS = 50;

function outcome(result: ControlResult<unknown>, success: string, subject: NoticeSubject | undefined): ConsoleNotice {
  const base = { id: `local-${++feedbackId}`, at: Date.now(), ...(subject ? { subject } : {}) };
  if (result.ok) return { ...base, level: 'ok', title: success, message: '' };
  const error: StructuredErrorLike = result.error;
  return { ...base, level: 'error', title: error.code, message: error.message };
}

/** Server notices and command outcomes not yet dismissed, oldest first. */
export function activeNotices(raised: readonly ConsoleNotice[], feedback: readonly ConsoleNotice[], dismissed: ReadonlySet<string>): ConsoleNotice[] {
  return [...raised, ...feedback].filter((n) => !dismissed.has(n.id)).sort((a, b) => a.at - b.at);
}

export const useConsole = create<ConsoleState>()((set, get) => ({
  data: EMPTY_DATA,
  status: 'connecting',
  feedback: [],
  dismissed: new Set<string>(),
  channel: undefined,
  setStatus: (status) => set({ status }),
  receive: (frames) => set((s) => ({ data: applyFrames(s.data, frames) })),
  connect(channel) {
    set({ channel });
    let queued: ControlWireFrame[] = [];
    let scheduled = false;
    let lastFlush = 0;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const flush = (): void => {
      scheduled = false;
      clearTimeout(timer);
      lastFlush = performance.now();
      const frames = queued;
      queued = [];
      get().receive(frames);
    };
    return channel.onFrame((frame) => {
      queued.push(frame);
      // A snapshot is applied in the task that brought it: its first part holds a few screens of calls,
      // so the table is drawn before the rest of the log (queued right behind it) is even parsed.
      if (frame.type === 'snapshot') {
        flush();
        return;
      }
      if (scheduled) return;
      scheduled = true;
      timer = setTimeout(flush, Math.max(0, lastFlush + MIN_APPLY_INTERVAL_MS - performance.now()));
    });
  },
  async run(command, args, success, subject) {
    const channel = get().channel;
    const result: ControlResult<ControlCommands[typeof command]['result']> = channel
      ? await channel.invoke(command, args)
      : { ok: false, error: { code: 'PluginUnavailable', message: 'Not connected.' } };
    const notice = outcome(result, success, subject);
    set((s) => ({ feedback: [...s.feedback.slice(1 - MAX_FEEDBACK), notice] }));
    return result;
  },
  // Ids of notices no longer held anywhere are dropped, so the set stays as small as the lists.
  dismiss: (id) =>
    set((s) => {
      const live = new Set([...s.data.notices, ...s.feedback].map((n) => n.id));
      return { dismissed: new Set([...s.dismissed, id].filter((d) => live.has(d))) };
    }),
}));
