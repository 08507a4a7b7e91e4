/**
 * What a start has brought up so far, closed last-in-first-out: on a failed start at whatever step, and
 * on close. A part that fails to close does not keep the parts below it open.
 */
export type Dispose = () => unknown;

export class DisposeStack {
  private readonly parts: Array<{ name: string; dispose: Dispose }> = [];
  private unwinding: Promise<Array<{ name: string; error: unknown }>> | undefined;

  push(name: string, dispose: Dispose): void {
    if (this.unwinding) throw new Error(`cannot start ${name}: the parts started so far are being closed`);
    this.parts.push({ name, dispose });
  }

  /** Closes every part in reverse order, once; resolves with the parts that failed to close. */
  unwind(): Promise<Array<{ name: string; error: unknown }>> {
    this.unwinding ??= (async () => {
      const failures: Array<{ name: string; error: unknown }> = [];
      for (let part = this.parts.pop(); part; part = this.parts.pop()) {
        try {
          await part.dispose();
        } catch (error) {
          failures.push({ name: part.name, error });
        }
      }
      return failures;
    })();
    return this.unwinding;
  }
}
