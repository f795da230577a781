import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { JSDOM } from 'jsdom';
import * as v from 'valibot';
import { headElements, scriptJson } from '@collectif/shared/seo';
import { LOADER } from './fixtures';
import { radioSettings } from '@collectif/shared/config';
import { contentSecurityPolicy, documentPolicy, inlineHash } from './csp';
import { invalidAddressPage, renderDocument } from './document';
import { createStyleReader, iconReader } from './inline-assets';
import { pageModel } from './page-writer';
import { readShellAssets, shellAssetsReader, type ShellAssets } from './shell-assets';
import { shellSheetFile, sitePath } from './site-paths';

/** A shell that reads the table of pages from the page (one built before it left the documents). */
const assets: ShellAssets = {
  scripts: ['/main.0123456789.js'],
  styles: ['/main.abcdef0123.css'],
  fonts: ['/files/archivo.0123456789.woff2'],
  loader: LOADER,
  pageTable: 'page',
  manifest: 'page',
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

/** The model of a page rendered on the server, as render/model.ts makes it. */
const rendered = (alternates?: { type: string; href: string; title: string }[]) =>
  renderDocument(
    pageModel({
      assets,
      shellStyles: new Map(),
      head: head(alternates),
      pages: [{ path: '</script>', remote: 'radio', module: 'HomePage', title: 'x', area: 'x' }],
      radio: radioSettings(),
      remotes: REMOTES,
      hints: { links: [], sheets: [], boot: [{ href: '/mf-radio/remoteEntry.js', as: 'script' }] },
      rendered: {
        body: '<main><h1>Axonberg</h1></main>',
        state: scriptJson({ api: { note: '</script><script>alert(1)</script>' } }),
        router: scriptJson({ loaderData: { 'page:radio/HomePage:': null } }),
      },
    }),
  );

const REMOTES = {
  player: '/mf-player/mf-manifest.json',
  radio: '/mf-radio/mf-manifest.json',
  label: '/mf-label/mf-manifest.json',
  about: '/mf-about/mf-manifest.json',
  admin: '/mf-admin/mf-manifest.json',
};

/** The same page, the browser to render it (or written with another shell's build). */
const browserRendered = (shell: ShellAssets = assets) =>
  renderDocument(
    pageModel({
      assets: shell,
      shellStyles: new Map(),
      head: head(),
      pages: [],
      radio: radioSettings(),
      remotes: REMOTES,
      hints: { links: [], sheets: [], boot: null },
    }),
  );

const parse = (html: string) => new JSDOM(html).window.document;

describe('the document (the page as sent)', () => {
  it('is written from data: the head, the shell’s styles, the page and its state', () => {
    const html = rendered();
    expect(html.startsWith('<!doctype html><html lang="fr"><head><meta charSet="utf-8"/>')).toBe(true);
    const document = parse(html);
    expect(document.title).toBe('Axonberg · Synapses · Résidences');
    expect(document.querySelector('link[rel=canonical]')?.getAttribute('href')).toBe(
      'https://radio.example.org/residences/axonberg',
    );
    expect(document.querySelector('link[rel=stylesheet]')?.getAttribute('href')).toBe('/main.abcdef0123.css');
    expect(document.getElementById('root')?.innerHTML).toBe('<main><h1>Axonberg</h1></main>');
    // Nothing a value holds closes its script element.
    expect(JSON.parse(document.getElementById('ssr-state')?.textContent ?? '')).toEqual({
      api: { note: '</script><script>alert(1)</script>' },
    });
    expect(JSON.parse(document.getElementById('pages-config')?.textContent ?? '')).toEqual([
      expect.objectContaining({ path: '</script>' }),
    ]);
    expect(JSON.parse(document.getElementById('remotes-config')?.textContent ?? '')).toEqual(REMOTES);
    expect(JSON.parse(document.getElementById('radio-config')?.textContent ?? '')).toEqual(radioSettings());
    expect(JSON.parse(document.getElementById('boot')?.textContent ?? '')).toEqual({
      preloads: [{ href: '/mf-radio/remoteEntry.js', as: 'script' }],
    });
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
    const browser = parse(browserRendered());
    expect(browser.querySelector('script[src]')?.getAttribute('src')).toBe('/main.0123456789.js');
    expect(browser.querySelector('script[src]')?.hasAttribute('defer')).toBe(true);
    expect(browser.getElementById('root')?.innerHTML).toBe('');
    expect(browser.getElementById('ssr-state')).toBeNull();
  });

  it('preloads the display face on a page the browser renders, and leaves it to the loader otherwise', () => {
    // A page rendered on the server is read before any script, its image first: the loader asks for
    // the face once the first screen is painted (docs/interface.md, « Typography »).
    expect(parse(rendered()).querySelector('link[rel=preload][as=font]')).toBeNull();
    const browser = parse(browserRendered());
    expect(browser.querySelector('link[rel=preload][as=font]')?.getAttribute('href')).toBe(
      '/files/archivo.0123456789.woff2',
    );
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

  it('keeps the manifest, the icons and the theme colour of every page (docs/published.md, « Installable »)', () => {
    const document = parse(rendered());
    expect(document.querySelector('link[rel=manifest]')?.getAttribute('href')).toBe('/manifest.webmanifest');
    // Asked for on the page's own connection, not on a new one (docs/first-screen.md, « The first screen's budget »).
    expect(document.querySelector('link[rel=manifest]')?.getAttribute('crossorigin')).toBe('use-credentials');
    expect(document.querySelector('meta[name=theme-color]')?.getAttribute('content')).toMatch(/^#[\da-f]{6}$/);
    expect(document.querySelector('link[rel=apple-touch-icon]')?.getAttribute('href')).toBe(
      '/assets/images/icon-192.png',
    );
    expect(document.querySelector('noscript')?.textContent).toBe(
      'La radio en direct et les replays ont besoin de JavaScript.',
    );
  });
});

describe('the table of pages', () => {
  const table = { href: '/pages.json', as: 'fetch', crossorigin: 'anonymous' };

  it('leaves the documents when the shell reads it from its file: the loader asks for it first', () => {
    // docs/rendering.md, « The document »: 600 bytes of every page, and its scripts need it only.
    const page = parse(
      renderDocument(
        pageModel({
          assets: { ...assets, pageTable: 'file' },
          shellStyles: new Map(),
          head: head(),
          pages: [{ path: 'label', remote: 'label', module: 'LabelPage', title: 'Label', area: 'Le label' }],
          radio: radioSettings(),
          remotes: REMOTES,
          hints: { links: [], sheets: [], boot: [{ href: '/mf-label/remoteEntry.js', as: 'script' }] },
          rendered: { body: '<main></main>', state: '{}', router: '{}' },
        }),
      ),
    );
    expect(page.getElementById('pages-config')).toBeNull();
    expect(page.documentElement.outerHTML).not.toContain('Le label');
    expect(JSON.parse(page.getElementById('boot')?.textContent ?? '')).toEqual({
      preloads: [table, { href: '/mf-label/remoteEntry.js', as: 'script' }],
    });
    // Nothing asked for before the paint: the loader names it.
    expect(page.querySelector('link[href="/pages.json"]')).toBeNull();
  });

  it('is announced beside the scripts of a page the browser renders', () => {
    const page = parse(browserRendered({ ...assets, pageTable: 'file' }));
    expect(page.getElementById('pages-config')).toBeNull();
    const link = page.querySelector('link[href="/pages.json"]');
    expect(link?.getAttribute('rel')).toBe('preload');
    expect(link?.getAttribute('as')).toBe('fetch');
    // As the shell's fetch asks for it (same origin, its credentials): the preload is used.
    expect(link?.getAttribute('crossorigin')).toBe('anonymous');
  });

  it('stays in the page for a shell whose list does not say it reads the file', () => {
    expect(readShellAssets({ ...assets, pageTable: 'file' }).pageTable).toBe('file');
    const { pageTable: _where, ...older } = assets;
    expect(readShellAssets(older).pageTable).toBe('page');
    expect(readShellAssets({ ...older, pageTable: '/ailleurs.json' }).pageTable).toBe('page');
    const page = parse(browserRendered(readShellAssets(older)));
    expect(page.getElementById('pages-config')).not.toBeNull();
    expect(page.querySelector('link[href="/pages.json"]')).toBeNull();
  });
});

describe('what the browser asks for as the page loads (docs/rendering.md, « The first screen’s budget »)', () => {
  const model = (shell: ShellAssets, rendered: boolean, icon?: string) =>
    parse(
      renderDocument(
        pageModel({
          assets: shell,
          shellStyles: new Map(),
          head: head(),
          pages: [],
          radio: radioSettings(),
          remotes: REMOTES,
          hints: { links: [], sheets: [], boot: rendered ? [] : null },
          ...(rendered ? { rendered: { body: '<main></main>', state: '{}', router: '{}' } } : {}),
          ...(icon === undefined ? {} : { icon }),
        }),
      ),
    );

  it('leaves the manifest to a loader that names it, once the first screen is shown', () => {
    expect(readShellAssets({ ...assets, manifest: 'loader' }).manifest).toBe('loader');
    expect(readShellAssets({ ...assets, manifest: 'ailleurs' }).manifest).toBe('page');
    expect(model({ ...assets, manifest: 'loader' }, true).querySelector('link[rel=manifest]')).toBeNull();
    // A shell built before names it nowhere else; a page the browser renders has no loader.
    expect(model(assets, true).querySelector('link[rel=manifest]')).not.toBeNull();
    expect(model({ ...assets, manifest: 'loader' }, false).querySelector('link[rel=manifest]')).not.toBeNull();
  });

  it('writes a small SVG logo into the page as the tab’s icon; any other stays its file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'icone-'));
    try {
      mkdirSync(join(dir, 'images'));
      const logo = join(dir, 'images', 'logo.svg');
      const icon = () => model(assets, true, iconReader(dir)()).querySelector('link[rel=icon]')?.getAttribute('href');
      expect(icon()).toBe('/assets/images/logo.svg');
      const svg = '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 40"><circle r="6" fill="#ffcf3f"/></svg>';
      writeFileSync(logo, `${svg}\n`);
      expect(icon()).toBe(
        "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg' viewBox='0 0 40 40'><circle r='6' fill='%23ffcf3f'/></svg>",
      );
      // What an address would lose or misread is escaped: a fragment's `#`, `%`, line ends; quotes
      // stay the file's when it has single ones of its own.
      writeFileSync(logo, `<svg>\n<text font-family="'A'">100%</text></svg>`);
      expect(icon()).toBe('data:image/svg+xml,<svg>%0A<text font-family=%22%27A%27%22>100%25</text></svg>');
      // Nothing of it leaves the attribute, whatever the file holds: one icon, no element more.
      writeFileSync(logo, '<svg>"><script>alert(1)</script></svg>');
      const page = model(assets, true, iconReader(dir)());
      expect(page.querySelectorAll('link[rel=icon]')).toHaveLength(1);
      expect(page.querySelectorAll('head script:not([type])')).toHaveLength(0);
      expect(page.querySelector('link[rel=icon]')?.getAttribute('href')).toBe(
        "data:image/svg+xml,<svg>'><script>alert(1)</script></svg>",
      );
      writeFileSync(logo, `<svg>${' '.repeat(2000)}</svg>`);
      expect(icon()).toBe('/assets/images/logo.svg');
      writeFileSync(logo, 'GIF89a');
      expect(icon()).toBe('/assets/images/logo.svg');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the policy of a page, from its model', () => {
  it('allows each sheet written into the page and the loader by their hashes, and nothing inline else', () => {
    const model = pageModel({
      assets: { ...assets, styles: ['/main.abcdef0123.css', '/lien.css'] },
      shellStyles: new Map([['/main.abcdef0123.css', 'body{margin:0}']]),
      head: head(),
      pages: [],
      radio: radioSettings(),
      remotes: REMOTES,
      hints: {
        links: [],
        sheets: [
          { href: '/mf-radio/a.css', css: '.a{color:red}' },
          { href: '/main.abcdef0123.css', css: 'body{margin:0}' },
        ],
        boot: [],
      },
      rendered: { body: '', state: '{}', router: '{}' },
    });
    const policy = documentPolicy(model, contentSecurityPolicy(REMOTES, radioSettings()));
    const styleSrc = /style-src ([^;]*)/.exec(policy)?.[1]?.split(' ') ?? [];
    expect(styleSrc).toEqual(expect.arrayContaining([inlineHash('body{margin:0}'), inlineHash('.a{color:red}')]));
    expect(styleSrc.filter((source) => source.startsWith("'sha256-"))).toHaveLength(2);
    expect(/script-src ([^;]*)/.exec(policy)?.[1]?.split(' ')).toContain(LOADER.hash);
    expect(policy).not.toContain('unsafe-inline');
    // In the order they apply: the shell's written sheet, its linked one, then the area's.
    const document = parse(renderDocument(model));
    expect([...document.head.querySelectorAll('style, link[rel=stylesheet]')].map((sheet) => sheet.outerHTML)).toEqual([
      '<style data-href="/main.abcdef0123.css">body{margin:0}</style>',
      '<link rel="stylesheet" href="/lien.css">',
      '<style data-href="/mf-radio/a.css">.a{color:red}</style>',
    ]);
  });

  it('writes the page of an address that cannot be read with the same document', () => {
    const document = parse(invalidAddressPage());
    expect(document.title).toBe('Adresse invalide');
    expect(document.documentElement.lang).toBe('fr');
    expect(document.querySelector('h1')?.textContent).toBe('Adresse invalide');
    expect(document.querySelector('a')?.getAttribute('href')).toBe('/');
    expect(document.querySelector('script')).toBeNull();
  });
});

describe("the shell's list of its assets", () => {
  it('is read when it names addresses of the site; any other address is left out, and said', () => {
    expect(readShellAssets(assets)).toEqual(assets);
    const warnings: string[] = [];
    const warn = (message: string) => warnings.push(message);
    expect(readShellAssets({ ...assets, scripts: ['https://ailleurs.example/x.js', '/main.js'] }, { warn })).toEqual({
      ...assets,
      scripts: ['/main.js'],
    });
    expect(readShellAssets({ ...assets, styles: ['/x.css" onload="alert(1)'] }, { warn }).styles).toEqual([]);
    expect(warnings).toEqual([
      "document.json : « https://ailleurs.example/x.js » (scripts) n'est pas une adresse du site (un seul « / » au début)",
      expect.stringMatching(
        /^document\.json : « \/x\.css" onload="alert\(1\) » \(styles\) contient un caractère interdit/,
      ),
    ]);
    // The list itself must be a list of texts.
    expect(() => readShellAssets({ ...assets, styles: '/main.css' })).toThrow(
      "document.json : « styles » doit être une liste d'adresses du site",
    );
    expect(() => readShellAssets(null)).toThrow(/scripts/);
    // The loader's hash must be its text's (the policy would refuse it), and it cannot end its element.
    expect(() => readShellAssets({ ...assets, loader: { ...LOADER, source: `${LOADER.source};alert(1)` } })).toThrow(
      /« loader »/,
    );
    const closing = '</script><script>alert(1)';
    expect(() => readShellAssets({ ...assets, loader: { source: closing, hash: inlineHash(closing) } })).toThrow(
      /« loader » ne peut pas/,
    );
    // A shell built before its loader (before contract 2.5.0) is refused since contract 3.0.0.
    const { loader: _loader, ...older } = assets;
    expect(() => readShellAssets(older)).toThrow(
      'document.json : « loader » manque (un shell construit avant le contrat 2.5.0)',
    );
  });

  it('is read again when it changes; a list it cannot use is logged once, and the last usable one kept', () => {
    const dir = mkdtempSync(join(tmpdir(), 'document-'));
    const file = join(dir, 'document.json');
    const warnings: string[] = [];
    const shellAssets = shellAssetsReader(file, (message) => warnings.push(message));
    try {
      // Nothing built: no list (the site answers 503).
      expect(shellAssets()).toBeNull();
      writeFileSync(file, JSON.stringify({ ...assets, scripts: 'https://ailleurs.example/x.js' }));
      expect(shellAssets()).toBeNull();
      writeFileSync(file, JSON.stringify(assets));
      expect(shellAssets()).toEqual(assets);
      writeFileSync(file, '{"scripts":');
      expect([shellAssets(), shellAssets()]).toEqual([assets, assets]);
      // An older shell's list, without its loader: the site goes on with the last usable one.
      const { loader: _loader, ...older } = assets;
      writeFileSync(file, JSON.stringify(older));
      expect(shellAssets()).toEqual(assets);
      expect(warnings).toEqual([
        expect.stringMatching(
          /^Liste des fichiers du shell inutilisable \(.*document\.json\) : document\.json : « scripts »/,
        ),
        expect.stringMatching(/document\.json\) : .+ ; la dernière version utilisable reste en service$/),
        expect.stringMatching(/document\.json\) : document\.json : « loader » manque .+ reste en service$/),
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Addresses a hostile shell build could list to have the server read a file outside its folder. */
const CLIMBING = [
  '/../../../../../../../../proc/self/environ',
  '/files/../../secret.css',
  '/./main.css',
  '/%2e%2e/secret.css',
  '/%2E%2E/secret.css',
  '/..%2fsecret.css',
  '/%252e%252e/secret.css',
  '/..\\secret.css',
  '/secret.css\0',
  '//ailleurs.example/secret.css',
  'C:/secret.css',
  'secret.css',
  '/files//secret.css',
];

describe('the addresses of document.json, read where they are used', () => {
  let root: string;
  let shellDir: string;
  beforeEach(() => {
    // The shell's folder is reached through a link, as a deployed part's `live` version is.
    root = mkdtempSync(join(tmpdir(), 'document-paths-'));
    mkdirSync(join(root, 'versions', 'v1', 'files'), { recursive: true });
    symlinkSync(join('versions', 'v1'), join(root, 'live'));
    shellDir = join(root, 'live');
    writeFileSync(join(root, 'versions', 'v1', 'main.css'), 'body{margin:0}');
    // Beside the shell's folder, what no page may carry: the server's environment, say.
    writeFileSync(join(root, 'secret.css'), 'SECRET=hunter2');
    writeFileSync(join(root, 'versions', 'secret.css'), 'SECRET=hunter2');
    symlinkSync(join(root, 'secret.css'), join(root, 'versions', 'v1', 'lien.css'));
    symlinkSync(join(root, 'nulle-part.css'), join(root, 'versions', 'v1', 'cassé.css'));
  });
  afterEach(() => {
    rmSync(root, { recursive: true, force: true });
  });

  it('are clean paths of the shell’s folder: dot segments, escapes and other hosts are refused', () => {
    for (const href of CLIMBING) {
      expect([href, v.is(sitePath, href)]).toEqual([href, false]);
      expect([href, shellSheetFile(shellDir, href)]).toEqual([href, null]);
    }
    expect(v.is(sitePath, '/files/archivo.0123456789.woff2')).toBe(true);
    expect(v.is(sitePath, '/assets/images/a%20b.webp')).toBe(true);
  });

  it('never lead a sheet read from disk out of the folder’s real path, through a link either', () => {
    expect(shellSheetFile(shellDir, '/main.css')).toBe(join(root, 'versions', 'v1', 'main.css'));
    expect(shellSheetFile(shellDir, '/lien.css')).toBeNull();
    expect(shellSheetFile(shellDir, '/cassé.css')).toBeNull();
    expect(shellSheetFile(shellDir, '/absent.css')).toBeNull();
    // A link made once the list was read is not followed out either.
    symlinkSync(join(root, 'secret.css'), join(root, 'versions', 'v1', 'plus-tard.css'));
    expect(shellSheetFile(shellDir, '/plus-tard.css')).toBeNull();
  });

  it('on disk, written by hand: each bad address is ignored with a warning, and the page is still written without it', () => {
    const file = join(shellDir, 'document.json');
    const styles = ['/main.css', ...CLIMBING.filter((href) => !href.includes('\0')), '/lien.css'];
    writeFileSync(file, JSON.stringify({ ...assets, styles }));
    const warnings: string[] = [];
    const shellAssets = shellAssetsReader(file, (message) => warnings.push(message));
    const read = shellAssets();
    expect(read?.styles).toEqual(['/main.css']);
    expect(warnings).toHaveLength(styles.length - 1);
    expect(warnings[0]).toBe(
      `Liste des fichiers du shell (${file}) : document.json : « /../../../../../../../../proc/self/environ » (styles) a un segment « . » ou « .. » ; adresse ignorée`,
    );
    expect(warnings.at(-1)).toMatch(
      /« \/lien\.css » \(styles\) mène hors du dossier du shell \(lien\) ; adresse ignorée$/,
    );

    // The page, as the server writes it from the list (`createPageWriter`): the shell's own sheet written
    // in, nothing of what is outside its folder.
    const readStyle = createStyleReader();
    const listed = read ?? assets;
    const shellStyles = new Map<string, string>();
    for (const href of [...listed.styles, ...styles]) {
      const css = readStyle(shellSheetFile(shellDir, href));
      if (css !== null) shellStyles.set(href, css);
    }
    expect([...shellStyles]).toEqual([['/main.css', 'body{margin:0}']]);
    const html = renderDocument(
      pageModel({
        assets: listed,
        shellStyles,
        head: head(),
        pages: [],
        radio: radioSettings(),
        remotes: REMOTES,
        hints: { links: [], sheets: [], boot: null },
      }),
    );
    expect(html).toContain('<style data-href="/main.css">body{margin:0}</style>');
    expect(html).not.toContain('SECRET');
    expect(html).not.toContain('environ');
  });
});
