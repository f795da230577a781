// mf-radio's episodes page besides its view (docs/head.md, « One head »): the data it needs for its
// route and its head from that data, exported by the page's module as `page`.
import { api, siteConfig, type PageDefinition } from '@collectif/shared';
import { PAGES } from '@collectif/shared/addresses';
import { apiQuery, readSearch, searchQuery } from '../episodes/search';

export const archive: PageDefinition = {
  // The same arguments as the page's own queries (episodes/search.ts), so the browser finds them answered.
  load: ({ query, dispatch }) => {
    const search = readSearch(query);
    return [
      dispatch(api.endpoints.styles.initiate(undefined)),
      ...(search.page === null ? [] : [dispatch(api.endpoints.episodes.initiate(apiQuery(search)))]),
    ];
  },
  head: ({ query, state, href }) => {
    const search = readSearch(query);
    const found = search.page === null ? undefined : api.endpoints.episodes.select(apiQuery(search))(state).data;
    // A page that is not a number, or past the last one, is not a page of the archive.
    const missing = search.page === null || (found !== undefined && found.total > 0 && found.items.length === 0);
    const q = search.q.trim();
    const canonicalPath = href(PAGES.episodes, {}, searchQuery(search.page === null ? { ...search, page: 1 } : search));
    return {
      ...(missing ? { status: 404 } : {}),
      ...(q === '' ? {} : { title: `Recherche « ${q.slice(0, 60)} » · Émissions` }),
      ...(search.page !== null && search.page > 1 ? { title: `Émissions, page ${String(search.page)} · Archive` } : {}),
      description: `Toutes les émissions passées de ${siteConfig.name} : recherche par artiste, émission ou style.`,
      ...(canonicalPath === null ? {} : { canonicalPath }),
    };
  },
};
