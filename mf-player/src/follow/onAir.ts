import type { NowPlaying, ResidenceSummary, ScheduleEvent } from '@collectif/shared';
import { showOnAir } from '@collectif/shared/schedule';

/*
 * Which residence is on air (docs/follow.md, « Going on air »): the one whose show the programme has
 * on air now, and the one the radio's now-playing names. Pure functions, so that the announcer's
 * rule is tested without a browser.
 */

/** Lower case, no accents, single spaces: how the server compares a title with a residence's name too. */
const plain = (text: string) => text.normalize('NFD').replace(/\p{M}/gu, '').toLowerCase().replace(/\s+/g, ' ').trim();

/** An artist line and each of its names: « Sister Sub / Lina Dub » is also « sister sub » and « lina dub ». */
const namesOf = (artist: string) => [plain(artist), ...artist.split('/').map(plain)].filter((name) => name !== '');

/**
 * The residence the radio's now-playing names: its artist line, or one of its names, is the
 * residence's artist or one of its names. None for anything else (a track by someone else,
 * « Inconnu »).
 */
export function residenceNamed(artist: string, residences: readonly ResidenceSummary[]): string | null {
  const playing = new Set(namesOf(artist));
  return residences.find((residence) => namesOf(residence.artist).some((name) => playing.has(name)))?.id ?? null;
}

/** The residences on air at `now`: the programme's show on air, and the one now-playing names. */
export function residencesOnAir(
  nowPlaying: NowPlaying | undefined,
  residences: readonly ResidenceSummary[],
  events: readonly ScheduleEvent[],
  now: number,
): Set<string> {
  const onAir = new Set<string>();
  const show = showOnAir(events, now);
  if (show?.residence !== null && show?.residence !== undefined) onAir.add(show.residence);
  const named = nowPlaying === undefined ? null : residenceNamed(nowPlaying.artist, residences);
  if (named !== null) onAir.add(named);
  return onAir;
}

/**
 * The followed residences that came on air between two readings. The first reading (`previous`
 * null) is where the page starts from: what is already on air when the site opens is not « going
 * on air », and a reload does not say it again.
 */
export function cameOnAir(
  previous: ReadonlySet<string> | null,
  current: ReadonlySet<string>,
  followed: readonly string[],
): string[] {
  if (previous === null) return [];
  return [...current].filter((id) => !previous.has(id) && followed.includes(id));
}

/**
 * How long a residence said to be on air is not said again: one show's now-playing may go from its
 * own tracks to another artist's and back (a guest's track, an older answer the browser kept), and
 * the visitor was told already.
 */
export const QUIET_MS = 30 * 60 * 1000;

/** Those of `fresh` not said in the last QUIET_MS; those it keeps are written down as said at `now`. */
export function notSaidLately(fresh: readonly string[], said: Map<string, number>, now: number): string[] {
  const kept = fresh.filter((id) => now - (said.get(id) ?? Number.NEGATIVE_INFINITY) >= QUIET_MS);
  for (const id of kept) said.set(id, now);
  return kept;
}

/**
 * « A », « A et B », « A, B et C »: `Intl.ListFormat`'s French conjunction, written here (a page's
 * first `Intl` object starts ICU: docs/first-screen.md, « Work after the paint »).
 */
export function frenchList(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} et ${items.at(-1) ?? ''}`;
}

/** « Axonberg est en direct », « Axonberg et La Brume sont en direct ». */
export function onAirText(artists: readonly string[]): string {
  return `${frenchList(artists)} ${artists.length > 1 ? 'sont' : 'est'} en direct`;
}
