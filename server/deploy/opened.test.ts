import { setTimeout as delay } from 'node:timers/promises';
import { Opened } from './opened';

// The deployment tests' list of what they opened (opened.ts): closed whatever a test ends with.

/** Something open that says when it is closed, in `closed`. */
const thing = (name: string, closed: string[], fails = false) => ({
  name,
  close: async () => {
    // Closed later than called, as a real close is (a turn of the event loop, no timer).
    await Promise.resolve();
    closed.push(name);
    if (fails) throw new Error(`${name} ne se ferme pas`);
  },
});

describe('what a deployment test opened', () => {
  it('is closed the last opened first, each even when another fails, and the failure is said', async () => {
    const closed: string[] = [];
    const opened = new Opened();
    await opened.keep(Promise.resolve(thing('redis', closed)));
    await opened.keep(Promise.resolve(thing('instance a', closed, true)));
    await opened.keep(Promise.resolve(thing('instance b', closed)));
    await expect(opened.close()).rejects.toThrow('instance a ne se ferme pas');
    expect(closed).toEqual(['instance b', 'instance a', 'redis']);
    // Closed once: the list is empty after.
    await opened.close();
    expect(closed).toHaveLength(3);
  });

  it('waits for what is being opened when it is closed, and closes it', async () => {
    const closed: string[] = [];
    const opened = new Opened();
    await opened.keep(Promise.resolve(thing('redis', closed)));
    // A test that timed out while starting an instance: the list is closed meanwhile.
    const starting = opened.keep(delay(50).then(() => thing('instance lente', closed)));
    await opened.close();
    expect(closed).toEqual(['instance lente', 'redis']);
    await expect(starting).resolves.toMatchObject({ name: 'instance lente' });
  });
});
