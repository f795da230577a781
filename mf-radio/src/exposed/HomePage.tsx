import {
  siteConfig,
  type PageRoute,
  type RemoteContract,
  api,
  type PageDefinition,
  useSlidesQuery,
} from '@collectif/shared';
import { Carousel } from '../home/Carousel';
import { PodcastsBlock, LATEST_PODCASTS } from '../home/PodcastsBlock';
import { ReleasesBlock, LATEST_RELEASES } from '../home/ReleasesBlock';
import { ScheduleBlock } from '../home/ScheduleBlock';
import { selectSlides, SLIDE_SIZES, slideSrcSet } from '../home/slides';
import { LiveBlock } from '../live/LiveBlock';
import '../styles/home.css';
import { oembedAlternate, oembedTitle } from '@collectif/shared/oembed';
import { radioStation } from '@collectif/shared/seo';
import { PAGES } from '@collectif/shared/addresses';
import { StatusMessage } from '@collectif/shared/ui';

/** Home, blocks in their order (docs/site.md, « Home »): carousel, live, schedule, podcasts, releases. */
/** « À la une »: the slides the About team keeps (docs/content.md), or why there are none now. */
function Featured() {
  const query = useSlidesQuery(undefined);
  const slides = query.data ?? [];
  if (slides.length > 0) return <Carousel slides={slides} />;
  if (!query.isError) return null;
  return (
    <section className="home-block" aria-labelledby="a-la-une">
      <h2 id="a-la-une" className="visually-hidden">
        À la une
      </h2>
      <StatusMessage kind="error" onRetry={() => void query.refetch()}>
        La une est momentanément indisponible.
      </StatusMessage>
    </section>
  );
}

function HomePage() {
  return (
    <div className="page home">
      <h1 className="visually-hidden">{siteConfig.name}</h1>
      <Featured />
      <LiveBlock />
      <ScheduleBlock />
      <PodcastsBlock />
      <ReleasesBlock />
    </div>
  );
}

export default HomePage satisfies RemoteContract['radio']['HomePage'];

const absolute = (origin: string, path: string) => new URL(path, origin).href;

/** Its data and head, read alike by the server and the browser. */
export const page: PageDefinition = {
  // The carousel's first slide, with the attributes of its <img>: the page's largest paint.
  preloads: ({ state }) => {
    const [first] = selectSlides(state);
    if (first === undefined) return [];
    const href = first.imagePath;
    return [{ href, imagesrcset: slideSrcSet(href), imagesizes: SLIDE_SIZES, fetchpriority: 'high' }];
  },
  // The same arguments as the blocks' own queries, so the browser finds them answered. Not the
  // schedule's « En ce moment » and « À suivre »: a block that shows only once scrolled to (it fades
  // in), which the browser asks for once the page is interactive; in the page it would put the
  // document past a phone's first round trip (docs/first-screen.md, « The first screen's budget »).
  load: ({ dispatch }) => [
    dispatch(api.endpoints.slides.initiate(undefined)),
    dispatch(api.endpoints.podcasts.initiate({ limit: LATEST_PODCASTS })),
    dispatch(api.endpoints.releases.initiate({ limit: LATEST_RELEASES })),
    // « Titres précédents » in the live block: in the page, so nothing moves when it arrives.
    dispatch(api.endpoints.nowPlaying.initiate(undefined)),
  ],
  head: ({ origin, radio, href, state }) => {
    const [first] = selectSlides(state);
    const home = href(PAGES.home) ?? '/';
    return {
      description: siteConfig.baseline,
      ...(first === undefined ? {} : { image: { url: absolute(origin, first.imagePath), alt: first.titre } }),
      // The live player, for sites that embed a pasted link (docs/embed.md, « oEmbed »).
      alternates: [oembedAlternate(origin, home, oembedTitle(siteConfig.name, null))],
      jsonLd: [
        radioStation({
          name: siteConfig.name,
          url: absolute(origin, home),
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

/** Its address and names (docs/parts.md, « Pages »), read by the build without running this module. */
export const route: PageRoute = { path: '', title: 'Accueil', area: "La page d'accueil" };
