// Tests wait for states, never for a time (docs/testing.md): a test that needs something to have
// happened in the background waits until it has, up to a deadline that says what never came.

// The real clock and timers, taken before a test may install jest's fake ones: a wait on the real
// event loop goes on while the fake clock stays where the test put it.
const realSetTimeout = globalThis.setTimeout;
const realNow = performance.now.bind(performance);

export interface UntilOptions {
  /** How long the condition may take before the wait fails (default 5 s, within jest's own limit). */
  timeoutMs?: number;
  /** How often the condition is checked (default every 5 ms). */
  everyMs?: number;
  /** What is waited for, in the error at the deadline (« the fresh thread in service »). */
  what?: string;
}

/**
 * Resolves once `condition` holds, checked now and then every `everyMs`; rejects at the deadline,
 * naming what was waited for. An error thrown by the condition (a failed `expect`) ends the wait at
 * once.
 */
export async function until(
  condition: () => boolean | Promise<boolean>,
  { timeoutMs = 5000, everyMs = 5, what = String(condition) }: UntilOptions = {},
): Promise<void> {
  const deadline = realNow() + timeoutMs;
  for (;;) {
    if (await condition()) return;
    if (realNow() >= deadline) throw new Error(`Toujours en attente après ${String(timeoutMs)} ms : ${what}`);
    await new Promise((resolve) => {
      realSetTimeout(resolve, everyMs);
    });
  }
}
