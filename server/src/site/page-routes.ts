import { join } from 'node:path';
import fp from 'fastify-plugin';
import type { FastifyPluginCallback, FastifyReply, FastifyRequest } from 'fastify';
import {
  pageTable,
  readPageDeclarations,
  REMOTE_NAMES,
  REMOTE_PARTS,
  urlPrefix,
  type PageRef,
  type PartName,
  type RemoteName,
} from '@collectif/shared';
import type { RadioSettings } from '@collectif/shared/config';
import { PAGE_TABLE_PATH } from '@collectif/shared/boot';
import { remotesForServer, type SiteServerConfig } from '../settings/config';
import { servedIn } from './files';
import { createPartFiles, type PartFilesOptions } from './render/part-files';
import { createHints, type HintsOptions } from './render/hints';
import { DOCUMENT_ASSETS } from './render/shell-assets';
import { createPageResponder, type Readiness } from './render/responder';
import type { SitePages } from './render/site-pages';
import type { TrialOutcome } from '../deploy/trial';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The site's pages as the remotes declare them now (docs/parts.md, « Pages »): one reader for the
     * pages, the sitemap, the feeds, oEmbed and the calendar files, so they agree on every address.
     */
    sitePages: () => Promise<SitePages>;
    /** Whether the site can answer pages, and which parts render on the server (`/readyz`). */
    siteReadiness: () => Promise<Readiness>;
    /** Tries a part's new version before it goes live (docs/deploy.md, « The trial »). */
    tryPart: (part: PartName, dir: string, pages: readonly PageRef[]) => Promise<TrialOutcome>;
  }
}

/** Where a remote's build writes its pages, beside its manifest (shared/build/webpack.mjs). */
export const PAGES_FILE = 'pages.json';

const isRemote = (name: PartName): name is RemoteName => (REMOTE_NAMES as readonly string[]).includes(name);

/**
 * The site's pages as the remotes declare them (docs/parts.md, « Pages »): each remote's
 * `pages.json`, read where the remote map says the remote lives and again when it is redeployed.
 * A remote whose file is missing or refused has no pages until a good one is deployed; the log
 * names the field at fault.
 */
export function createSitePages(options: Omit<PartFilesOptions<PageRef[]>, 'path' | 'read' | 'what'>) {
  const files = createPartFiles<PageRef[]>({
    ...options,
    path: PAGES_FILE,
    what: 'Pages déclarées',
    read: (text, _where, name) => {
      if (!isRemote(name)) throw new Error('seul un module distant déclare des pages');
      return readPageDeclarations(JSON.parse(text), name);
    },
  });
  // The same table object while no remote's declarations change: what is matched against it is kept
  // with it (`findPage`).
  let last: { version: string; pages: PageRef[] } | null = null;
  return async function sitePages(): Promise<SitePages> {
    const declared = await Promise.all(REMOTE_NAMES.map(async (name) => [name, await files.get(name)] as const));
    const version = files.versions();
    if (last?.version !== version) {
      last = { version, pages: pageTable(Object.fromEntries(declared.filter(([, pages]) => pages !== null))) };
    }
    return { pages: last.pages, version, complete: REMOTE_NAMES.every((name) => !files.failed(name)) };
  };
}

/**
 * Decorates the app with its page table (`read`: in the site, `createSitePages` where this server
 * itself reads the parts, a remote in development from its dev server, `remotesForServer`).
 */
export const sitePagesPlugin = fp<{ read: () => Promise<SitePages> }>(
  (app, { read }, done) => {
    app.decorate('sitePages', read);
    done();
  },
  { name: 'site-pages' },
);

/** The site's page table as this server reads the parts (`remotesForServer`: dev servers too). */
export function sitePagesOf(
  config: Pick<SiteServerConfig, 'remotes' | 'devRemotes' | 'distDirs'>,
  warn: (message: string) => void,
) {
  return createSitePages({ remotes: remotesForServer(config), distDirs: config.distDirs, warn });
}

/** Each remote's files are under its own prefix: an unknown address there is not a page. */
const REMOTE_PREFIXES = REMOTE_PARTS.map((part) => urlPrefix(part));

/**
 * Every page of the site (docs/rendering.md): rendered on the server from the parts' server
 * bundles, its model made in one place (render/document.ts, `createPageWriter`) with the page's own
 * hints. `radio`: the radio's run-time settings, written into every page beside the remote map.
 */
const pageRoutesPlugin: FastifyPluginCallback<{
  config: SiteServerConfig;
  /** The radio's run-time settings as they are now, read at each page (where « Nous soutenir » leads). */
  radio: () => RadioSettings;
  /** With teams' deploys: the shell's kept versions too, live first (files.ts). */
  servedDirs?: ((part: PartName) => string[]) | undefined;
}> = (app, { config, radio, servedDirs }, done) => {
  const hints = createHints({
    remotes: config.remotes,
    served: Object.fromEntries(
      REMOTE_PARTS.map((part) => [part.name, { prefix: urlPrefix(part), dir: config.distDirs[part.name] }]),
    ) as HintsOptions['served'],
    assetsDir: config.assetsDir,
    warn: (message) => {
      app.log.warn(message);
    },
  });
  const { respond, readiness, trial } = createPageResponder({
    app,
    config,
    radio,
    assetsPath: join(config.distDirs.shell, DOCUMENT_ASSETS),
    hints,
  });
  app.decorate('siteReadiness', readiness);
  app.decorate('tryPart', trial);

  // Every address no other route takes, GET or HEAD (Fastify answers HEAD without the body): the
  // page the table of pages names (deep links, reloads), else a file of the shell, else home.
  // The API's, the embed's and the remotes' own addresses that match nothing are not pages.
  const pages = (request: FastifyRequest, reply: FastifyReply) => {
    const path = request.url.split('?')[0] ?? '/';
    if (path.startsWith('/api/') || path.startsWith('/embed/') || REMOTE_PREFIXES.some((p) => path.startsWith(p))) {
      reply.callNotFound();
      return reply;
    }
    const file = path.slice(1);
    const dir = servedDirs === undefined ? undefined : servedIn(servedDirs('shell'), file);
    return respond(request, reply, path, {
      file: () => (dir === undefined || dir === null ? reply.sendFile(file) : reply.sendFile(file, dir)),
    });
  };
  // The table of pages, which a page no longer carries (docs/rendering.md, « The document »): its
  // loader asks for it with the scripts. Revalidated at each visit (an ETag per version of the
  // remotes' declarations), kept 10 s by a shared cache as the pages are; not stale-while-revalidate,
  // which made Chromium ask for it again each time the shell read the loader's copy. A table that
  // lacks a remote's pages is not kept, as its pages are not.
  app.get(PAGE_TABLE_PATH, async (_request, reply) => {
    const { pages: table, version, complete } = await app.sitePages();
    return reply.representation(`site|pages|${version}`, () => JSON.stringify(table), {
      type: 'application/json; charset=utf-8',
      cacheControl: complete ? 'public, max-age=0, s-maxage=10' : 'no-store',
    });
  });
  app.get('/', pages);
  app.get('/*', pages);

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '/';
    return reply.code(404).send({ error: 'not_found', message: `Introuvable : ${path}` });
  });
  done();
};

export const sitePageRoutes = fp(pageRoutesPlugin, {
  name: 'site-page-routes',
  dependencies: ['site-files', 'site-pages', 'representations'],
});
