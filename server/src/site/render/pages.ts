import {
  pageTable,
  readPageDeclarations,
  REMOTE_NAMES,
  type PageRef,
  type PartName,
  type RemoteName,
} from '@collectif/shared';
import { createPartFiles, type PartFilesOptions } from './bundles';

/** Where a remote's build writes its pages, beside its manifest (shared/build/webpack.mjs). */
export const PAGES_FILE = 'pages.json';

export interface SitePages {
  pages: PageRef[];
  /** Changes whenever a remote's declarations change (the rendered pages' cache key). */
  version: string;
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
  return async function sitePages(): Promise<SitePages> {
    const declared = await Promise.all(REMOTE_NAMES.map(async (name) => [name, await files.get(name)] as const));
    return {
      pages: pageTable(Object.fromEntries(declared.filter(([, pages]) => pages !== null))),
      version: files.versions(),
    };
  };
}
