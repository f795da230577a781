import type { Release } from '@collectif/shared';
import type { ContentStore } from '../content/store';
import { catalogueVersion, type Catalogue } from '../episodes/catalogue';
import type { Cached, Source } from '../upstream/cache';
import {
  buildPlayedArtists,
  type PlayedArtistMerge,
  type PlayedArtistResidence,
  type PlayedArtistsIndex,
} from './index';

/** The index of the moment, the catalogue it was made with, and the name of its version. */
export interface CurrentPlayedArtists {
  /** Names every answer that holds the index's words: the catalogue's, the releases', the residences', the merges' versions. */
  key: string;
  value: PlayedArtistsIndex;
  catalogue: Cached<Catalogue>;
}

export interface PlayedArtistsSource {
  get(): Promise<CurrentPlayedArtists>;
}

/**
 * The played artists' index, made again on the first read after the feed, a tracklist, a release,
 * a residence or a merge changed (docs/artists.md, « Kept current »), never per request.
 */
export function playedArtistsSource(episodes: Source<Catalogue>, content: ContentStore): PlayedArtistsSource {
  let made: { key: string; value: PlayedArtistsIndex } | undefined;
  return {
    async get() {
      const catalogue = await episodes.get();
      const releases = content.current('releases');
      const residences = content.current('residences');
      const merges = content.current('artistMerges');
      const key = [catalogueVersion(catalogue), releases.id, residences.id, merges.id].join('|');
      if (made?.key !== key) {
        made = {
          key,
          value: buildPlayedArtists({
            episodes: catalogue.value.episodes,
            find: (slug) => catalogue.value.find(slug),
            tracklists: catalogue.value.tracklists,
            releases: releases.data as readonly Release[],
            residences: residences.data as readonly PlayedArtistResidence[],
            merges: merges.data as readonly PlayedArtistMerge[],
          }),
        };
      }
      return { key, value: made.value, catalogue };
    },
  };
}
