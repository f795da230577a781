// The loader of a page rendered on the server (docs/first-screen.md, « Scripts after the paint »), the
// one script such a page starts with, written into it and allowed by its hash (computed by the
// shell's build: shared/build/loader.mjs). Built alone by esbuild: it imports only the constants it
// shares with the server and the shell.
//
// A page rendered on the server is readable before any script runs; its scripts (the shell's entry,
// the remote entries, the page's and the player's chunks, the manifests, the table of pages) would
// otherwise share the phone's bandwidth with the page's image and run before the first paint. So the
// page names them in a JSON element, and this loader fetches them once the page is painted and its
// first screen's images have come, and only then lets the page's lazy pictures load and names the
// web app manifest: nothing is requested before the largest paint that the largest paint does not
// need.
//
// The display face waits for the paint too, on a first visit (docs/interface.md, « Typography »): it
// would share the bandwidth with the page's image as much as a script, and `font-display: swap` draws
// the headings in the fallback until it comes. A browser that has it already gets it at once.
//
// It also keeps the taps made on a button before its area is interactive (« Nothing lost before the
// scripts arrive »): React attaches a button's handler when its area hydrates, and a tap before that
// is lost. The shell says when each area is interactive (AREA_READY_EVENT); a tap kept aside is then
// pressed again, or forgotten when its button is gone.
import {
  AREA_ATTRIBUTE,
  AREA_READY_EVENT,
  BOOT_FALLBACK_MS,
  BOOT_ID,
  EARLY_TAP_MAX_MS,
  MANIFEST_PATH,
  PICTURES_HELD_CLASS,
  SHELL_AREA,
  displayFaceSeen,
  showDisplayFace,
  type BootPreload,
} from '@collectif/shared/boot';

const me = document.currentScript;
const main = me?.getAttribute('data-src') ?? null;
let started = false;

function readPreloads(): BootPreload[] {
  try {
    const list = JSON.parse(document.getElementById(BOOT_ID)?.textContent ?? '{}') as { preloads?: unknown };
    return Array.isArray(list.preloads) ? (list.preloads as BootPreload[]) : [];
  } catch {
    return [];
  }
}

/**
 * The pictures the page leaves lazy (the carousel's next slides, the grids past their first row) wait
 * until the first screen is shown: Chromium asks for a lazy picture as soon as it is within a screen
 * or two of the view, in the frame of the first paint, and on a phone's network those shared the
 * bandwidth with the page's largest paint (docs/first-screen.md, « Scripts after the paint »). Moved out
 * of view by the page's styles (`PICTURES_HELD_CLASS`), their box in place. Not by taking their
 * address away: one the browser had already asked for (on a long page, laid out before the loader
 * ran) would be cancelled and asked for twice, and nothing tells it from one not asked for yet.
 */
document.documentElement.classList.add(PICTURES_HELD_CLASS);

/** How many files one task asks for: each costs the main thread a few ms on a phone. */
const PER_TASK = 4;

function start(): void {
  if (started) return;
  started = true;
  document.documentElement.classList.remove(PICTURES_HELD_CLASS);
  showDisplayFace();
  // Attributes, as the page writes them (`as` is not a reflected property in every browser).
  const link = (attributes: Record<string, string | undefined>): HTMLLinkElement => {
    const element = document.createElement('link');
    for (const [name, value] of Object.entries(attributes)) if (value !== undefined) element.setAttribute(name, value);
    return element;
  };
  const files: HTMLElement[] = [];
  // The manifest, which the browser would otherwise ask for as the page loads, before its largest
  // picture is shown; with the page's credentials, on the page's connection.
  if (document.querySelector('link[rel="manifest"]') === null) {
    files.push(link({ rel: 'manifest', href: MANIFEST_PATH, crossorigin: 'use-credentials' }));
  }
  for (const { as, href, crossorigin } of readPreloads()) files.push(link({ rel: 'preload', as, href, crossorigin }));
  if (main !== null) {
    const script = document.createElement('script');
    script.setAttribute('src', main);
    files.push(script);
  }
  // A few files a task, in their order, each group in one insertion: asking for a file costs the
  // main thread a few ms on a phone, and the twenty of a page in one task blocked a tap for 100 ms
  // under a 4× slower CPU (docs/first-screen.md, « Scripts after the paint »).
  const ask = (from: number): void => {
    const batch = document.createDocumentFragment();
    batch.append(...files.slice(from, from + PER_TASK));
    document.head.append(batch);
    if (from + PER_TASK < files.length) setTimeout(ask, 0, from + PER_TASK);
  };
  ask(0);
}

/**
 * Once the first screen's images and fonts have come (or failed), after the frame that shows them; at
 * once (one task later) when none is on its way. They are the page's largest paint (a heading's text
 * is painted again when its font arrives, on a visit that asked for it at once): a script asked for
 * before they arrive would share the phone's bandwidth with them. An image the page leaves lazy is
 * not waited for.
 */
function afterImages(): void {
  const waiting: Promise<unknown>[] = [...document.images]
    .filter((image) => image.getAttribute('loading') !== 'lazy' && !image.complete)
    .map(
      (image) =>
        new Promise((done) => {
          image.addEventListener('load', done);
          image.addEventListener('error', done);
        }),
    );
  const fonts = document.fonts as FontFaceSet | undefined;
  if (fonts?.status === 'loading') waiting.push(fonts.ready);
  if (waiting.length === 0) {
    setTimeout(start, 0);
    return;
  }
  void Promise.allSettled(waiting).then(() => {
    requestAnimationFrame(() => {
      setTimeout(start, 0);
    });
  });
}

/**
 * After the first contentful paint as the browser reports it (else one frame and one task), and the
 * first screen's images.
 */
function afterPaint(): void {
  try {
    if (PerformanceObserver.supportedEntryTypes.includes('paint')) {
      const observer = new PerformanceObserver((list) => {
        if (!list.getEntries().some((entry) => entry.name === 'first-contentful-paint')) return;
        observer.disconnect();
        afterImages();
      });
      observer.observe({ type: 'paint', buffered: true });
      return;
    }
  } catch {
    // A browser that does not report its paints.
  }
  requestAnimationFrame(afterImages);
}

if (displayFaceSeen()) showDisplayFace();
afterPaint();
// A tab in the background paints no frame.
setTimeout(start, BOOT_FALLBACK_MS);

const root = document.getElementById('root');
const ready = new Set<string>();
let kept: HTMLElement[] = [];
let since = 0;

const areaOf = (control: Element): string =>
  control.closest(`[${AREA_ATTRIBUTE}]`)?.getAttribute(AREA_ATTRIBUTE) ?? SHELL_AREA;

document.addEventListener(AREA_READY_EVENT, (event) => {
  const area = (event as CustomEvent<unknown>).detail;
  if (typeof area !== 'string') return;
  ready.add(area);
  // A task later: out of the shell's commit, as a tap would be.
  setTimeout(() => {
    const late = Date.now() - since > EARLY_TAP_MAX_MS;
    const waiting: HTMLElement[] = [];
    for (const control of kept) {
      if (!control.isConnected || late) continue;
      if (ready.has(areaOf(control))) control.click();
      else waiting.push(control);
    }
    kept = waiting;
  }, 0);
});

document.addEventListener(
  'click',
  (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const control = target?.closest<HTMLElement>('button, [role="button"]') ?? null;
    if (control === null || root === null || !root.contains(control)) return;
    if (control instanceof HTMLButtonElement && (control.disabled || (control.type === 'submit' && control.form)))
      return;
    if (ready.has(areaOf(control))) return;
    event.stopPropagation();
    if (kept.includes(control)) return;
    if (kept.length === 0) since = Date.now();
    kept.push(control);
  },
  true,
);
