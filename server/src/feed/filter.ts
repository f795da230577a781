import type { PodcastItem } from '@collectif/shared';
import { sortNewestFirst } from './map';

/**
 * The names to search for an artist line: 'A / B' is two artists (docs/site.md, « Residents »).
 * Blank names are dropped.
 */
export function artistNames(artist: string): string[] {
  return artist
    .split('/')
    .map((name) => name.trim())
    .filter((name) => name !== '');
}

/** Whether the item's artist or show line contains the name (case does not matter). */
export function mentions(item: PodcastItem, name: string): boolean {
  const needle = name.toLocaleLowerCase('fr');
  return item.artist.toLocaleLowerCase('fr').includes(needle) || item.show.toLocaleLowerCase('fr').includes(needle);
}

/**
 * A resident's shows (docs/site.md, « The feed »), with the slash rule: each name is searched on its own,
 * the results are merged without duplicates (same link) and kept newest first.
 * A blank name matches nothing.
 */
export function podcastsByName(items: readonly PodcastItem[], artist: string): PodcastItem[] {
  const seen = new Set<string>();
  const found: PodcastItem[] = [];
  for (const name of artistNames(artist)) {
    for (const item of items) {
      if (seen.has(item.link) || !mentions(item, name)) continue;
      seen.add(item.link);
      found.push(item);
    }
  }
  return sortNewestFirst(found);
}

/** The first `limit` items (the home block shows the 8 newest). */
export function latest<T>(items: readonly T[], limit: number | undefined): T[] {
  return limit === undefined ? [...items] : items.slice(0, Math.max(0, Math.floor(limit)));
}
