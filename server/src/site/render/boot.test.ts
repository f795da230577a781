import { JSDOM } from 'jsdom';
import { BOOT_FALLBACK_MS, BOOT_ID, BOOT_PATH, BOOT_SOURCE, deferEntry } from './boot';

describe("the shell's entry in a page rendered on the server", () => {
  it('is handed to the loader, minified template or not', () => {
    expect(deferEntry('<head><script defer src=/main.0123456789.js></script></head>')).toBe(
      `<head><script defer src="${BOOT_PATH}" data-src="/main.0123456789.js"></script></head>`,
    );
    expect(deferEntry('<head><script defer="defer" src="/main.js"></script><link href="/main.css"></head>')).toBe(
      `<head><script defer src="${BOOT_PATH}" data-src="/main.js"></script><link href="/main.css"></head>`,
    );
  });

  it('leaves a template without a deferred entry as it is', () => {
    const template = '<head><script src="/main.js"></script></head>';
    expect(deferEntry(template)).toBe(template);
  });

  it('is served under a name that changes with the loader', () => {
    expect(BOOT_PATH).toMatch(/^\/boot\.[0-9a-f]{10}\.js$/);
  });
});

/**
 * A page as the server sends it, the loader run as a browser runs it (jsdom, real timers). Without
 * `frames`, the page is a tab in the background: no animation frame ever comes.
 */
function page(preloads: unknown, { frames = true, list = JSON.stringify({ preloads }) } = {}): JSDOM {
  const dom = new JSDOM(
    `<!doctype html><html><head><script type="application/json" id="${BOOT_ID}">${list}</script></head><body></body></html>`,
    { runScripts: 'outside-only', pretendToBeVisual: true },
  );
  if (!frames) dom.window.requestAnimationFrame = () => 0;
  const loader = dom.window.document.createElement('script');
  loader.setAttribute('data-src', '/main.js');
  dom.window.document.head.append(loader);
  Object.defineProperty(dom.window.document, 'currentScript', { value: loader, configurable: true });
  dom.window.eval(BOOT_SOURCE);
  return dom;
}

const fetched = (dom: JSDOM) => [
  ...[...dom.window.document.querySelectorAll('link[rel="preload"]')].map(
    (link) => `${link.getAttribute('as') ?? ''} ${link.getAttribute('href') ?? ''}`,
  ),
  ...[...dom.window.document.querySelectorAll('script[src]')].map((script) => script.getAttribute('src')),
];

const wait = (ms: number) =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

describe('the loader', () => {
  it('fetches nothing while the document is painted, then the preloads and the entry, once', async () => {
    const dom = page([
      { href: '/mf-radio/mf-manifest.json', as: 'fetch', crossorigin: 'anonymous' },
      { href: '/mf-radio/remoteEntry.js', as: 'script' },
    ]);
    expect(fetched(dom)).toEqual([]);
    // A frame, then a task: the page is painted first.
    await wait(100);
    expect(fetched(dom)).toEqual(['fetch /mf-radio/mf-manifest.json', 'script /mf-radio/remoteEntry.js', '/main.js']);
    const manifest = dom.window.document.querySelector('link[as="fetch"]');
    expect(manifest?.getAttribute('crossorigin')).toBe('anonymous');
    // Once only: the fallback timer, later, adds nothing.
    await wait(BOOT_FALLBACK_MS);
    expect(fetched(dom)).toHaveLength(3);
    dom.window.close();
  });

  it('starts anyway in a tab that paints no frame', async () => {
    const dom = page([{ href: '/mf-radio/remoteEntry.js', as: 'script' }], { frames: false });
    await wait(BOOT_FALLBACK_MS - 500);
    expect(fetched(dom)).toEqual([]);
    await wait(700);
    expect(fetched(dom)).toEqual(['script /mf-radio/remoteEntry.js', '/main.js']);
    dom.window.close();
  });

  it('still starts the shell when the list is unreadable', async () => {
    const dom = page([], { list: '{' });
    await wait(100);
    expect(fetched(dom)).toEqual(['/main.js']);
    dom.window.close();
  });
});
