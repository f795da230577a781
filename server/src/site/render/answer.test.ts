import { createPageCache } from './answer';

const page = (html: string, version = 'v1', brotli = Buffer.from(html)) => ({
  status: 200,
  body: Buffer.from(html),
  csp: "default-src 'self'",
  brotli,
  etag: `"${String(html.length)}"`,
  version,
});

describe('the rendered pages kept per URL', () => {
  it('serves a page for its time, then renders again', () => {
    let now = 1000;
    const cache = createPageCache({ ttlMs: 10_000, maxEntries: 10, maxBytes: 1_000_000, now: () => now });
    cache.set('/label', page('<p>label</p>'));
    expect(cache.get('/label', 'v1')?.body.toString()).toBe('<p>label</p>');
    now += 10_000;
    expect(cache.get('/label', 'v1')?.body.toString()).toBe('<p>label</p>');
    now += 1;
    expect(cache.get('/label', 'v1')).toBeNull();
  });

  it('never serves a page rendered with other server containers', () => {
    const cache = createPageCache({ ttlMs: 10_000, maxEntries: 10, maxBytes: 1_000_000 });
    cache.set('/label', page('<p>label</p>', 'v1'));
    expect(cache.get('/label', 'v2')).toBeNull();
    expect(cache.get('/label', 'v1')).toBeNull();
  });

  it('keeps at most so many pages, the least recently used going first', () => {
    const cache = createPageCache({ ttlMs: 10_000, maxEntries: 2, maxBytes: 1_000_000 });
    cache.set('/a', page('a'));
    cache.set('/b', page('b'));
    cache.get('/a', 'v1');
    cache.set('/c', page('c'));
    expect(cache.get('/b', 'v1')).toBeNull();
    expect(cache.get('/a', 'v1')?.body.toString()).toBe('a');
    expect(cache.get('/c', 'v1')?.body.toString()).toBe('c');
  });

  it('keeps at most so many bytes: a crawler walking every search cannot fill the memory', () => {
    const cache = createPageCache({ ttlMs: 10_000, maxEntries: 1000, maxBytes: 10_000 });
    for (let i = 0; i < 100; i += 1) cache.set(`/emissions?q=${String(i)}`, page('x'.repeat(1000)));
    // Each page's HTML and its brotli, 2 KB: at most five pages.
    expect(cache.size).toBeLessThanOrEqual(5);
    expect(cache.get('/emissions?q=99', 'v1')).not.toBeNull();
    // A page larger than the whole budget is not kept at all.
    cache.set('/enorme', page('x'.repeat(20_000)));
    expect(cache.get('/enorme', 'v1')).toBeNull();
  });

  it("counts a page's HTML as the bytes it is sent as, a byte for each character of ASCII", () => {
    const cache = createPageCache({ ttlMs: 10_000, maxEntries: 1000, maxBytes: 10_000 });
    // 1,000 bytes of HTML, one of brotli, and the policy: nine such pages fit in 10,000 bytes.
    for (let i = 0; i < 100; i += 1)
      cache.set(`/emissions?q=${String(i)}`, page('x'.repeat(1000), 'v1', Buffer.alloc(1)));
    expect(cache.size).toBe(9);
  });

  it('counts the brotli kept with each page in the same budget', () => {
    const cache = createPageCache({ ttlMs: 10_000, maxEntries: 1000, maxBytes: 10_000 });
    for (let i = 0; i < 100; i += 1) cache.set(`/emissions?q=${String(i)}`, page('x', 'v1', Buffer.alloc(3000)));
    expect(cache.size).toBeLessThanOrEqual(3);
    expect(cache.get('/emissions?q=99', 'v1')?.brotli).toHaveLength(3000);
  });

  it('lets go of every page once its time is over, even pages nobody asks for again', () => {
    jest.useFakeTimers();
    try {
      const cache = createPageCache({ ttlMs: 10_000, maxEntries: 100, maxBytes: 1_000_000, now: () => Date.now() });
      // A part redeployed: the pages of its former version are never asked for again.
      for (let i = 0; i < 20; i += 1) cache.set(`/label?v=${String(i)}`, page('<p>label</p>', `v${String(i)}`));
      jest.advanceTimersByTime(9_000);
      expect(cache.size).toBe(20);
      jest.advanceTimersByTime(2_000);
      expect(cache.size).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });

  it('keeps nothing when its time is 0', () => {
    const cache = createPageCache({ ttlMs: 0, maxEntries: 10, maxBytes: 1_000_000 });
    cache.set('/label', page('<p>label</p>'));
    expect(cache.get('/label', 'v1')).toBeNull();
  });
});
