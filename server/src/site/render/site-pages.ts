import type { PageRef } from '@collectif/shared';

/**
 * The site's pages as the remotes declare them now (docs/parts.md, « Pages »): what `sitePages()`
 * answers (`site/page-routes.ts`) and the page responder reads, here so that both import it downward.
 */
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
