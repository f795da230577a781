/**
 * @jest-environment node
 */
// Each test builds its own page with jsdom; the loader is built by esbuild, which needs Node's own realm.
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import {
  AREA_READY_EVENT,
  BOOT_FALLBACK_MS,
  BOOT_ID,
  DISPLAY_FACE_CLASS,
  DISPLAY_FACE_SEEN,
  DISPLAY_FACE_SRC,
  PICTURES_HELD_CLASS,
} from '@collectif/shared/boot';
import { buildLoader } from '@collectif/shared/build/loader.mjs';

/** The loader as the shell's build makes it, and as every page rendered on the server carries it. */
const { source: LOADER } = buildLoader(join(__dirname, 'loader.ts'));

describe("the shell's loader, as built", () => {
  it('holds nothing that would end its element early in the page', () => {
    expect(LOADER).not.toMatch(/<\/script|<!--/i);
  });

  it('is one minified script, no module, with no import left', () => {
    expect(LOADER).not.toMatch(/^\s*\/\/|\bimport\b|\bexport\b/m);
    expect(LOADER.split('\n')).toHaveLength(1);
    // It is in every page: 3,000 characters at most (2,007 once it waits for the images and fonts,
    // 2,3xx once it names the display face after the paint, in place of the font's preload link,
    // 2,5xx once it holds the lazy pictures and names the manifest, in place of the page's link,
    // until the first screen is shown: 96 bytes compressed; 2,9xx once it makes the display face
    // itself, which took a task of 15 to 25 ms from every page after its paint: 102 bytes more
    // compressed).
    expect(LOADER.length).toBeLessThan(3000);
  });
});

/**
 * A page as the server sends it, the loader run as a browser runs it (jsdom, its timers on jest's fake
 * clock: `later`). Without `frames`, the page is a tab in the background: no animation frame ever
 * comes.
 */
function page(
  preloads: unknown,
  {
    frames = true,
    list = JSON.stringify({ preloads }),
    paints,
    images = '',
    fonts,
    faces,
    storage = true,
    seen = false,
    head = '',
  }: {
    frames?: boolean;
    list?: string;
    paints?: Paints;
    images?: string;
    /** The page's fonts, as `document.fonts` says them: loading until the promise settles. */
    fonts?: Promise<unknown>;
    /**
     * The FontFace API, as the browser has it: each face made (its family and file), each one put
     * in `document.fonts` (`added`), and when a face's file has come (`give`).
     */
    faces?: Faces;
    /** Whether the page may use its storage (a page without an origin may not, as jsdom's default). */
    storage?: boolean;
    /** Whether this browser has fetched the display face before. */
    seen?: boolean;
    /** What the page's head holds besides the loader's list. */
    head?: string;
  } = {},
): JSDOM {
  const dom = new JSDOM(
    `<!doctype html><html><head><style>:root { ${DISPLAY_FACE_SRC}: url(/files/face.woff2) format('woff2'); }</style>${head}<script type="application/json" id="${BOOT_ID}">${list}</script></head><body><div id="root"><button type="button" id="menu">Menu</button><main data-zone="page">${images}<form><button type="submit" id="chercher">Rechercher</button></form></main><div data-zone="player"><button type="button" id="pilule">Stream</button></div></div><button type="button" id="dehors">Dehors</button></body></html>`,
    { runScripts: 'outside-only', pretendToBeVisual: true, ...(storage ? { url: 'https://radio.example.org/' } : {}) },
  );
  if (seen) dom.window.localStorage.setItem(DISPLAY_FACE_SEEN, '1');
  // Images on their way, as the browser has them when the page is painted: jsdom fetches none.
  for (const image of dom.window.document.images) {
    Object.defineProperty(image, 'complete', { value: image.hasAttribute('data-arrived'), configurable: true });
  }
  if (!frames) dom.window.requestAnimationFrame = () => 0;
  if (fonts !== undefined || faces !== undefined) {
    const add = (face: { family: string }) => {
      faces?.added.push(face.family);
    };
    Object.defineProperty(dom.window.document, 'fonts', {
      value: { status: fonts === undefined ? 'loaded' : 'loading', ready: fonts ?? Promise.resolve(), add },
    });
  }
  if (faces !== undefined) {
    const { made, give } = faces;
    Object.assign(dom.window, {
      FontFace: class {
        constructor(
          readonly family: string,
          src: string,
        ) {
          made.push(`${family} ${src}`);
        }
        load() {
          return give.then(() => this);
        }
      },
    });
  }
  if (paints) Object.assign(dom.window, { PerformanceObserver: paints.Observer });
  const loader = dom.window.document.createElement('script');
  loader.setAttribute('data-src', '/main.js');
  dom.window.document.head.append(loader);
  Object.defineProperty(dom.window.document, 'currentScript', { value: loader, configurable: true });
  dom.window.eval(LOADER);
  return dom;
}

/** What the page did with the FontFace API (`page`'s `faces`). */
interface Faces {
  made: string[];
  added: string[];
  give: Promise<unknown>;
}

/** A face whose file comes when `arrive` is called. */
function faceOnItsWay(): Faces & { arrive: () => void } {
  let arrive: () => void = () => undefined;
  const give = new Promise<void>((resolve) => (arrive = resolve));
  return { made: [], added: [], give, arrive };
}

const FACE = "Archivo Black url(/files/face.woff2) format('woff2')";

/**
 * Paint timing as Chromium reports it: a `PerformanceObserver` that knows `paint` entries, which the
 * test reports one by one (`report('first-contentful-paint')`); a reported paint is also given to an
 * observer that asks for buffered entries afterwards.
 */
class Paints {
  private readonly seen: { name: string }[] = [];
  private readonly listeners = new Set<(entries: { name: string }[]) => void>();
  readonly Observer: unknown;

  constructor() {
    const { seen, listeners } = this;
    this.Observer = class {
      static supportedEntryTypes = ['mark', 'measure', 'paint'];
      private readonly listener: (entries: { name: string }[]) => void;
      constructor(callback: (list: { getEntries: () => { name: string }[] }) => void) {
        this.listener = (entries) => {
          callback({ getEntries: () => entries });
        };
      }
      observe(options: { type: string; buffered?: boolean }) {
        if (options.type !== 'paint') return;
        listeners.add(this.listener);
        if (options.buffered === true && seen.length > 0) this.listener([...seen]);
      }
      disconnect() {
        listeners.delete(this.listener);
      }
    };
  }

  report(name: string): void {
    this.seen.push({ name });
    for (const listener of [...this.listeners]) listener([{ name }]);
  }
}

const fetched = (dom: JSDOM) => [
  ...[...dom.window.document.querySelectorAll('link[rel="preload"]')].map(
    (link) => `${link.getAttribute('as') ?? ''} ${link.getAttribute('href') ?? ''}`,
  ),
  ...[...dom.window.document.querySelectorAll('script[src]')].map((script) => script.getAttribute('src')),
];

/**
 * The page's timers (jsdom's `setTimeout`, and its animation frames, an interval of 1000/60 ms) run
 * on jest's fake clock: `later(ms)` is what the page does in that time, with no real time spent.
 */
const later = (ms: number) => {
  jest.advanceTimersByTime(ms);
};

/** What the page does once the promises it waits on have settled (their callbacks, no time spent). */
const settle = async () => {
  for (let i = 0; i < 5; i += 1) await Promise.resolve();
};

beforeEach(() => {
  jest.useFakeTimers({ doNotFake: ['nextTick', 'queueMicrotask', 'setImmediate'] });
});

afterEach(() => {
  jest.useRealTimers();
});

describe('the loader', () => {
  it('fetches nothing while the document is painted, then the preloads and the entry, once', () => {
    const dom = page([
      { href: '/mf-radio/mf-manifest.json', as: 'fetch', crossorigin: 'anonymous' },
      { href: '/mf-radio/remoteEntry.js', as: 'script' },
    ]);
    expect(fetched(dom)).toEqual([]);
    // A frame (1000/60 ms), then a task: the page is painted first.
    later(1000 / 60);
    expect(fetched(dom)).toEqual([]);
    later(1);
    expect(fetched(dom)).toEqual(['fetch /mf-radio/mf-manifest.json', 'script /mf-radio/remoteEntry.js', '/main.js']);
    const manifest = dom.window.document.querySelector('link[as="fetch"]');
    expect(manifest?.getAttribute('crossorigin')).toBe('anonymous');
    // Once only: the fallback timer, later, adds nothing.
    later(BOOT_FALLBACK_MS);
    expect(fetched(dom)).toHaveLength(3);
    dom.window.close();
  });

  it('asks for a page’s many files a few at a time, one task after another, in their order', () => {
    const chunks = Array.from({ length: 9 }, (_, n) => ({ href: `/mf-radio/${String(n)}.js`, as: 'script' }));
    const dom = page(chunks);
    later(1000 / 60);
    // Task by task (a millisecond of the page's clock each, more than jsdom's timers wait): what each
    // has asked for so far.
    const seen: number[] = [];
    for (let task = 0; task < 10; task += 1) {
      later(1);
      seen.push(fetched(dom).length);
    }
    // The manifest's link and three files, then four at a time: never the ten in one task.
    expect(seen[0]).toBe(3);
    for (let n = 1; n < seen.length; n += 1) expect((seen[n] ?? 0) - (seen[n - 1] ?? 0)).toBeLessThanOrEqual(4);
    expect(fetched(dom)).toEqual([...chunks.map(({ href }) => `script ${href}`), '/main.js']);
    // Once only.
    later(BOOT_FALLBACK_MS);
    expect(fetched(dom)).toHaveLength(10);
    dom.window.close();
  });

  it('waits for the first contentful paint where the browser reports paints, not for a frame', () => {
    const paints = new Paints();
    const dom = page([{ href: '/mf-radio/remoteEntry.js', as: 'script' }], { paints });
    later(100);
    // Frames have come, but the screen shows nothing readable yet.
    paints.report('first-paint');
    later(50);
    expect(fetched(dom)).toEqual([]);
    paints.report('first-contentful-paint');
    expect(fetched(dom)).toEqual([]);
    // One task later: the page is on the screen.
    later(0);
    expect(fetched(dom)).toEqual(['script /mf-radio/remoteEntry.js', '/main.js']);
    paints.report('first-contentful-paint');
    later(BOOT_FALLBACK_MS);
    expect(fetched(dom)).toHaveLength(2);
    dom.window.close();
  });

  it('waits for the first screen’s images after the paint, then the frame that shows them', async () => {
    const paints = new Paints();
    const dom = page([{ href: '/mf-radio/remoteEntry.js', as: 'script' }], {
      paints,
      images:
        '<img id="une" src="/une.webp" fetchpriority="high"><img id="carte" src="/carte.webp"><img src="/loin.webp" loading="lazy"><img src="/la.webp" data-arrived>',
    });
    paints.report('first-contentful-paint');
    later(500);
    expect(fetched(dom)).toEqual([]);
    const arrive = (id: string, event = 'load') => {
      dom.window.document.getElementById(id)?.dispatchEvent(new dom.window.Event(event));
    };
    arrive('une');
    await settle();
    later(500);
    // The lazy one is not waited for, nor the one already there; a failed one counts as come.
    expect(fetched(dom)).toEqual([]);
    arrive('carte', 'error');
    await settle();
    expect(fetched(dom)).toEqual([]);
    // A frame, then a task: the images are on the screen first.
    later(1000 / 60);
    later(1);
    expect(fetched(dom)).toEqual(['script /mf-radio/remoteEntry.js', '/main.js']);
    later(BOOT_FALLBACK_MS);
    expect(fetched(dom)).toHaveLength(2);
    dom.window.close();
  });

  it('holds the lazy pictures until the first screen is shown, then lets them load with the scripts', async () => {
    const paints = new Paints();
    const dom = page([{ href: '/mf-radio/remoteEntry.js', as: 'script' }], {
      paints,
      images:
        '<img id="une" src="/une.webp" fetchpriority="high">' +
        '<img id="suivante" src="/b.webp" srcset="/b-800.webp 800w, /b.webp 1600w" width="1600" height="900" loading="lazy">',
    });
    const held = () => dom.window.document.documentElement.classList.contains(PICTURES_HELD_CLASS);
    // Out of view by the page's styles (styles/base.css), their addresses and size as the page wrote
    // them: nothing the browser has asked for already is cancelled.
    expect(held()).toBe(true);
    expect(dom.window.document.getElementById('suivante')?.getAttribute('srcset')).toBe(
      '/b-800.webp 800w, /b.webp 1600w',
    );
    paints.report('first-contentful-paint');
    dom.window.document.getElementById('une')?.dispatchEvent(new dom.window.Event('load'));
    await settle();
    expect(held()).toBe(true);
    later(1000 / 60);
    later(1);
    expect(fetched(dom)).toEqual(['script /mf-radio/remoteEntry.js', '/main.js']);
    expect(held()).toBe(false);
    dom.window.close();
  });

  it('lets the lazy pictures load in a tab that paints nothing, with the scripts', () => {
    const dom = page([], { frames: false, images: '<img id="carte" src="/c.webp" loading="lazy">' });
    expect(dom.window.document.documentElement.classList.contains(PICTURES_HELD_CLASS)).toBe(true);
    later(BOOT_FALLBACK_MS);
    expect(dom.window.document.documentElement.classList.contains(PICTURES_HELD_CLASS)).toBe(false);
    dom.window.close();
  });

  it('names the manifest once the first screen is shown, with the page’s credentials, unless the page does', () => {
    const manifests = (dom: JSDOM) =>
      [...dom.window.document.querySelectorAll('link[rel="manifest"]')].map(
        (link) => `${link.getAttribute('href') ?? ''} ${link.getAttribute('crossorigin') ?? ''}`,
      );
    const dom = page([]);
    expect(manifests(dom)).toEqual([]);
    later(1000 / 60);
    later(1);
    expect(manifests(dom)).toEqual(['/manifest.webmanifest use-credentials']);
    later(BOOT_FALLBACK_MS);
    expect(manifests(dom)).toHaveLength(1);
    dom.window.close();
    // A page that names its own (its server wrote it for a shell of before) keeps it alone.
    const named = page([], { head: '<link rel="manifest" href="/manifest.webmanifest">' });
    later(1000 / 60);
    later(1);
    expect(manifests(named)).toEqual(['/manifest.webmanifest ']);
    named.window.close();
  });

  it('waits for the page’s font too, which paints its headings again', async () => {
    const paints = new Paints();
    let arrived: (value?: unknown) => void = () => undefined;
    const dom = page([], { paints, fonts: new Promise((resolve) => (arrived = resolve)) });
    paints.report('first-contentful-paint');
    later(500);
    await settle();
    expect(fetched(dom)).toEqual([]);
    arrived();
    await settle();
    later(1000 / 60);
    later(1);
    expect(fetched(dom)).toEqual(['/main.js']);
    dom.window.close();
  });

  it('makes the display face once the first screen is painted, on a first visit, puts it in the page once it has come, and remembers it', async () => {
    const paints = new Paints();
    const faces = faceOnItsWay();
    const dom = page([], { paints, faces, images: '<img id="une" src="/une.webp">' });
    const asked = () => dom.window.document.documentElement.classList.contains(DISPLAY_FACE_CLASS);
    paints.report('first-contentful-paint');
    later(500);
    // The page's image is on its way: the face would share its bandwidth.
    expect(asked()).toBe(false);
    expect(faces.made).toEqual([]);
    dom.window.document.getElementById('une')?.dispatchEvent(new dom.window.Event('load'));
    await settle();
    later(1000 / 60);
    later(1);
    expect(fetched(dom)).toEqual(['/main.js']);
    expect(asked()).toBe(true);
    // Made from the file the page's styles give, and not yet in the page: laid out again once only.
    expect(faces.made).toEqual([FACE]);
    expect(faces.added).toEqual([]);
    expect(dom.window.localStorage.getItem(DISPLAY_FACE_SEEN)).toBeNull();
    faces.arrive();
    await settle();
    expect(faces.added).toEqual(['Archivo Black']);
    expect(dom.window.localStorage.getItem(DISPLAY_FACE_SEEN)).toBe('1');
    dom.window.close();
  });

  it('puts the display face in the page at once for a browser that has fetched it before', () => {
    const faces = faceOnItsWay();
    const dom = page([], { paints: new Paints(), faces, seen: true });
    expect(dom.window.document.documentElement.classList.contains(DISPLAY_FACE_CLASS)).toBe(true);
    expect(faces.made).toEqual([FACE]);
    expect(faces.added).toEqual(['Archivo Black']);
    // The scripts still wait for the paint.
    expect(fetched(dom)).toEqual([]);
    dom.window.close();
  });

  it('makes the display face and starts where the page may not use its storage', async () => {
    const faces = faceOnItsWay();
    const dom = page([], { faces, storage: false });
    expect(dom.window.document.documentElement.classList.contains(DISPLAY_FACE_CLASS)).toBe(false);
    later(1000 / 60 + 1);
    expect(fetched(dom)).toEqual(['/main.js']);
    expect(dom.window.document.documentElement.classList.contains(DISPLAY_FACE_CLASS)).toBe(true);
    faces.arrive();
    await settle();
    expect(faces.added).toEqual(['Archivo Black']);
    dom.window.close();
  });

  it('starts without the display face where the browser has no FontFace', () => {
    const dom = page([]);
    later(1000 / 60 + 1);
    expect(fetched(dom)).toEqual(['/main.js']);
    expect(dom.window.document.documentElement.classList.contains(DISPLAY_FACE_CLASS)).toBe(true);
    dom.window.close();
  });

  it('starts anyway when the first screen’s image never comes', () => {
    const paints = new Paints();
    const dom = page([], { paints, images: '<img src="/une.webp">' });
    paints.report('first-contentful-paint');
    later(BOOT_FALLBACK_MS - 1);
    expect(fetched(dom)).toEqual([]);
    later(1);
    expect(fetched(dom)).toEqual(['/main.js']);
    dom.window.close();
  });

  it('starts at once when the page was painted before the loader ran', () => {
    const paints = new Paints();
    paints.report('first-contentful-paint');
    const dom = page([], { paints });
    later(0);
    expect(fetched(dom)).toEqual(['/main.js']);
    dom.window.close();
  });

  it('starts anyway when a reported paint never comes', () => {
    const dom = page([], { paints: new Paints() });
    later(BOOT_FALLBACK_MS - 1);
    expect(fetched(dom)).toEqual([]);
    later(1);
    expect(fetched(dom)).toEqual(['/main.js']);
    dom.window.close();
  });

  it('starts anyway in a tab that paints no frame', () => {
    const dom = page([{ href: '/mf-radio/remoteEntry.js', as: 'script' }], { frames: false });
    later(BOOT_FALLBACK_MS - 1);
    expect(fetched(dom)).toEqual([]);
    later(1);
    expect(fetched(dom)).toEqual(['script /mf-radio/remoteEntry.js', '/main.js']);
    dom.window.close();
  });

  it('still starts the shell when the list is unreadable', () => {
    const dom = page([], { list: '{' });
    later(1000 / 60 + 1);
    expect(fetched(dom)).toEqual(['/main.js']);
    dom.window.close();
  });
});

/**
 * What the shell does when an area has hydrated: React attaches its controls' handlers (a listener
 * on the page's root here), then the shell says so (AREA_READY_EVENT).
 */
function hydrate(dom: JSDOM, area: string, pressed: string[]): void {
  dom.window.document.getElementById('root')?.addEventListener('click', (event) => {
    const target = event.target as Element;
    if (
      target.closest(`[data-zone="${area}"]`) !== null ||
      (area === 'shell' && target.closest('[data-zone]') === null)
    ) {
      pressed.push(target.id);
    }
  });
  dom.window.document.dispatchEvent(new dom.window.CustomEvent(AREA_READY_EVENT, { detail: area }));
}

/** The tasks the loader leaves after an area says it is interactive (a timer of 0 ms each). */
const settled = () => {
  later(0);
};

describe('taps before the scripts have run (docs/first-screen.md, « Nothing lost before the scripts arrive »)', () => {
  it('keeps a tap on a button that is not interactive yet, and presses it once its area is', () => {
    const dom = page([]);
    const { document } = dom.window;
    const reached: string[] = [];
    // The page's own root listener, as React's: a tap kept aside does not reach it twice.
    document.getElementById('root')?.addEventListener('click', () => reached.push('root'));
    document.getElementById('pilule')?.click();
    document.getElementById('menu')?.click();
    expect(reached).toEqual([]);
    const pressed: string[] = [];
    // The shell first: its menu button is pressed, the player's is still waiting for its area.
    hydrate(dom, 'shell', pressed);
    settled();
    expect(pressed).toEqual(['menu']);
    hydrate(dom, 'player', pressed);
    settled();
    expect(pressed).toEqual(['menu', 'pilule']);
    // Once interactive, a tap goes straight through, and is never pressed again.
    document.getElementById('pilule')?.click();
    settled();
    expect(pressed).toEqual(['menu', 'pilule', 'pilule']);
    dom.window.close();
  });

  it('leaves alone what works without scripts and what is not the page', () => {
    const dom = page([]);
    const { document } = dom.window;
    const reached: string[] = [];
    document.body.addEventListener('click', (event) => reached.push((event.target as Element).id));
    // A search form submits itself without scripts; a control outside the page is not React's.
    document.getElementById('chercher')?.addEventListener('click', (event) => {
      event.preventDefault();
    });
    document.getElementById('chercher')?.click();
    document.getElementById('dehors')?.click();
    expect(reached).toEqual(['chercher', 'dehors']);
    dom.window.close();
  });

  it('forgets a tap whose button is gone before its area came to life', () => {
    const dom = page([]);
    const { document } = dom.window;
    const button = document.getElementById('pilule');
    button?.click();
    const slot = button?.parentElement;
    button?.remove();
    // The area was rendered again in the browser: a new button in its place.
    const again = document.createElement('button');
    again.id = 'pilule';
    slot?.append(again);
    const pressed: string[] = [];
    hydrate(dom, 'player', pressed);
    settled();
    expect(pressed).toEqual([]);
    dom.window.close();
  });
});
