import { setTimeout as delay } from 'node:timers/promises';

/**
 * What the deployment tests open (instances, Redis, fake upstreams, connections), closed whatever a
 * test ends with (docs/testing.md, « A failing test fails the run »). Everything is kept in a list
 * as soon as it is open, and the list is closed in afterEach (a test's own) or afterAll (its
 * file's), the last opened first, each even when another's close failed or hung.
 *
 * A test that times out goes on running beside the next ones: what it was opening when its list was
 * closed is waited for, then closed with the rest. Before, a test that timed out while starting an
 * instance left it running, and the run never exited. What it opens later still, no list closes: the
 * run's end names it (tools/jest/open-handles.mjs).
 */
export interface Closable {
  close(): unknown;
}

/** How long one close may take before the next is closed all the same (the hook's limit is 60 s). */
const CLOSE_MS = 15_000;

export class Opened {
  private readonly open: Closable[] = [];
  private readonly opening = new Set<Promise<unknown>>();

  /** Keeps what `opening` gives, when it gives it, to be closed with the list; returns it. */
  keep<T extends Closable>(opening: Promise<T>): Promise<T> {
    const kept = opening.then((item) => {
      this.open.push(item);
      return item;
    });
    const settled = kept.catch(() => undefined);
    this.opening.add(settled);
    void settled.finally(() => this.opening.delete(settled));
    return kept;
  }

  /** Closes everything kept, the last opened first; throws the first close that failed, once all were tried. */
  async close(): Promise<void> {
    // What is being opened, once it is.
    await Promise.all([...this.opening]);
    const failures: unknown[] = [];
    for (const item of this.open.splice(0).reverse()) {
      const hung = new AbortController();
      try {
        await Promise.race([
          Promise.resolve(item.close()),
          delay(CLOSE_MS, undefined, { signal: hung.signal }).then(() => {
            throw new Error(`une fermeture n'a pas fini en ${String(CLOSE_MS / 1000)} s`);
          }),
        ]);
      } catch (error) {
        failures.push(error);
      } finally {
        hung.abort();
      }
    }
    if (failures.length > 0) throw failures[0];
  }
}

/** A list closed after each test of the file: what a test opens for itself. */
export function closedAfterEach(): Opened {
  const opened = new Opened();
  afterEach(() => opened.close());
  return opened;
}

/** A list closed once the file's tests have ended: what they share (Redis, the instances of beforeAll). */
export function closedAfterAll(): Opened {
  const opened = new Opened();
  afterAll(() => opened.close());
  return opened;
}
