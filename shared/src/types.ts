/** Data shapes that more than one part exchanges (SPEC section 3). */

export interface ReplaySource {
  /** `soundcloud:tracks:{id}` when the feed guid names a track. */
  trackUrn?: string;
  /** Direct audio URL from the feed enclosure. */
  url: string;
  /** Duration in seconds. */
  duration: number;
  /** Artist line. */
  title: string;
  /** Show or title line. */
  description: string;
  cover: string;
}

export interface PodcastItem extends ReplaySource {
  /** Show page, unique per item (used to de-duplicate). */
  link: string;
  pubDate: string | null;
}

export interface Release {
  href: string;
  image: string;
  title: string;
  artist: string;
}

export interface Residence {
  id: string;
  artist: string;
  show: string;
  description: string;
  styles: string[];
  instagram?: string;
  soundcloud?: string;
  bandcamp?: string;
  website?: string;
}

export interface NowPlaying {
  artist: string;
  title: string;
  cover?: string;
}

export interface LiveStatus {
  live: boolean;
}

/** Error body of every /api route that fails. */
export interface ApiError {
  error: string;
  message: string;
}
