// mf-radio's played artist's page besides its view (docs/head.md, « One head »): the data it needs
// for its route and its head from that data, exported by the page's module as `page`.
import { siteConfig, type PageDefinition, type PlayedArtist, type RootState } from '@collectif/shared';
import { musicGroup } from '@collectif/shared/seo';
import { playedArtistsApi } from '../artists/api';
import { PAGES, isPlayedArtistSlug } from '@collectif/shared/addresses';

const absolute = (origin: string, path: string) => new URL(path, origin).href;

/** A meta description's length at most (docs/head.md). */
const DESCRIPTION_MAX = 160;

const plural = (count: number, one: string, many: string) => `${String(count)} ${count === 1 ? one : many}`;

/** The artist's answer, and whether the API said there is no such artist (or the address cannot be one). */
export function readPlayedArtist(slug: string, state: RootState) {
  const read = isPlayedArtistSlug(slug) ? playedArtistsApi.endpoints.playedArtist.select(slug)(state) : undefined;
  const missing =
    read === undefined || (read.error !== undefined && 'status' in read.error && read.error.status === 404);
  return { playedArtist: read?.data, missing };
}

/** What the page says of the artist in a sentence: their plays, releases and residence. */
export function playedArtistSummary(playedArtist: PlayedArtist): string {
  const facts = [
    playedArtist.plays.length === 0
      ? null
      : `${plural(playedArtist.plays.length, 'passage', 'passages')} à l’antenne de ${siteConfig.name}`,
    playedArtist.releases.length === 0
      ? null
      : plural(playedArtist.releases.length, 'sortie sur le label', 'sorties sur le label'),
    playedArtist.residence === undefined ? null : `la résidence ${playedArtist.residence.show}`,
  ].filter((fact) => fact !== null);
  const text = `${playedArtist.name} : ${facts.length === 0 ? 'artiste' : facts.join(', ')}.`;
  if (text.length <= DESCRIPTION_MAX) return text;
  const cut = text.slice(0, DESCRIPTION_MAX - 1);
  const space = cut.lastIndexOf(' ');
  return `${space > DESCRIPTION_MAX / 2 ? cut.slice(0, space) : cut}…`;
}

export const playedArtistPage: PageDefinition = {
  load: ({ params, dispatch }) => {
    const slug = params.slug ?? '';
    return isPlayedArtistSlug(slug) ? [dispatch(playedArtistsApi.endpoints.playedArtist.initiate(slug))] : [];
  },
  head: ({ params, state, origin, href }) => {
    const { playedArtist, missing } = readPlayedArtist(params.slug ?? '', state);
    if (playedArtist === undefined) {
      return missing
        ? {
            status: 404,
            title: 'Artiste introuvable · Artistes',
            description: 'Aucun artiste de ce nom dans les titres joués ni au label.',
          }
        : {};
    }
    // The canonical slug: a merged-away spelling's page names the artist it was merged into.
    const path = href(PAGES.playedArtist, { slug: playedArtist.slug }) ?? '/';
    const description = playedArtistSummary(playedArtist);
    return {
      title: `${playedArtist.name} · Artistes`,
      description,
      canonicalPath: path,
      // A name played once, with no release and no residence, is a thin page (docs/artists.md).
      ...(playedArtist.indexed ? {} : { noindex: true }),
      jsonLd: [
        musicGroup({ name: playedArtist.name, url: absolute(origin, path), description, sameAs: playedArtist.sameAs }),
      ],
    };
  },
};
