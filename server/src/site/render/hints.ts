import { existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import * as v from 'valibot';
import { matchPage, type PagePreload, type PageRef, type RemoteName, type RemotesConfig } from '@collectif/shared';
import type { HeadElement } from '@collectif/shared/seo';
import type { BootPreload } from '@collectif/shared/boot';
import { watchedFile, type WatchedFile } from '../../files/watched-file';
import type { Sheet } from './document';
import { createStyleReader } from './inline-assets';
import { shellSheetFile, sitePath } from './site-paths';

/**
 * What the HTML of a page tells the browser before any script runs: `<link rel="preload">` for what
 * the route will need: the manifest,
 * remote entry, chunks and styles of the page's module and of the player, and the page's largest
 * image. Without them, each of these is discovered only when the previous one has run.
 *
 * Hints are read from the built remotes that this server serves (their `mf-manifest.json`), again
 * whenever a remote is redeployed, and the image from the page's definition (`preloads`, given by
 * the render). A remote hosted elsewhere only gets a preconnect. A missing or unreadable file
 * means fewer hints, never a broken page; a manifest redeployed unreadable leaves its last readable
 * version's in use (watched-file.ts).
 */

interface Link {
  rel: 'preload' | 'preconnect' | 'stylesheet' | 'inline-style';
  href: string;
  as?: 'script' | 'style' | 'fetch' | 'image';
  crossorigin?: 'anonymous';
  imagesrcset?: string;
  imagesizes?: string;
  fetchpriority?: 'high';
  /** An `inline-style`'s text: the sheet written into the page (inline-assets.ts, `createStyleReader`). */
  css?: string;
}

interface ManifestAssets {
  js: string[];
  css: string[];
}

interface RemoteBuild {
  /** The remote entry's path, relative to the manifest. */
  entry: string;
  exposes: Map<string, ManifestAssets>;
}

export interface HintsOptions {
  remotes: RemotesConfig;
  /** Each remote's URL prefix on this server and the directory it is served from. */
  served: Record<RemoteName, { prefix: string; dir: string }>;
  assetsDir: string;
  warn?: (message: string) => void;
}

function strings(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : [];
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Reads the parts of a remote's manifest the hints need; anything else in it is ignored. */
export function readManifest(data: unknown): Pick<RemoteBuild, 'entry' | 'exposes'> {
  const manifest = record(data);
  const entry = record(record(manifest.metaData).remoteEntry);
  const name = typeof entry.name === 'string' ? entry.name : '';
  if (name === '') throw new Error('metaData.remoteEntry.name manquant');
  const exposes = new Map<string, ManifestAssets>();
  for (const item of Array.isArray(manifest.exposes) ? manifest.exposes : []) {
    const expose = record(item);
    if (typeof expose.name !== 'string') continue;
    const assets = record(expose.assets);
    exposes.set(expose.name, { js: strings(record(assets.js).sync), css: strings(record(assets.css).sync) });
  }
  const path = typeof entry.path === 'string' ? entry.path : '';
  return { entry: path === '' ? name : posix.join(path, name), exposes };
}

/**
 * The images a page's definition announces (`preloads`), as links: paths of this site only, never
 * an address elsewhere or text that could leave the attribute; an image under /assets/ that does not
 * exist is left out (announcing it would only cost a failed request).
 */
function imageLinks(images: readonly PagePreload[], assetsDir: string, warn: (message: string) => void): Link[] {
  const links: Link[] = [];
  for (const image of images) {
    if (!v.is(sitePath, image.href)) {
      warn(`Préchargement refusé : seules des images du site peuvent être annoncées (${JSON.stringify(image.href)})`);
      continue;
    }
    if (image.href.startsWith('/assets/') && !existsSync(join(assetsDir, image.href.slice('/assets/'.length))))
      continue;
    links.push({
      rel: 'preload',
      as: 'image',
      href: image.href,
      ...(typeof image.imagesrcset === 'string' ? { imagesrcset: image.imagesrcset } : {}),
      ...(typeof image.imagesizes === 'string' ? { imagesizes: image.imagesizes } : {}),
      ...(image.fetchpriority === 'high' ? { fetchpriority: 'high' as const } : {}),
    });
  }
  return links;
}

/** What a page is told to fetch early, for its model (page-writer.ts, `createPageWriter`). */
export interface PageHints {
  /** `<link>`s: the page's first image, then preconnects and preloads. */
  links: HeadElement[];
  /**
   * The areas' sheets of a page rendered on the server, in order: written into it (`css`), or
   * linked when they cannot be (`css` null).
   */
  sheets: Sheet[];
  /** What the loader fetches once the page is painted (a page rendered on the server), else null. */
  boot: BootPreload[] | null;
}

export function linkElement(link: Link): HeadElement {
  return {
    tag: 'link',
    attributes: Object.entries(link).filter((entry): entry is [string, string] => typeof entry[1] === 'string'),
  };
}

/** What a page announces, for the page at `pathname` (`createHints`). */
export type HintsFor = ReturnType<typeof createHints>;

export function createHints({ remotes, served, assetsDir, warn = () => undefined }: HintsOptions) {
  /** Each remote's manifest, read again when it changes (watched-file.ts). */
  const manifests = new Map<string, WatchedFile<RemoteBuild>>();
  const readStyle = createStyleReader();

  function manifestAt(file: string): RemoteBuild | null {
    let manifest = manifests.get(file);
    if (manifest === undefined) {
      manifest = watchedFile(file, (text) => readManifest(JSON.parse(text)), {
        warn,
        what: 'Manifeste de remote (indications de préchargement)',
      });
      manifests.set(file, manifest);
    }
    return manifest();
  }

  /** The build behind a remote's configured manifest URL, when this server serves it. */
  function localBuild(name: RemoteName): { build: RemoteBuild; base: string } | null {
    const url = remotes[name];
    const { prefix, dir } = served[name];
    if (!url.startsWith(prefix) || !url.endsWith('.json')) return null;
    const relative = url.slice(prefix.length);
    if (relative.split('/').some((segment) => segment === '..')) return null;
    const manifest = manifestAt(join(dir, relative));
    if (manifest === null) return null;
    const base = posix.dirname(url);
    return { build: manifest, base };
  }

  function moduleLinks(name: RemoteName, module: string, rendered: boolean): Link[] {
    const local = localBuild(name);
    if (local === null) {
      const url = remotes[name];
      return /^https?:\/\//.test(url) ? [{ rel: 'preconnect', href: new URL(url).origin }] : [];
    }
    const { build, base } = local;
    const at = (file: string) => posix.join(base, file);
    const assets = build.exposes.get(module) ?? { js: [], css: [] };
    const { prefix, dir } = served[name];
    // A rendered page's sheets are written into it; one that cannot be read stays a link.
    const sheet = (href: string): Link => {
      const relative = href.startsWith(prefix) ? href.slice(prefix.length) : null;
      // The same rule as the shell's sheets: a clean path, inside the part's folder once resolved.
      const css = relative === null ? null : readStyle(shellSheetFile(dir, `/${relative}`));
      return css === null ? { rel: 'stylesheet', href } : { rel: 'inline-style', href, css };
    };
    const links: Link[] = [
      { rel: 'preload', href: remotes[name], as: 'fetch', crossorigin: 'anonymous' },
      { rel: 'preload', href: at(build.entry), as: 'script' },
      ...assets.js.map((file): Link => ({ rel: 'preload', href: at(file), as: 'script' })),
      ...assets.css.map((file): Link => (rendered ? sheet(at(file)) : { rel: 'preload', href: at(file), as: 'style' })),
    ];
    return links;
  }

  /**
   * What the page at `pathname` announces. A page rendered on the server (`rendered`) carries its
   * areas' styles, written into it (inline-assets.ts, `createStyleReader`): its HTML is on screen before any script loads
   * them, and no sheet blocks its first paint; its scripts and manifests are fetched by the loader
   * once the page is painted.
   */
  return function hintsFor(
    pathname: string,
    {
      rendered = false,
      pages,
      images = [],
    }: { rendered?: boolean; pages: readonly PageRef[]; images?: readonly PagePreload[] },
  ): PageHints {
    const match = matchPage(pathname, pages);
    const links = [
      // The page's image first: it is the largest paint, and the browser queues in document order.
      ...imageLinks(images, assetsDir, warn),
      ...(match === null ? [] : moduleLinks(match.page.remote, match.page.module, rendered)),
      ...moduleLinks('player', 'Player', rendered),
    ];
    const unique = [...new Map(links.map((link) => [`${link.rel} ${link.href}`, link])).values()];
    const sheets = unique.flatMap((link): Sheet[] => {
      if (link.rel === 'inline-style' && link.css !== undefined) return [{ href: link.href, css: link.css }];
      return link.rel === 'stylesheet' ? [{ href: link.href, css: null }] : [];
    });
    const announced = unique.filter((link) => link.rel !== 'inline-style' && link.rel !== 'stylesheet');
    if (!rendered) return { links: announced.map(linkElement), sheets, boot: null };
    const later = (link: Link) => link.rel === 'preload' && (link.as === 'script' || link.as === 'fetch');
    return {
      links: announced.filter((link) => !later(link)).map(linkElement),
      sheets,
      boot: announced.filter(later).map(({ href, as, crossorigin }): BootPreload => ({
        href,
        as: as === 'fetch' ? 'fetch' : 'script',
        ...(crossorigin === undefined ? {} : { crossorigin }),
      })),
    };
  };
}
