import { releaseUrl } from '@collectif/shared/config';
import { PLAYED_ARTISTS_PAGE_SIZE, PLAYED_ARTIST_SLUG_MAX } from '@collectif/shared/schemas';
import type {
  Episode,
  PlayedArtist,
  PlayedArtistPlay,
  PlayedArtistsPage,
  PlayedArtistSummary,
  Release,
} from '@collectif/shared';
import { cleanQuery, searchTerm, type TracklistEntry } from '../episodes/catalogue';
import { TRACK_TEXT_MAX } from '@collectif/shared/content-schemas';

/*
 * The played artists' index (docs/artists.md): every name the episodes' tracklists played or the
 * label released, one artist per folded name (case, accents and spaces do not count), each with a
 * slug, its plays, its releases and the residence it holds; an admin's merges make other spellings
 * one artist. Built again, whole, when the feed, a tracklist, a release, a residence or a merge
 * changes (bench/played-artists.mjs measures it).
 */

/** An artist's answer lists this many plays at most, the newest (its count says them all). */
export const PLAYED_ARTIST_PLAYS_MAX = 500;
/** How many artists the archive's search names beside its episodes. */
export const SEARCH_ARTISTS_MAX = 5;

/** A residence as the index reads it (the content's entry; only these fields are used). */
export interface PlayedArtistResidence {
  id: string;
  artist: string;
  show: string;
  instagram?: string;
  soundcloud?: string;
  bandcamp?: string;
  website?: string;
}

/** One admin's merge (the content kind `artistMerges`). */
export interface PlayedArtistMerge {
  into: string;
  names: readonly string[];
}

export interface PlayedArtistsSources {
  /** The feed's episodes, newest first. */
  episodes: readonly Episode[];
  /** An episode by its slug or long slug (the catalogue's `find`). */
  find(slug: string): Episode | undefined;
  tracklists: readonly TracklistEntry[];
  /** The label's releases, newest first. */
  releases: readonly Release[];
  residences: readonly PlayedArtistResidence[];
  merges: readonly PlayedArtistMerge[];
}

export interface PlayedArtistsIndex {
  /** How many artists have a page (merged spellings counted once). */
  size: number;
  /** A page of the artists A–Z whose folded name holds `q`; undefined past the last page. */
  page(options: { q?: string; page?: number }): PlayedArtistsPage | undefined;
  /** The artist of a slug, a merged-away one answering its canonical artist. */
  find(slug: string): PlayedArtist | undefined;
  /** The canonical slug of the artist of a name (a tracklist row's, a release's), if it has a page. */
  slugOf(name: string): string | undefined;
  /** The artists whose page the sitemap lists (docs/artists.md, « Indexed »). */
  indexed(): readonly string[];
  /** The first few artists whose folded name holds `q`, for the archive's search. */
  search(q: string): PlayedArtistSummary[];
}

/** Letters the decomposition leaves whole, and how a slug spells them. */
const LIGATURES: Record<string, string> = { œ: 'oe', æ: 'ae', ß: 'ss', ø: 'o', ł: 'l', đ: 'd', þ: 'th', ð: 'd' };

/** A name as shown: control characters out, spaces collapsed, trimmed, cut at a tracklist's own bound (TRACK_TEXT_MAX): a longer one from elsewhere cannot grow a page. */
export function playedArtistName(name: string): string {
  return name
    .replace(/\p{Cc}/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, TRACK_TEXT_MAX)
    .trim();
}

/** A name that needs no cleaning (the tracklists' own rule makes most of them so). */
const CLEAN_NAME = /^(?! )(?!.* $)(?!.* {2})[^\p{Cc}]{1,200}$/u;

/** What makes two names one artist: the archive search's folding (case, accents), and spaces. */
export function foldPlayedArtist(name: string): string {
  return searchTerm(playedArtistName(name));
}

/** A slug's base from a folded name: ascii words and hyphens, at most `max` characters. */
export function playedArtistSlugBase(folded: string, max = PLAYED_ARTIST_SLUG_MAX): string {
  const ascii = folded
    .replace(/[œæßøłđþð]/g, (letter) => LIGATURES[letter] ?? '')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  const cut = ascii.slice(0, max).replace(/-+$/, '');
  // A name with no latin letter or digit (« 坂本龍一 », « !!! ») still has a page.
  return cut === '' ? 'artiste' : cut;
}

/** Names that are not an artist: a compilation's « Various Artists » (docs/artists.md). */
const NOT_AN_ARTIST = new Set(['various artists', 'various', 'va', 'v/a', 'artistes divers', 'divers']);

/** A residence's artists: several are separated by « / » (the residences' content). */
const residenceArtists = (artist: string) => artist.split(' / ').map((name) => name.trim());

const httpsOnly = (link: string | undefined): link is string =>
  link !== undefined && /^https:\/\/[^\s"'<>]+$/.test(link) && link.length <= 500;

interface Group {
  key: string;
  /** Every folded name merged into it, its own first. */
  keys: string[];
  slug: string;
  /** Each spelling and how often it came, in order of first appearance. */
  spellings: Map<string, number>;
  /** Newest episode first, then by start (put back in that order after a merge). */
  plays: PlayedArtistPlay[];
  /** Whether a merge joined another's plays to its own. */
  merged?: boolean;
  releases: Release[];
  residence?: PlayedArtistResidence;
  /** The canonical group, once merged into another. */
  mergedInto?: Group;
}

const canonical = (group: Group): Group => {
  let found = group;
  // A merge never points back (see merge below), so this ends.
  while (found.mergedInto !== undefined) found = found.mergedInto;
  return found;
};

export function buildPlayedArtists(sources: PlayedArtistsSources): PlayedArtistsIndex {
  const byKey = new Map<string, Group>();
  const bySlug = new Map<string, Group>();
  const groups: Group[] = [];
  const taken = new Set<string>();

  // A name is folded once, however often it is played.
  const folded = new Map<string, { shown: string; key: string }>();
  /** The group of a name, made at its first appearance with a slug no earlier name took. */
  const groupOf = (name: string): Group | undefined => {
    let read = folded.get(name);
    if (read === undefined) {
      const clean = playedArtistName(name);
      read = { shown: clean, key: searchTerm(clean) };
      folded.set(name, read);
    }
    const { shown, key } = read;
    if (key === '' || NOT_AN_ARTIST.has(key)) return undefined;
    let group = byKey.get(key);
    if (group === undefined) {
      const base = playedArtistSlugBase(key);
      let slug = base;
      for (let n = 2; taken.has(slug); n += 1) {
        const suffix = `-${String(n)}`;
        slug = `${playedArtistSlugBase(key, PLAYED_ARTIST_SLUG_MAX - suffix.length)}${suffix}`;
      }
      taken.add(slug);
      group = { key, keys: [key], slug, spellings: new Map(), plays: [], releases: [] };
      byKey.set(key, group);
      bySlug.set(slug, group);
      groups.push(group);
    }
    group.spellings.set(shown, (group.spellings.get(shown) ?? 0) + 1);
    return group;
  };

  // First appearance: the oldest episode first, so that a new episode never takes an older name's slug.
  const rank = new Map(sources.episodes.map((episode, index) => [episode.slug, index]));
  const tracksOf = new Map<string, TracklistEntry['tracks']>();
  for (const { episode, tracks } of sources.tracklists) {
    const found = sources.find(episode);
    if (found !== undefined) tracksOf.set(found.slug, tracks);
  }
  for (let index = sources.episodes.length - 1; index >= 0; index -= 1) {
    const episode = sources.episodes[index];
    const tracks = episode === undefined ? undefined : tracksOf.get(episode.slug);
    if (tracks !== undefined) for (const track of tracks) groupOf(track.artist);
  }
  // The plays, newest episode first and in time order within it (a tracklist's rows are: its schema).
  for (const episode of sources.episodes) {
    const tracks = tracksOf.get(episode.slug);
    if (tracks === undefined) continue;
    for (const track of tracks) {
      const key = folded.get(track.artist)?.key;
      const group = key === undefined ? undefined : byKey.get(key);
      group?.plays.push({
        episode: episode.slug,
        artist: episode.artist,
        show: episode.show,
        date: episode.pubDate ?? '',
        start: track.start,
        title: CLEAN_NAME.test(track.title) ? track.title : playedArtistName(track.title),
      });
    }
  }
  // Then the label's releases, the oldest first.
  for (let index = sources.releases.length - 1; index >= 0; index -= 1) {
    const release = sources.releases[index];
    if (release !== undefined) groupOf(release.artist)?.releases.push(release);
  }
  // A residence joins the artist it names; it makes none (its page is the residence's own).
  for (const residence of sources.residences) {
    for (const name of residenceArtists(residence.artist)) {
      const group = byKey.get(foldPlayedArtist(name));
      if (group !== undefined && group.residence === undefined) {
        group.residence = residence;
        // The residence's spelling is the artist's own: it is shown.
        group.spellings = new Map([[playedArtistName(name), Number.MAX_SAFE_INTEGER], ...group.spellings]);
      }
    }
  }

  // The admins' merges, in their order: each other spelling (or its page's slug) joins the page `into`.
  for (const merge of sources.merges) {
    const found = bySlug.get(merge.into);
    if (found === undefined) continue;
    const target = canonical(found);
    for (const name of merge.names) {
      const other = byKey.get(foldPlayedArtist(name)) ?? bySlug.get(name.trim());
      if (other === undefined) continue;
      const source = canonical(other);
      if (source === target) continue;
      source.mergedInto = target;
      target.merged = true;
      target.keys.push(...source.keys);
      target.plays.push(...source.plays);
      target.releases.push(...source.releases);
      target.residence ??= source.residence;
      for (const [spelling, count] of source.spellings) {
        target.spellings.set(spelling, (target.spellings.get(spelling) ?? 0) + count);
      }
    }
  }

  const live = groups.filter((group) => group.mergedInto === undefined);
  const collator = new Intl.Collator('fr');
  live.sort((a, b) => collator.compare(a.key, b.key) || a.slug.localeCompare(b.slug));
  for (const group of live) {
    if (group.merged === true) {
      group.plays.sort((a, b) => (rank.get(a.episode) ?? 0) - (rank.get(b.episode) ?? 0) || a.start - b.start);
    }
  }
  const nameOf = (group: Group): string => {
    let best = '';
    let most = -1;
    for (const [spelling, count] of group.spellings) {
      if (count > most) {
        best = spelling;
        most = count;
      }
    }
    return best;
  };
  const isIndexed = (group: Group) =>
    group.releases.length > 0 || group.residence !== undefined || group.plays.length >= 2;
  const summary = (group: Group): PlayedArtistSummary => ({
    slug: group.slug,
    name: nameOf(group),
    plays: group.plays.length,
    releases: group.releases.length,
    ...(group.residence === undefined ? {} : { residence: group.residence.id }),
  });
  const matching = (q: string | undefined): Group[] => {
    const text = searchTerm(cleanQuery(q).replace(/\s+/g, ' '));
    return text === '' ? live : live.filter((group) => group.keys.some((key) => key.includes(text)));
  };

  return {
    size: live.length,
    page({ q, page = 1 }) {
      const found = matching(q);
      const pages = Math.max(1, Math.ceil(found.length / PLAYED_ARTISTS_PAGE_SIZE));
      if (!Number.isInteger(page) || page < 1 || page > pages) return undefined;
      const start = (page - 1) * PLAYED_ARTISTS_PAGE_SIZE;
      return {
        items: found.slice(start, start + PLAYED_ARTISTS_PAGE_SIZE).map(summary),
        page,
        pages,
        total: found.length,
      };
    },
    find(slug) {
      const found = bySlug.get(slug);
      if (found === undefined) return undefined;
      const group = canonical(found);
      const residence = group.residence;
      const releases = group.releases.map((release) => ({
        title: release.title,
        href: release.href,
        url: releaseUrl(release.href),
        ...(release.image === '' ? {} : { image: release.image }),
      }));
      const sameAs = [
        ...releases.map((release) => release.url),
        ...(residence === undefined
          ? []
          : [residence.bandcamp, residence.soundcloud, residence.instagram, residence.website]),
      ].filter(httpsOnly);
      return {
        slug: group.slug,
        name: nameOf(group),
        indexed: isIndexed(group),
        plays: group.plays.slice(0, PLAYED_ARTIST_PLAYS_MAX),
        releases,
        ...(residence === undefined
          ? {}
          : { residence: { id: residence.id, artist: residence.artist, show: residence.show } }),
        sameAs: [...new Set(sameAs)],
      };
    },
    slugOf(name) {
      const found = byKey.get(foldPlayedArtist(name));
      return found === undefined ? undefined : canonical(found).slug;
    },
    indexed: () => live.filter(isIndexed).map((group) => group.slug),
    search: (q) => (cleanQuery(q) === '' ? [] : matching(q).slice(0, SEARCH_ARTISTS_MAX).map(summary)),
  };
}
