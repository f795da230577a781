// mf-label's page besides its view (docs/head.md, « One head »): the data it needs for its
// route and its head from that data. Its module exports it as `page`: the server
// reads it before rendering, the browser after every navigation.
import { api, releaseUrl, type PageDefinition } from '@collectif/shared';
import { GRID_IMAGE_SIZES, preloadSrcSet } from '@collectif/shared/pictures';
import { musicAlbums } from '@collectif/shared/seo';
import { PAGES } from '@collectif/shared/addresses';

export const label: PageDefinition = {
  // The first cover, as the grid renders it (releases/ReleaseGrid.tsx): the page's largest paint.
  preloads: ({ state }) => {
    const [first] = api.endpoints.releases.select({})(state).data ?? [];
    return first === undefined || !first.image.startsWith('/') || first.image.startsWith('//')
      ? []
      : [{ href: first.image, ...preloadSrcSet(first.image, GRID_IMAGE_SIZES), fetchpriority: 'high' }];
  },
  // The page's own query ({}), so the browser finds it answered.
  load: ({ dispatch }) => [dispatch(api.endpoints.releases.initiate({}))],
  head: ({ state, origin, href }) => {
    const releases = api.endpoints.releases.select({})(state).data ?? [];
    const [first] = releases;
    return {
      ...(first === undefined
        ? {}
        : { image: { url: new URL(first.image, origin).href, alt: `${first.artist}, ${first.title}` } }),
      jsonLd: [
        musicAlbums({
          url: new URL(href(PAGES.label) ?? '/', origin).href,
          albums: releases.map((release) => ({
            name: release.title,
            artist: release.artist,
            image: new URL(release.image, origin).href,
            url: releaseUrl(release.href),
          })),
        }),
      ],
    };
  },
};
