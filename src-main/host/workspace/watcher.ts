/** Debounced change detection over a directory tree; a burst of file events becomes one callback. */
import { watch, type FSWatcher } from 'node:fs';
import { isIgnoredPath } from './loader.js';

export interface DirectoryWatcher {
  close(): void;
}

export function watchDirectory(root: string, debounceMs: number, onChange: () => void, onError: (error: unknown) => void): DirectoryWatcher {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let watcher: FSWatcher | undefined;
  const schedule = (file: string | null): void => {
    if (file !== null && isIgnoredPath(file.replace(/\\/g, '/'))) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      onChange();
    }, debounceMs);
  };
  try {
    watcher = watch(root, { recursive: true, persistent: false }, (_event, file) => schedule(file === null ? null : String(file)));
    watcher.on('error', onError);
  } catch (error) {
    onError(error);
  }
  return {
    close() {
      if (timer) clearTimeout(timer);
      watcher?.close();
    },
  };
}
