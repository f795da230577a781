import {
  pageTable,
  readPageDeclarations,
  REMOTE_NAMES,
  type PageRef,
  type PartName,
  type RemoteName,
} from '@collectif/shared';
import fp from 'fastify-plugin';
import { remotesForServer, type SiteServerConfig } from '../../settings/config';
import { createPartFiles, type PartFilesOptions } from './containers';

/** Where a remote's build writes its pages, beside its manifest (shared/build/webpack.mjs). */
export const PAGES_FILE = 'pages.json';

export interface SitePages {
  pages: PageRef[];
  /** Changes whenever a remote's declarations change (the rendered pages' cache key). */
  version: string;
  /**
   * Whether every remote's declarations could be read where they are: false while one is refused or
   * its origin unreachable (a dev server still compiling, a remote's origin down), when a page is
   * sent but never kept. A remote with no file at all declares no pages: that is complete.
   */
  complete: boolean;
}

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

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * The site's pages as the remotes declare them now (docs/parts.md, « Pages »): one reader for the
     * pages, the sitemap, the feeds, oEmbed and the calendar files, so they agree on every address.
     */
    sitePages: () => Promise<SitePages>;
  }
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
