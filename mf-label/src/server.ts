// mf-label's server bundle (docs/rendering.md): the label page, its data and its head.
import { api, releaseUrl } from '@collectif/shared';
import type { RemoteServerBundle, ServerPage } from '@collectif/shared/server';
import { musicAlbums } from '@collectif/shared/seo';
import LabelPage from './exposed/LabelPage';

const label: ServerPage = {
  // The page's own query ({}), so the browser finds it answered.
  load: ({ dispatch }) => [dispatch(api.endpoints.releases.initiate({}))],
  head: ({ state, origin }) => {
    const releases = api.endpoints.releases.select({})(state).data ?? [];
    const [first] = releases;
    return {
      ...(first === undefined
        ? {}
        : { image: { url: new URL(first.image, origin).href, alt: `${first.artist}, ${first.title}` } }),
      jsonLd: [
        musicAlbums({
          url: new URL('/label', origin).href,
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

export const modules = { LabelPage } satisfies RemoteServerBundle['modules'];

export const pages = { LabelPage: label } satisfies Record<keyof typeof modules, ServerPage>;
