/**
 * In stdio mode standard output carries only MCP frames, so ordinary console output from in-process
 * plugins must go to standard error. This guards protocol framing for cooperative code; it is not a
 * sandbox against code that writes to the raw stream on purpose.
 */
import { Console } from 'node:console';

const REDIRECTED = ['log', 'info', 'debug', 'dir', 'dirxml', 'table', 'trace', 'group', 'groupCollapsed', 'groupEnd', 'count', 'countReset', 'time', 'timeEnd', 'timeLog', 'assert'] as const;

type Redirected = (typeof REDIRECTED)[number];

/** Sends every stdout-bound console method to `target` (stderr by default); returns a function that undoes it. */
export function redirectConsoleToStderr(target: NodeJS.WritableStream = process.stderr): () => void {
  const sink = new Console({ stdout: target, stderr: target });
  const original = new Map<Redirected, unknown>();
  const methods = console as unknown as Record<Redirected, unknown>;
  for (const name of REDIRECTED) {
    original.set(name, methods[name]);
    const replacement = (sink as unknown as Record<Redirected, (...args: unknown[]) => void>)[name];
    methods[name] = replacement.bind(sink);
  }
  return () => {
    for (const [name, method] of original) methods[name] = method;
  };
}
