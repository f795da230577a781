// mf-radio's « Intégrer le lecteur » page besides its view (docs/head.md, « One head »): the data it
// needs for its address (the preset episode's name, the episode search's results) and its head.
import { api, type PageDefinition } from '@collectif/shared';
import { PAGES } from '@collectif/shared/addresses';
import { readConfigurator } from '../embed/configurator';

/** The episodes the search offers to choose from. */
export const SEARCH_RESULTS = 5;

export const integrer: PageDefinition = {
  // The same arguments as the page's own queries (EmbedPage), so the browser finds them answered.
  load: ({ query, dispatch }) => {
    const { options, q } = readConfigurator(query);
    return [
      ...(options.source.kind === 'episode' ? [dispatch(api.endpoints.episode.initiate(options.source.slug))] : []),
      ...(q === '' ? [] : [dispatch(api.endpoints.episodes.initiate({ q }))]),
    ];
  },
  // Every choice is the same page: one address for search engines.
  head: ({ href }) => {
    const canonicalPath = href(PAGES.embed);
    return canonicalPath === null ? {} : { canonicalPath };
  },
};
