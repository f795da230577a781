import { restCollector } from './rest';

const MB = 1024 * 1024;

/** A collector whose collections leave `after` bytes in use, counted. */
function counted(after: number) {
  const calls = { count: 0 };
  const collect = () => {
    calls.count += 1;
    return after;
  };
  return { calls, observe: restCollector(collect, { busyAbove: 0.05, growth: 16 * MB }) };
}

describe('the server at rest (docs/rendering.md, « Memory »)', () => {
  it('collects the start’s garbage on the first check that is not busy, then not until the heap grows again', () => {
    const { calls, observe } = counted(60 * MB);
    expect(observe(0.02, 80 * MB)).toBe(true);
    expect(calls.count).toBe(1);
    // What the collection left, and a little more: nothing worth a collection.
    expect(observe(0.02, 70 * MB)).toBe(false);
    expect(observe(0.01, 75 * MB)).toBe(false);
    // Grown by 16 MB since: once more.
    expect(observe(0.02, 76 * MB)).toBe(true);
    expect(calls.count).toBe(2);
  });

  it('never collects while the server is busy, whatever its heap, and does once it is quiet', () => {
    const { calls, observe } = counted(60 * MB);
    expect([observe(0.3, 200 * MB), observe(0.05, 200 * MB), observe(0.9, 250 * MB)]).toEqual([false, false, false]);
    expect(calls.count).toBe(0);
    expect(observe(0.049, 250 * MB)).toBe(true);
    expect(calls.count).toBe(1);
  });

  it('reads a figure that is not a number as busy or as no growth, never as a reason to collect', () => {
    const { calls, observe } = counted(60 * MB);
    expect(observe(Number.NaN, 200 * MB)).toBe(false);
    expect(observe(0.01, Number.NaN)).toBe(false);
    expect(calls.count).toBe(0);
  });
});
