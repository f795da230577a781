/**
 * What is made once per key from an upstream's value (the schedule's expansion, the events read,
 * per version of the calendars and per day), by the schedule's thread (docs/schedule.md, « Off the
 * event loop »): requests that arrive while it is made wait for that same making; when it fails,
 * the last good one is answered, said stale, and the same key is attempted again `retryMs` later, not
 * at every request. With no good one yet, `unreadable` makes the error.
 */
export class LastGood<T> {
  private done: { key: string; value: T; order: number } | undefined;
  private running: { key: string; promise: Promise<T> } | undefined;
  private failed: { key: string; at: number; message: string } | undefined;
  private started = 0;

  constructor(
    private readonly options: {
      clock: () => number;
      retryMs: number;
      /** Said once per failure (the log). */
      warn: (message: string) => void;
      /** The error when nothing good was ever made, from the failure's message. */
      unreadable: (message: string) => Error;
    },
  ) {}

  /** The value for `key` (made by `make` unless made or being made), or the last good one, stale. */
  async get(key: string, make: () => Promise<T>): Promise<{ value: T; stale: boolean }> {
    const { clock, retryMs } = this.options;
    if (this.done?.key === key) return { value: this.done.value, stale: false };
    if (this.failed?.key !== key || clock() - this.failed.at >= retryMs) {
      let running = this.running;
      if (running?.key !== key) {
        const order = (this.started += 1);
        const promise = (async () => {
          try {
            const value = await make();
            if (this.done === undefined || this.done.order < order) this.done = { key, value, order };
            return value;
          } catch (error) {
            const message = error instanceof Error ? error.message : String(error);
            this.failed = { key, at: clock(), message };
            this.options.warn(message);
            throw error;
          } finally {
            if (this.running?.key === key) this.running = undefined;
          }
        })();
        running = { key, promise };
        this.running = running;
      }
      try {
        return { value: await running.promise, stale: false };
      } catch {
        // Said in the log once; the last good value is answered below.
      }
    }
    if (this.done !== undefined) return { value: this.done.value, stale: true };
    throw this.options.unreadable(this.failed?.message ?? '');
  }
}
