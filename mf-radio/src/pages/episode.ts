// mf-radio's episode page besides its view (docs/head.md, « One head »): the data it needs for its
// route and its head from that data, exported by the page's module as `page`.
import { api, releaseUrl, siteConfig, type PageDefinition } from '@collectif/shared';
import { oembedAlternate, oembedTitle } from '@collectif/shared/oembed';
import { preloadSrcSet } from '@collectif/shared/pictures';
import { describe, radioEpisode } from '@collectif/shared/seo';
import { findResidence, loadResidenceSummaries, selectResidenceSummaries } from '../residences/residences';
import { PAGES, isSlug } from '@collectif/shared/addresses';

const absolute = (origin: string, path: string) => new URL(path, origin).href;

/** How wide the cover is shown (styles/episodes.css): the column's width, 22rem at most from 800 px. */
export const EPISODE_COVER_SIZES = '(min-width: 800px) 22rem, 100vw';

export const episodePage: PageDefinition = {
  // Its cover, as src/exposed/EpisodePage.tsx renders it, when it is a picture of the site (a cover
  // on the feed's host is found by the browser in the HTML anyway).
  preloads: ({ params, state }) => {
    const slug = params.slug ?? '';
    const cover = isSlug(slug) ? api.endpoints.episode.select(slug)(state).data?.cover : undefined;
    return cover === undefined || !cover.startsWith('/') || cover.startsWith('//')
      ? []
      : [{ href: cover, ...preloadSrcSet(cover, EPISODE_COVER_SIZES), fetchpriority: 'high' }];
  },
  load: ({ params, dispatch }) => {
    const slug = params.slug ?? '';
    if (!isSlug(slug)) return [];
    const episode = dispatch(api.endpoints.episode.initiate(slug));
    const residences = loadResidenceSummaries(dispatch);
    // The residence's other episodes, as the page asks for them (EpisodePage.tsx, MoreEpisodes).
    const more = Promise.all([episode, residences]).then(([result, known]) => {
      const list = known.data ?? [];
      const residence = result.data?.residences
        .map((id) => findResidence(id, list))
        .find((found) => found !== undefined);
      if (residence === undefined) return undefined;
      const query = dispatch(api.endpoints.episodes.initiate({ residence: residence.id }));
      return query.finally(() => {
        query.unsubscribe();
      });
    });
    return [episode, residences, more];
  },
  head: ({ params, state, origin, href }) => {
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
    const residences = selectResidenceSummaries(state);
    const residence = episode.residences
      .map((id) => findResidence(id, residences))
      .find((found) => found !== undefined);
    // Its own address in the page table (this page is rendered, so the table has it).
    const path = href(PAGES.episode, { slug: episode.slug }) ?? '/';
    const url = absolute(origin, path);
    const residencePath = residence === undefined ? null : href(PAGES.residence, { id: residence.id });
    const summary = episode.summary === undefined ? '' : describe(episode.summary);
    const audio = absolute(origin, episode.url);
    return {
      title: `${episode.artist} · ${episode.show} · Émissions`,
      description: summary || `${episode.show} : une émission de ${episode.artist} sur ${siteConfig.name}.`,
      image: { url: absolute(origin, episode.cover), alt: `${episode.artist}, ${episode.show}` },
      ogType: 'music.song',
      ...(episode.url === '' ? {} : { audio }),
      canonicalPath: path,
      // Its player, for sites that embed a pasted link (docs/embed.md, « oEmbed »).
      alternates: [oembedAlternate(origin, path, oembedTitle(siteConfig.name, episode))],
      jsonLd: [
        radioEpisode({
          title: episode.artist,
          description: episode.show,
          url: audio,
          link: url,
          duration: episode.duration,
          cover: absolute(origin, episode.cover),
          pubDate: episode.pubDate,
          artist: episode.artist,
          ...(summary === '' ? {} : { summary }),
          ...(residence === undefined || residencePath === null
            ? {}
            : { series: { name: residence.show, url: absolute(origin, residencePath) } }),
          // Its tracklist (docs/episodes.md, « Tracklist »), a label release with its page.
          ...(episode.tracks === undefined
            ? {}
            : {
                tracks: episode.tracks.map((row) => ({
                  title: row.title,
                  artist: row.artist,
                  ...(row.release === undefined ? {} : { url: releaseUrl(row.release) }),
                })),
              }),
        }),
      ],
    };
  },
};
