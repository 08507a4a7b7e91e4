/**
 * Runs `task` over every item with at most `limit` in flight and resolves in item order. Independent
 * fsyncs issued together let the file system commit them in one journal flush instead of one each.
 */
export async function forEachBounded<T>(items: readonly T[], limit: number, task: (item: T, index: number) => Promise<void>): Promise<void> {
  let nextIndex = 0;
  const worker = async (): Promise<void> => {
    while (nextIndex < items.length) {
      const index = nextIndex++;
      await task(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** How many file writes (each with its own fsync) the journal keeps in flight at once. */
export const WRITE_PARALLELISM = 16;
