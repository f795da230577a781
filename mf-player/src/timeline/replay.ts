// Tell a replay from the timeline (docs/player.md, « A show with its replay »): the episode of the
// catalogue that is the replay of a show of the programme, by the rule the tracklists' recorded
// rows use the other way round (docs/tracklists.md): an episode is the replay of its residence's
// show that last started before it was published.
import type { Episode, ReplayRequest, ScheduleEvent } from '@collectif/shared';

/** An episode published this long after a show started is not taken for its replay. */
export const REPLAY_MAX_DELAY_MS = 8 * 24 * 3600 * 1000;

/**
 * The replay of `show` among `episodes` (its residence's latest), or null: an episode of the show's
 * residence published after the show started, within REPLAY_MAX_DELAY_MS, with no other show of
 * that residence in `events` between the two; the first published of those.
 */
export function replayOf(
  show: ScheduleEvent,
  episodes: readonly Episode[],
  events: readonly ScheduleEvent[],
): Episode | null {
  const residence = show.residence;
  const start = Date.parse(show.start);
  if (residence === null || !Number.isFinite(start)) return null;
  const later = events
    .filter((event) => event.residence === residence && !event.allDay && Date.parse(event.start) > start)
    .map((event) => Date.parse(event.start));
  let found: { episode: Episode; published: number } | null = null;
  for (const episode of episodes) {
    const published = episode.pubDate === null ? Number.NaN : Date.parse(episode.pubDate);
    if (!episode.residences.includes(residence) || !(published > start)) continue;
    if (published - start > REPLAY_MAX_DELAY_MS || later.some((next) => next < published)) continue;
    if (found === null || published < found.published) found = { episode, published };
  }
  return found?.episode ?? null;
}

/**
 * What « Réécouter l'émission » sends the player: the episode, from the moment heard into the show
 * (whole seconds), as its page's `?t=` would; from its start when that is outside it.
 */
export function replayRequest(episode: Episode, show: ScheduleEvent, moment: number): ReplayRequest {
  const { trackUrn, url, duration, artist, show: name, cover, slug } = episode;
  const into = Math.floor((moment - Date.parse(show.start)) / 1000);
  const start = into > 0 && (duration <= 0 || into < duration) ? into : undefined;
  return {
    ...(trackUrn === undefined ? {} : { trackUrn }),
    url,
    duration,
    artist,
    show: name,
    cover,
    slug,
    ...(start === undefined ? {} : { start }),
  };
}
