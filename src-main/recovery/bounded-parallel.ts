/**
 * Runs `task` over every item with at most `limit` in flight. Independent fsyncs issued together let
 * the file system commit them in one journal flush instead of one each. After a failure no new item
 * starts, and the first error is thrown only once every task in flight has settled: a caller that
 * cleans up (removes temp files) must not race writes that would create them again afterwards.
 */
export async function forEachBounded<T>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let nextIndex = 0;
  let failure: { error: unknown } | undefined;
  const worker = async (): Promise<void> => {
    while (nextIndex < items.length && !failure) {
      const index = nextIndex++;
      try {
        await task(items[index]!, index);
      } catch (error) {
        failure ??= { error };
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  if (failure) throw failure.error;
}

/** How many file writes (each with its own fsync) the journal keeps in flight at once. */
export const WRITE_PARALLELISM = 16;
