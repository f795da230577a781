/**
 * Gives the main thread back to the browser between two steps of the shell's start (docs/
 * first-screen.md, « Work after the paint »): a tap, a frame or an answer from the network is handled
 * between them, and no step's work is added to another's in one long task. `scheduler.yield` where
 * the browser has it (the start then resumes ahead of the page's other tasks), else a new task.
 */
export function yieldToMain(): Promise<void> {
  const { scheduler } = globalThis as { scheduler?: { yield?: () => Promise<void> } };
  if (typeof scheduler?.yield === 'function') return scheduler.yield();
  return new Promise((resolve) => {
    setTimeout(resolve, 0);
  });
}
