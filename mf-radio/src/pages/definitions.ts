// mf-radio's pages besides their views (docs/head.md, « One head »): the data each needs for its
// route and its head from that data. Each exposed page module exports its own as `page`: the server
// reads it before rendering, the browser after every navigation.
import { api, radioSettings, residenceImages, siteConfig, type PageDefinition } from '@collectif/shared';
import { describe, radioEpisode, radioSeries, radioStation } from '@collectif/shared/seo';
import { isSlug } from '@collectif/shared';
import { apiQuery, readSearch, searchHref } from '../episodes/search';
import { LATEST_PODCASTS } from '../home/PodcastsBlock';
import { LATEST_RELEASES } from '../home/ReleasesBlock';
import { slides } from '../home/slides';
import { findResidence, residences } from '../residences/residences';
import { feedPath } from '../residences/Subscribe';

const absolute = (origin: string, path: string) => new URL(path, origin).href;

export const home: PageDefinition = {
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

export const list: PageDefinition = {
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

export const residence: PageDefinition = {
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
      // Its podcast feed, for feed readers and podcast apps that look at the page (docs/feeds.md).
      alternates: [
        {
          type: 'application/rss+xml',
          title: `${found.artist} · ${found.show} (podcast)`,
          href: absolute(origin, feedPath(found.id)),
        },
      ],
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

export const archive: PageDefinition = {
  // The same arguments as the page's own queries (episodes/search.ts), so the browser finds them answered.
  load: ({ query, dispatch }) => {
    const search = readSearch(query);
    return [
      dispatch(api.endpoints.styles.initiate(undefined)),
      ...(search.page === null ? [] : [dispatch(api.endpoints.episodes.initiate(apiQuery(search)))]),
    ];
  },
  head: ({ query, state }) => {
    const search = readSearch(query);
    const found = search.page === null ? undefined : api.endpoints.episodes.select(apiQuery(search))(state).data;
    // A page that is not a number, or past the last one, is not a page of the archive.
    const missing = search.page === null || (found !== undefined && found.total > 0 && found.items.length === 0);
    const q = search.q.trim();
    return {
      ...(missing ? { status: 404 } : {}),
      ...(q === '' ? {} : { title: `Recherche « ${q.slice(0, 60)} » · Émissions` }),
      ...(search.page !== null && search.page > 1 ? { title: `Émissions, page ${String(search.page)} · Archive` } : {}),
      description: `Toutes les émissions passées de ${siteConfig.name} : recherche par artiste, émission ou style.`,
      canonicalPath: searchHref(search.page === null ? { ...search, page: 1 } : search),
    };
  },
};

export const episodePage: PageDefinition = {
  load: ({ params, dispatch }) => {
    const slug = params.slug ?? '';
    if (!isSlug(slug)) return [];
    const episode = dispatch(api.endpoints.episode.initiate(slug));
    // The residence's other episodes, as the page asks for them (EpisodePage.tsx, MoreEpisodes).
    const more = episode.then((result) => {
      const residence = result.data?.residences.map((id) => findResidence(id)).find((found) => found !== undefined);
      if (residence === undefined) return undefined;
      const query = dispatch(api.endpoints.episodes.initiate({ residence: residence.id }));
      return query.finally(() => {
        query.unsubscribe();
      });
    });
    return [episode, more];
  },
  head: ({ params, state, origin }) => {
    const slug = params.slug ?? '';
    const read = isSlug(slug) ? api.endpoints.episode.select(slug)(state) : undefined;
    const episode = read?.data;
    if (episode === undefined) {
      const unknown =
        read === undefined || (read.error !== undefined && 'status' in read.error && read.error.status === 404);
      return unknown
        ? {
            status: 404,
            title: 'Émission introuvable · Émissions',
            description: "Cette émission n'existe pas ou n'est plus dans le flux.",
          }
        : {};
    }
    const url = absolute(origin, `/emissions/${episode.slug}`);
    const residence = episode.residences.map((id) => findResidence(id)).find((found) => found !== undefined);
    const summary = episode.summary === undefined ? '' : describe(episode.summary);
    const audio = absolute(origin, episode.url);
    return {
      title: `${episode.title} · ${episode.description} · Émissions`,
      description: summary || `${episode.description} : une émission de ${episode.title} sur ${siteConfig.name}.`,
      image: { url: absolute(origin, episode.cover), alt: `${episode.title}, ${episode.description}` },
      ogType: 'music.song',
      ...(episode.url === '' ? {} : { audio }),
      canonicalPath: `/emissions/${episode.slug}`,
      jsonLd: [
        radioEpisode({
          title: episode.title,
          description: episode.description,
          url: audio,
          link: url,
          duration: episode.duration,
          cover: absolute(origin, episode.cover),
          pubDate: episode.pubDate,
          artist: episode.title,
          ...(summary === '' ? {} : { summary }),
          ...(residence === undefined
            ? {}
            : {
                series: {
                  name: residence.show,
                  url: absolute(origin, `/residences/${encodeURIComponent(residence.id)}`),
                },
              }),
        }),
      ],
    };
  },
};
