import { JSDOM } from 'jsdom';
import { headElements, jsonElement, scriptJson } from '@collectif/shared/seo';
import { inlineHash } from '../headers';
import { LOADER } from './fixtures';
import { readShellAssets, renderDocument, type ShellAssets } from './document';

const assets: ShellAssets = {
  scripts: ['/main.0123456789.js'],
  styles: ['/main.abcdef0123.css'],
  fonts: ['/files/archivo.0123456789.woff2'],
  loader: LOADER,
};

const head = (alternates?: { type: string; href: string; title: string }[]) =>
  headElements(
    {
      title: 'Axonberg · Synapses · Résidences',
      description: 'Voyage.',
      canonical: 'https://radio.example.org/residences/axonberg',
      ...(alternates === undefined ? {} : { alternates }),
    },
    'Collectif',
  );

const rendered = (alternates?: { type: string; href: string; title: string }[]) =>
  renderDocument({
    assets,
    head: [...head(alternates), jsonElement('pages-config', [{ path: '</script>' }])],
    rendered: {
      body: '<main><h1>Axonberg</h1></main>',
      state: scriptJson({ api: { note: '</script><script>alert(1)</script>' } }),
    },
  });

const parse = (html: string) => new JSDOM(html).window.document;

describe('the document (the page as sent)', () => {
  it('is written from data: the head, the shell’s fonts and styles, the page and its state', () => {
    const html = rendered();
    expect(html.startsWith('<!doctype html><html lang="fr"><head><meta charSet="utf-8"/>')).toBe(true);
    const document = parse(html);
    expect(document.title).toBe('Axonberg · Synapses · Résidences');
    expect(document.querySelector('link[rel=canonical]')?.getAttribute('href')).toBe(
      'https://radio.example.org/residences/axonberg',
    );
    expect(document.querySelector('link[rel=stylesheet]')?.getAttribute('href')).toBe('/main.abcdef0123.css');
    expect(document.querySelector('link[rel=preload][as=font]')?.getAttribute('href')).toBe(
      '/files/archivo.0123456789.woff2',
    );
    expect(document.getElementById('root')?.innerHTML).toBe('<main><h1>Axonberg</h1></main>');
    // Nothing a value holds closes its script element.
    expect(JSON.parse(document.getElementById('ssr-state')?.textContent ?? '')).toEqual({
      api: { note: '</script><script>alert(1)</script>' },
    });
    expect(JSON.parse(document.getElementById('pages-config')?.textContent ?? '')).toEqual([{ path: '</script>' }]);
    expect(document.querySelectorAll('script:not([type])')).toHaveLength(1);
  });

  it('hands the entry to the loader on a page rendered on the server, and loads it at once otherwise', () => {
    const page = parse(rendered());
    // The loader is in the page, after its content: no script file to fetch before the paint.
    expect(page.querySelector('script[src]')).toBeNull();
    const loader = page.querySelector('script[data-src]');
    expect(loader?.getAttribute('data-src')).toBe('/main.0123456789.js');
    expect(loader?.textContent).toBe(LOADER.source);
    expect(loader?.parentElement?.tagName).toBe('BODY');
    expect(page.getElementById('root')?.compareDocumentPosition(loader!)).toBe(4); // following
    const browser = parse(renderDocument({ assets, head: head() }));
    expect(browser.querySelector('script[src]')?.getAttribute('src')).toBe('/main.0123456789.js');
    expect(browser.querySelector('script[src]')?.hasAttribute('defer')).toBe(true);
    expect(browser.getElementById('root')?.innerHTML).toBe('');
    expect(browser.getElementById('ssr-state')).toBeNull();
    // A shell built before its loader: the rendered page loads the entry at once.
    const older = parse(
      renderDocument({ assets: { ...assets, loader: null }, head: head(), rendered: { body: '', state: '{}' } }),
    );
    expect(older.querySelector('script[data-src]')).toBeNull();
    expect(older.querySelector('script[src]')?.getAttribute('src')).toBe('/main.0123456789.js');
  });

  it('writes the page’s feeds as alternates, escaped, in the head', () => {
    const document = parse(
      rendered([
        { type: 'application/rss+xml', href: 'https://radio.example.org/residences/a/feed.xml', title: 'A "&" <b>' },
      ]),
    );
    const alternate = document.head.querySelector('link[rel=alternate]');
    expect(alternate?.getAttribute('title')).toBe('A "&" <b>');
    expect(alternate?.getAttribute('href')).toBe('https://radio.example.org/residences/a/feed.xml');
    expect(parse(rendered()).querySelector('link[rel=alternate]')).toBeNull();
  });

  it('keeps the manifest, the icons and the theme colour of every page (docs/feeds.md, « Installable »)', () => {
    const document = parse(rendered());
    expect(document.querySelector('link[rel=manifest]')?.getAttribute('href')).toBe('/manifest.webmanifest');
    expect(document.querySelector('meta[name=theme-color]')?.getAttribute('content')).toMatch(/^#[\da-f]{6}$/);
    expect(document.querySelector('link[rel=apple-touch-icon]')?.getAttribute('href')).toBe(
      '/assets/images/icon-192.png',
    );
    expect(document.querySelector('noscript')?.textContent).toBe(
      'La radio en direct et les replays ont besoin de JavaScript.',
    );
  });
});

describe("the shell's list of its assets", () => {
  it('is read when it names addresses of the site, and refused otherwise', () => {
    expect(readShellAssets(assets)).toEqual(assets);
    expect(() => readShellAssets({ ...assets, scripts: ['https://ailleurs.example/x.js'] })).toThrow(
      "document.json : « scripts » doit être une liste d'adresses du site",
    );
    expect(() => readShellAssets({ ...assets, styles: ['/x.css" onload="alert(1)'] })).toThrow(/styles/);
    expect(() => readShellAssets(null)).toThrow(/scripts/);
    // The loader's hash must be its text's (the policy would refuse it), and it cannot end its element.
    expect(() => readShellAssets({ ...assets, loader: { ...LOADER, source: `${LOADER.source};alert(1)` } })).toThrow(
      /« loader »/,
    );
    const closing = '</script><script>alert(1)';
    expect(() => readShellAssets({ ...assets, loader: { source: closing, hash: inlineHash(closing) } })).toThrow(
      /« loader » ne peut pas/,
    );
    const { loader: _loader, ...older } = assets;
    expect(readShellAssets(older).loader).toBeNull();
  });
});
