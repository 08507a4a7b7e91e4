/**
 * The tool runner's state per tool: the form, the raw JSON, and the run in progress or its outcome. It
 * lives here, not in the view, so that leaving Run a tool (to decide the run's approval elsewhere, say)
 * and coming back finds the form as it was and the result once it arrives.
 */
import { create } from 'zustand';
import type { ControlChannel, RunToolResult } from './types.js';
import type { FormValues } from '../lib/schema-form.js';

export interface ToolRun {
  values: FormValues;
  raw: string;
  rawMode: boolean;
  /** Epoch ms the current run started; undefined when none runs. */
  runningSince?: number;
  outcome?: RunToolResult;
  failure?: string;
}

export interface RunsState {
  runs: Readonly<Record<string, ToolRun>>;
  edit(tool: string, patch: Partial<ToolRun>): void;
  /** Runs the tool as the console; the answer lands here whether or not the runner is still on screen. */
  start(channel: ControlChannel | undefined, tool: string, args: Record<string, unknown>): Promise<void>;
}

export const EMPTY_RUN: ToolRun = { values: {}, raw: '{}', rawMode: false };

export const useRuns = create<RunsState>()((set, get) => ({
  runs: {},
  edit: (tool, patch) => set((s) => ({ runs: { ...s.runs, [tool]: { ...(s.runs[tool] ?? EMPTY_RUN), ...patch } } })),
  async start(channel, tool, args) {
    const { edit } = get();
    edit(tool, { runningSince: Date.now(), failure: undefined });
    const reply = await channel?.invoke('runTool', { name: tool, args });
    if (!reply) edit(tool, { runningSince: undefined, failure: 'Not connected.' });
    else if (reply.ok) edit(tool, { runningSince: undefined, outcome: reply.value });
    else edit(tool, { runningSince: undefined, failure: `${reply.error.code}: ${reply.error.message}` });
  },
}));
