import type { QueueAddRequest, QueueState, ReplayRequest } from '../types';

/**
 * The most items the player's queue holds (docs/player.md, « The queue »). A `queue-add` past it
 * adds what fits and says so; held `queue-add` requests are bounded by it too.
 */
export const QUEUE_MAX = 50;

/**
 * The events that cross team boundaries. Each part compiles against this map; plain JavaScript
 * (a partner page embedding the player) sees the same events as DOM CustomEvents on `window`,
 * named `collectif:<event>`, with the payload in `detail`.
 */
export interface EventMap {
  /**
   * A visitor chose a past show: the player switches to replay and plays it from `start` seconds
   * (0 when absent, or when it is not within the episode). `slug` (since 3.1.0, optional) names the
   * episode's page: the player then reads its tracklist and shows the track playing.
   */
  'replay-selected': ReplayRequest;
  /** Ask the player to return to the live stream. */
  'live-selected': Record<string, never>;
  /**
   * The radio feed has arrived (emitted once per page load, the first time any part gets podcasts).
   * It carries nothing: the first answer is whichever part's query came back first (8 items for
   * home, one artist's for a residence), so a count in it would mean nothing a subscriber could use.
   */
  'feed-loaded': Record<string, never>;
  /** The player's public state, after every change that a page around it may show. */
  'player-state': PlayerSnapshot;
  /**
   * Since 3.3.0. Put episodes at the end of the player's queue, in the order given (« Ajouter à la
   * file », « Tout écouter »). Each item is an episode page's slug and, when the listener should
   * hear it from a given time (a tracklist row, a played artist's play), `start` in seconds. The
   * player reads each episode through the API; past `QUEUE_MAX` it adds what fits and says so.
   * When nothing is playing, the first added item starts.
   */
  'queue-add': QueueAddRequest;
  /** Since 3.3.0. The player's queue after every change, what comes next first. */
  'queue-state': QueueState;
}

export interface PlayerSnapshot {
  mode: 'LIVE' | 'REPLAY';
  open: boolean;
  playing: boolean;
  loading: boolean;
  artist: string;
  show: string;
  /** Seconds; 0 in live mode. */
  currentTime: number;
  duration: number;
  /** In replay mode, which episode: its `trackUrn`, else its `url` (the key of `resumeKey`). */
  source?: string;
}

export type EventName = keyof EventMap;

export interface EventBehaviour {
  /** A subscriber that arrives after an emission immediately receives the last payload. */
  replayLast: boolean;
  /** Emitted at most once per page load; later emissions are ignored. */
  once: boolean;
  /**
   * A request to a part that may not be listening yet (a card on a page that became interactive
   * before the player's script ran). Emitted while no subscriber listens, it is kept, and the first
   * subscriber gets it; requests of the same group share one place, so the latest one wins.
   */
  heldUntilHeard?: 'player';
  /**
   * Since 3.3.0. Requests of this event kept until heard are not one place of their group but a
   * list of their own, in the order emitted, of at most this many (later ones are dropped): the
   * first subscriber gets each in turn. Adding to a queue twice means both, and neither replaces
   * the group's request (a held `replay-selected` is still played).
   */
  heldInOrder?: number;
}

/** The behaviour table of the contract (see README, "Event contract"). */
export const eventBehaviour: Readonly<Record<EventName, EventBehaviour>> = {
  'replay-selected': { replayLast: false, once: false, heldUntilHeard: 'player' },
  'live-selected': { replayLast: false, once: false, heldUntilHeard: 'player' },
  'feed-loaded': { replayLast: true, once: true },
  'player-state': { replayLast: true, once: false },
  'queue-add': { replayLast: false, once: false, heldUntilHeard: 'player', heldInOrder: QUEUE_MAX },
  'queue-state': { replayLast: true, once: false },
};

export const DOM_EVENT_PREFIX = 'collectif:';

export function domEventName(name: EventName): string {
  return `${DOM_EVENT_PREFIX}${name}`;
}
