import { useEffect, useState } from 'react';
import type { ControlCommandName, ControlCommands } from '../../../src-main/contracts/index.js';
import { useConsole } from '../store/store.js';

export interface CommandResult<T> {
  value: T | undefined;
  /** `code: message` of the last failed attempt; cleared by the next success. */
  error: string | undefined;
}

/**
 * Runs one control command whenever `refreshKeys` change and keeps its latest answer. An answer that
 * arrives after the component moved on (unmounted, or newer keys) is dropped, so a slow reply never
 * overwrites a newer one.
 */
export function useCommandResult<C extends ControlCommandName>(
  command: C,
  args: ControlCommands[C]['args'],
  refreshKeys: readonly unknown[],
): CommandResult<ControlCommands[C]['result']> {
  const channel = useConsole((s) => s.channel);
  const [state, setState] = useState<CommandResult<ControlCommands[C]['result']>>({ value: undefined, error: undefined });
  useEffect(() => {
    let live = true;
    void channel?.invoke(command, args).then((r) => {
      if (!live) return;
      setState((previous) => (r.ok ? { value: r.value, error: undefined } : { value: previous.value, error: `${r.error.code}: ${r.error.message}` }));
    });
    return () => {
      live = false;
    };
    // The caller names what should refetch; `args` is rebuilt on every render and would refetch each time.
  }, [channel, command, ...refreshKeys]);
  return state;
}
