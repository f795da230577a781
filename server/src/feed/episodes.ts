import type { PodcastItem, Residence } from '@collectif/shared';

/** What the episode rules need of a residence. */
export type ResidenceFacts = Pick<Residence, 'id' | 'artist' | 'styles'>;
import { artistNames, mentions } from './filter';

/**
 * Episodes: the feed's podcasts, each with its own address (docs/episodes.md). Pure rules shared by
 * the server (which answers /api/episodes) and the pages.
 */

/** What an episode adds to a podcast: its slug, and the residences (and their styles) it belongs to. */
export interface EpisodeFacts {
  slug: string;
  /** Ids of the residences whose artist the episode names (the slash rule of docs/site.md). */
  residences: string[];
  /** The styles of those residences, without duplicates. */
  styles: string[];
}

const MAX_SLUG = 80;

/** Lower-case ASCII words joined by hyphens: accents dropped, anything else a separator. */
export function slugify(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, MAX_SLUG)
    .replace(/-+$/, '');
}

function lastSegment(link: string): string {
  let path: string;
  try {
    path = new URL(link).pathname;
  } catch {
    return '';
  }
  const segments = path.split('/').filter((segment) => segment !== '');
  const last = segments.at(-1) ?? '';
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** FNV-1a, base 36: a short, stable fingerprint of a text. */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(36);
}

/**
 * The slug an item asks for: its permalink's last segment, else `piste-{id}` from its track, else
 * `emission-{fingerprint of its audio address}`. Only [a-z0-9-], at most 80 characters.
 */
export function baseSlug(item: Pick<PodcastItem, 'link' | 'url' | 'trackUrn'>): string {
  const fromLink = slugify(lastSegment(item.link));
  if (fromLink !== '') return fromLink;
  const track = /(\d+)$/.exec(item.trackUrn ?? '');
  if (track?.[1] !== undefined) return `piste-${track[1]}`;
  return `emission-${fingerprint(item.url || item.link)}`;
}

/** The second form of a slug, unique to its item: `{base}-{fingerprint of the link}`. */
export function longSlug(item: Pick<PodcastItem, 'link' | 'url' | 'trackUrn'>): string {
  return `${baseSlug(item)}-${fingerprint(item.link)}`;
}

const time = (item: PodcastItem) => {
  const at = item.pubDate === null ? Number.NaN : Date.parse(item.pubDate);
  return Number.isNaN(at) ? Number.POSITIVE_INFINITY : at;
};

/**
 * Unique slugs for the items (by link). The oldest item asking for a slug gets it; a newer one asking
 * for the same gets its long form. A feed that grows with newer items never changes an existing slug.
 */
export function assignSlugs(items: readonly PodcastItem[]): Map<string, string> {
  const oldestFirst = items
    .map((item, index) => ({ item, index }))
    .sort((a, b) => time(a.item) - time(b.item) || b.index - a.index);
  const taken = new Set<string>();
  const slugs = new Map<string, string>();
  for (const { item } of oldestFirst) {
    if (slugs.has(item.link)) continue;
    let slug = baseSlug(item);
    if (taken.has(slug)) slug = longSlug(item);
    for (let n = 2; taken.has(slug); n += 1) slug = `${longSlug(item)}-${String(n)}`;
    taken.add(slug);
    slugs.set(item.link, slug);
  }
  return slugs;
}

/** The residences an episode belongs to: those whose artist (each name of 'A / B') it mentions. */
export function residencesOf<R extends ResidenceFacts>(item: PodcastItem, residences: readonly R[]): R[] {
  return residences.filter((residence) => artistNames(residence.artist).some((name) => mentions(item, name)));
}

/** A residence's styles worth showing: trimmed, non-empty, each once. */
export function stylesOf(residences: readonly ResidenceFacts[]): string[] {
  return [...new Set(residences.flatMap((r) => r.styles.map((s) => s.trim()).filter((s) => s !== '')))];
}

/** Each item with its facts, in the given order. */
export function withEpisodeFacts<T extends PodcastItem>(
  items: readonly T[],
  residences: readonly ResidenceFacts[],
): (T & EpisodeFacts)[] {
  const slugs = assignSlugs(items);
  // The rule of residencesOf, with each text lowered once rather than once per pair.
  const names = residences.map((residence) => ({
    residence,
    names: artistNames(residence.artist).map((name) => name.toLocaleLowerCase('fr')),
  }));
  return items.map((item) => {
    const artist = item.artist.toLocaleLowerCase('fr');
    const show = item.show.toLocaleLowerCase('fr');
    const own = names
      .filter((entry) => entry.names.some((name) => artist.includes(name) || show.includes(name)))
      .map((entry) => entry.residence);
    return {
      ...item,
      slug: slugs.get(item.link) ?? baseSlug(item),
      residences: own.map((r) => r.id),
      styles: stylesOf(own),
    };
  });
}
