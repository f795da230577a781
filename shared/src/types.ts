import type { InferOutput } from 'valibot';
import type {
  apiErrorSchema,
  liveStatusSchema,
  nowPlayingSchema,
  podcastItemSchema,
  releaseSchema,
  replaySourceSchema,
} from './schemas/answers';

/** Data shapes that more than one part exchanges; the /api answers come from their schemas (docs/api.md). */

export type ReplaySource = InferOutput<typeof replaySourceSchema>;

export type PodcastItem = InferOutput<typeof podcastItemSchema>;

export type Release = InferOutput<typeof releaseSchema>;

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

export type NowPlaying = InferOutput<typeof nowPlayingSchema>;

export type LiveStatus = InferOutput<typeof liveStatusSchema>;

/** Error body of every /api route that fails. */
export type ApiError = InferOutput<typeof apiErrorSchema>;
