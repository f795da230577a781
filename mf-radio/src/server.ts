// mf-radio's server bundle (docs/rendering.md): its pages' modules, the data each needs before it
// renders, and its head. Built into dist/server/ssr.js and deployed with the part.
import { api, radioSettings, residenceImages, siteConfig } from '@collectif/shared';
import type { RemoteServerBundle, ServerPage } from '@collectif/shared/server';
import { describe, radioSeries, radioStation } from '@collectif/shared/seo';
import HomePage from './exposed/HomePage';
import ResidencePage from './exposed/ResidencePage';
import ResidencesPage from './exposed/ResidencesPage';
import { LATEST_PODCASTS } from './home/PodcastsBlock';
import { LATEST_RELEASES } from './home/ReleasesBlock';
import { slides } from './home/slides';
import { findResidence, residences } from './residences/residences';

const absolute = (origin: string, path: string) => new URL(path, origin).href;

const home: ServerPage = {
  // The same arguments as the blocks' own queries, so the browser finds them answered.
  load: ({ dispatch }) => [
    dispatch(api.endpoints.podcasts.initiate({ limit: LATEST_PODCASTS })),
    dispatch(api.endpoints.releases.initiate({ limit: LATEST_RELEASES })),
  ],
  head: ({ origin }) => {
    const [first] = slides;
    return {
      description: siteConfig.baseline,
      ...(first === undefined ? {} : { image: { url: absolute(origin, first.imagePath), alt: first.titre } }),
      jsonLd: [
        radioStation({
          name: siteConfig.name,
          url: absolute(origin, '/'),
          description: siteConfig.baseline,
          logo: absolute(origin, '/assets/images/logo.svg'),
          streamUrl: absolute(origin, radioSettings().liveStreamUrl),
          sameAs: [siteConfig.links.instagram, siteConfig.links.soundcloud, siteConfig.links.bandcamp],
          email: siteConfig.emails.contact,
          address: siteConfig.studio.address,
        }),
      ],
    };
  },
};

const list: ServerPage = {
  head: ({ origin }) => {
    const [first] = residences;
    return {
      description: `Les ${String(residences.length)} émissions résidentes de ${siteConfig.name}, chaque mois sur la radio.`,
      ...(first === undefined
        ? {}
        : { image: { url: absolute(origin, residenceImages(first.id).card), alt: `${first.artist}, ${first.show}` } }),
    };
  },
};

const residence: ServerPage = {
  load: ({ params, dispatch }) => {
    const found = findResidence(params.id ?? '');
    return found === undefined ? [] : [dispatch(api.endpoints.podcasts.initiate({ q: found.artist }))];
  },
  head: ({ params, state, origin }) => {
    const found = findResidence(params.id ?? '');
    if (found === undefined) {
      return {
        status: 404,
        title: 'Résidence introuvable · Résidences',
        description: "Cette émission n'existe pas ou n'est plus à l'antenne.",
      };
    }
    const episodes = api.endpoints.podcasts.select({ q: found.artist })(state).data ?? [];
    const url = absolute(origin, `/residences/${encodeURIComponent(found.id)}`);
    const image = absolute(origin, residenceImages(found.id).header);
    const description = describe(found.description) || `${found.show} : émission résidente de ${found.artist}.`;
    return {
      title: `${found.artist} · ${found.show} · Résidences`,
      description,
      image: { url: image, alt: `${found.artist}, ${found.show}`, width: 1600, height: 600 },
      ogType: 'music.radio_station',
      jsonLd: [
        radioSeries({
          name: found.show,
          url,
          description,
          image,
          artist: found.artist,
          episodes: episodes.map((episode) => ({
            title: episode.title,
            description: episode.description,
            url: episode.url,
            link: episode.link,
            duration: episode.duration,
            cover: episode.cover,
            pubDate: episode.pubDate,
          })),
        }),
      ],
    };
  },
};

export const modules = { HomePage, ResidencesPage, ResidencePage } satisfies RemoteServerBundle['modules'];

export const pages = {
  HomePage: home,
  ResidencesPage: list,
  ResidencePage: residence,
} satisfies Record<keyof typeof modules, ServerPage>;
