import { mkdirSync, mkdtempSync, rmSync, symlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { jsonElement } from '@collectif/shared/seo';
import { BOOT_ID } from '@collectif/shared/boot';
import { createHints } from './hints';
import { pageMeta } from './page-writer';
import type { PagePreload, RemoteName, RemotesConfig } from '@collectif/shared';
import { declaredPages, headHtml } from '@collectif/shared/testing';

// The site's pages as the remotes declare them, as the server reads them before each page.
const pages = declaredPages();

let dir: string;
const REMOTES: RemotesConfig = {
  player: '/mf-player/mf-manifest.json',
  radio: '/mf-radio/mf-manifest.json',
  label: '/mf-label/mf-manifest.json',
  about: '/mf-about/mf-manifest.json',
  admin: '/mf-admin/mf-manifest.json',
};

function write(path: string, content: unknown): void {
  mkdirSync(join(dir, path, '..'), { recursive: true });
  writeFileSync(join(dir, path), typeof content === 'string' ? content : JSON.stringify(content));
}

function manifest(exposes: Record<string, { js: string[]; css?: string[] }>) {
  return {
    id: 'x',
    metaData: { remoteEntry: { name: 'remoteEntry.js', path: '', type: 'global' }, publicPath: 'auto' },
    shared: [],
    exposes: Object.entries(exposes).map(([name, assets]) => ({
      name,
      path: `./${name}`,
      assets: { js: { sync: assets.js, async: ['lazy.js'] }, css: { sync: assets.css ?? [], async: [] } },
    })),
  };
}

function hints(remotes: RemotesConfig = REMOTES, warn: (m: string) => void = () => undefined) {
  const served = Object.fromEntries(
    (['player', 'radio', 'label', 'about'] as const).map((name) => [
      name,
      { prefix: `/mf-${name}/`, dir: join(dir, `mf-${name}`) },
    ]),
  ) as Record<RemoteName, { prefix: string; dir: string }>;
  const hintsFor = createHints({ remotes, served, assetsDir: join(dir, 'assets'), warn });
  // The hints as the page writes them: its sheets, its links, the loader's list.
  return (...args: Parameters<typeof hintsFor>) => {
    const { sheets, links: announced, boot } = hintsFor(...args);
    return [
      ...sheets.map(({ href, css }) =>
        css === null ? `<link rel="stylesheet" href="${href}"/>` : `<style data-href="${String(href)}">${css}</style>`,
      ),
      headHtml(announced),
      ...(boot === null ? [] : [headHtml([jsonElement(BOOT_ID, { preloads: boot })])]),
    ].join('');
  };
}

const links = (head: string) => head.match(/<link [^>]*>/g) ?? [];

/** What the home page's definition announces (mf-radio/src/pages/home.ts, `preloads`). */
const SLIDE: PagePreload = {
  href: '/assets/images/slide.webp',
  imagesrcset: '/assets/images/slide-800.webp 800w, /assets/images/slide.webp 1600w',
  imagesizes: '100vw',
  fetchpriority: 'high',
};

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hints-'));
  write(
    'mf-player/mf-manifest.json',
    manifest({ Player: { js: ['302.aaaaaaaaaa.js', 'expose_Player.js'], css: ['p.css'] } }),
  );
  write(
    'mf-radio/mf-manifest.json',
    manifest({ HomePage: { js: ['746.bbbbbbbbbb.js'] }, ResidencePage: { js: ['expose_ResidencePage.js'] } }),
  );
  write('mf-label/mf-manifest.json', manifest({ LabelPage: { js: ['expose_LabelPage.js'] } }));
  write('assets/images/slide.webp', 'RIFF');
  write('assets/images/residences/axonberg-header.webp', 'RIFF');
});

afterEach(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('page hints', () => {
  it('announces what the home page needs, its image first', () => {
    const head = hints()('/', { pages, images: [SLIDE] });
    expect(links(head)).toEqual([
      '<link rel="preload" as="image" href="/assets/images/slide.webp" imageSrcSet="/assets/images/slide-800.webp 800w, /assets/images/slide.webp 1600w" imageSizes="100vw" fetchPriority="high"/>',
      '<link rel="preload" href="/mf-radio/mf-manifest.json" as="fetch" crossorigin="anonymous"/>',
      '<link rel="preload" href="/mf-radio/remoteEntry.js" as="script"/>',
      '<link rel="preload" href="/mf-radio/746.bbbbbbbbbb.js" as="script"/>',
      '<link rel="preload" href="/mf-player/mf-manifest.json" as="fetch" crossorigin="anonymous"/>',
      '<link rel="preload" href="/mf-player/remoteEntry.js" as="script"/>',
      '<link rel="preload" href="/mf-player/302.aaaaaaaaaa.js" as="script"/>',
      '<link rel="preload" href="/mf-player/expose_Player.js" as="script"/>',
      '<link rel="preload" href="/mf-player/p.css" as="style"/>',
    ]);
    // Chunks that the page loads only later (async) are not announced.
    expect(head).not.toContain('lazy.js');
  });

  it('links the styles of a page rendered on the server, and leaves its scripts to the loader', () => {
    const head = hints()('/', { rendered: true, pages, images: [SLIDE] });
    expect(head).toContain('<link rel="stylesheet" href="/mf-player/p.css"/>');
    expect(head).not.toContain('as="style"');
    // The image is announced at once; scripts and manifests are fetched once the page is painted.
    expect(head).toContain('<link rel="preload" as="image" href="/assets/images/slide.webp"');
    expect(head).not.toContain('as="script"');
    expect(head).not.toContain('as="fetch"');
    const boot = /<script type="application\/json" id="boot">(.*?)<\/script>/.exec(head)?.[1];
    expect(JSON.parse(boot ?? 'null')).toEqual({
      preloads: [
        { href: '/mf-radio/mf-manifest.json', as: 'fetch', crossorigin: 'anonymous' },
        { href: '/mf-radio/remoteEntry.js', as: 'script' },
        { href: '/mf-radio/746.bbbbbbbbbb.js', as: 'script' },
        { href: '/mf-player/mf-manifest.json', as: 'fetch', crossorigin: 'anonymous' },
        { href: '/mf-player/remoteEntry.js', as: 'script' },
        { href: '/mf-player/302.aaaaaaaaaa.js', as: 'script' },
        { href: '/mf-player/expose_Player.js', as: 'script' },
      ],
    });
  });

  it('writes the styles of a page rendered on the server into it, by their address; one it cannot write stays a link', () => {
    write('mf-player/p.css', '.player{color:#ffcf3f}');
    const head = hints()('/', { rendered: true, pages });
    expect(head).toContain('<style data-href="/mf-player/p.css">.player{color:#ffcf3f}</style>');
    // No link to the sheet: no request before the first paint.
    expect(links(head).filter((link) => link.includes('stylesheet'))).toEqual([]);
    // A sheet whose text would close the element is not written in.
    write('mf-player/p.css', '.player{content:"</style><script>alert(1)</script>"}');
    const closing = hints()('/', { rendered: true, pages });
    expect(closing).toContain('<link rel="stylesheet" href="/mf-player/p.css"/>');
    expect(closing).not.toContain('alert(1)');
  });

  it('never writes in a sheet whose file leads out of its part’s folder', () => {
    // A part's folder copied by hand with a link to a file outside, named by its manifest.
    write('secret.txt', 'ADMIN_TOKEN=jeton-secret');
    symlinkSync(join(dir, 'secret.txt'), join(dir, 'mf-player', 'p.css'));
    const head = hints()('/', { rendered: true, pages });
    expect(head).not.toContain('jeton-secret');
    expect(head).toContain('<link rel="stylesheet" href="/mf-player/p.css"/>');
  });

  it('announces no image that does not exist', () => {
    const header = (id: string): PagePreload => ({
      href: `/assets/images/residences/${id}-header.webp`,
      fetchpriority: 'high',
    });
    expect(hints()('/residences/axonberg', { pages, images: [header('axonberg')] })).toContain(
      '<link rel="preload" as="image" href="/assets/images/residences/axonberg-header.webp" fetchPriority="high"/>',
    );
    const head = hints()('/residences/inconnue', { pages, images: [header('inconnue')] });
    expect(head).not.toContain('as="image"');
    expect(head).toContain('/mf-radio/expose_ResidencePage.js');
  });

  it('sends an unknown path to the home page hints, as the shell redirects it', () => {
    expect(hints()('/nulle-part', { pages })).toContain('/mf-radio/746.bbbbbbbbbb.js');
  });

  it('gives a remote hosted elsewhere a preconnect only', () => {
    const head = hints({ ...REMOTES, label: 'https://cdn.example.org/mf-label/mf-manifest.json' })('/label', { pages });
    expect(links(head)[0]).toBe('<link rel="preconnect" href="https://cdn.example.org"/>');
    expect(head).not.toContain('expose_LabelPage.js');
    expect(head).toContain('/mf-player/remoteEntry.js');
  });

  it('loses nothing but the hints of a remote whose files are missing or broken', () => {
    const warnings: string[] = [];
    write('mf-radio/mf-manifest.json', '{"metaData": ');
    const head = hints(REMOTES, (m) => warnings.push(m))('/', { pages });
    expect(links(head).filter((link) => link.includes('/mf-radio/'))).toEqual([]);
    expect(head).toContain('/mf-player/remoteEntry.js');
    expect(warnings).toEqual([expect.stringContaining('mf-radio')]);
    // /a-propos: mf-about has no build at all; only the player is announced.
    expect(links(hints()('/a-propos', { pages })).every((link) => link.includes('/mf-player/'))).toBe(true);
  });

  it('refuses images that point away from the site or could leave their attribute', () => {
    const warnings: string[] = [];
    for (const href of ['https://tracker.example/x.gif', '//tracker.example/x.gif', '/x" onload="alert(1)']) {
      const head = hints(REMOTES, (m) => warnings.push(m))('/', { pages, images: [{ href }] });
      expect(head).not.toContain('tracker');
      expect(head).not.toContain('onload');
      expect(head).toContain('/mf-radio/remoteEntry.js');
    }
    expect(warnings).toHaveLength(3);
  });

  it('follows a redeployed remote without a restart', () => {
    const headFor = hints();
    expect(headFor('/label', { pages })).toContain('/mf-label/expose_LabelPage.js');
    write('mf-label/mf-manifest.json', manifest({ LabelPage: { js: ['expose_LabelPage.v2.js'] } }));
    const later = new Date(Date.now() + 5000);
    utimesSync(join(dir, 'mf-label/mf-manifest.json'), later, later);
    expect(headFor('/label', { pages })).toContain('/mf-label/expose_LabelPage.v2.js');
  });

  it('writes JSON that no value can break out of', () => {
    const html = headHtml([jsonElement('remotes-config', { radio: '</script><script>alert(1)</script>' })]);
    expect(html.match(/<\/script>/g)).toHaveLength(1);
    expect(JSON.parse(html.slice(html.indexOf('>') + 1, html.lastIndexOf('</script>')))).toEqual({
      radio: '</script><script>alert(1)</script>',
    });
  });

  it("gives a page the browser renders its route's title and description", () => {
    const meta = (path: string) => headHtml(pageMeta(path, pages));
    expect(meta('/label')).toBe('<title>Label</title><meta name="description" content="Liste des releases du label"/>');
    expect(meta('/residences/axonberg')).toContain('<title>Résidence</title>');
    expect(meta('/nulle-part')).toContain('<title>Accueil</title>');
    expect(meta('/a-propos')).toContain('content="Qui sommes-nous ?"');
    expect(meta('/')).toContain(
      `content="Web radio, replays, résidences, label et évènements d&#x27;un collectif de Toulouse."`,
    );
  });
});
