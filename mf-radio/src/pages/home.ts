// mf-radio's home page besides its view (docs/head.md, « One head »): the data it needs for its
// route and its head from that data, exported by the page's module as `page`.
import { api, siteConfig, upcomingRange, type PageDefinition } from '@collectif/shared';
import { oembedAlternate, oembedTitle } from '@collectif/shared/oembed';
import { radioStation } from '@collectif/shared/seo';
import { LATEST_PODCASTS } from '../home/PodcastsBlock';
import { LATEST_RELEASES } from '../home/ReleasesBlock';
import { SLIDE_SIZES, slideSrcSet, slides } from '../home/slides';

const absolute = (origin: string, path: string) => new URL(path, origin).href;

export const home: PageDefinition = {
  // The carousel's first slide, with the attributes of its <img>: the page's largest paint.
  preloads: () => {
    const [first] = slides;
    if (first === undefined) return [];
    const href = first.imagePath;
    return [{ href, imagesrcset: slideSrcSet(href), imagesizes: SLIDE_SIZES, fetchpriority: 'high' }];
  },
  // The same arguments as the blocks' own queries, so the browser finds them answered.
  load: ({ dispatch }) => [
    dispatch(api.endpoints.podcasts.initiate({ limit: LATEST_PODCASTS })),
    dispatch(api.endpoints.releases.initiate({ limit: LATEST_RELEASES })),
    dispatch(api.endpoints.schedule.initiate(upcomingRange(Date.now()))),
    // « Titres précédents » in the live block: in the page, so nothing moves when it arrives.
    dispatch(api.endpoints.nowPlaying.initiate(undefined)),
  ],
  head: ({ origin, radio }) => {
    const [first] = slides;
    return {
      description: siteConfig.baseline,
      ...(first === undefined ? {} : { image: { url: absolute(origin, first.imagePath), alt: first.titre } }),
      // The live player, for sites that embed a pasted link (docs/embed.md, « oEmbed »).
      alternates: [oembedAlternate(origin, '/', oembedTitle(siteConfig.name, null))],
      jsonLd: [
        radioStation({
          name: siteConfig.name,
          url: absolute(origin, '/'),
          description: siteConfig.baseline,
          logo: absolute(origin, '/assets/images/logo.svg'),
          streamUrl: absolute(origin, radio.liveStreamUrl),
          sameAs: [siteConfig.links.instagram, siteConfig.links.soundcloud, siteConfig.links.bandcamp],
          email: siteConfig.emails.contact,
          address: siteConfig.studio.address,
        }),
      ],
    };
  },
};
