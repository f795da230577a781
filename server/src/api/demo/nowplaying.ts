import type { NowPlaying, PlayedTrack, Release } from '@collectif/shared';
import { RECENT_TRACKS_MAX } from '@collectif/shared/schemas';

const TRACKS: readonly Omit<NowPlaying, 'cover'>[] = [
  { artist: 'Capitole Sound', title: 'Brique et Basse' },
  { artist: 'La Brume', title: 'Matin sur la Garonne' },
  { artist: 'Sister Sub / Lina Dub', title: 'Version Pastel' },
  { artist: 'Axonberg', title: 'Synapse 7' },
  { artist: 'Melodica Joe', title: 'Rue des Filatiers' },
  { artist: 'Kalibre / Mona Vex', title: 'Double Détente' },
  { artist: 'Verglas', title: 'Froid Sec' },
  { artist: 'Danièle Dubwise', title: 'Écho du Canal' },
  { artist: 'Tarmac Kid', title: 'Piste 32' },
  { artist: 'Onde Courte', title: 'Grandes Ondes' },
  { artist: '158cm', title: 'Talons Plats' },
  { artist: 'Iris Kora', title: 'Saison Sèche' },
];

/** The rotation: a dozen demo tracks, two thirds of them with a label release cover. */
export function demoTracks(releases: readonly Release[]): NowPlaying[] {
  return TRACKS.map((track, index) => {
    const cover = index % 3 === 2 ? undefined : releases[index]?.image;
    return cover === undefined ? { ...track } : { ...track, cover };
  });
}

/** The track of the rotation's `turn` (the turns are counted from 1970, one every `rotationMs`). */
const trackOf = (tracks: readonly NowPlaying[], turn: number) => tracks[turn % tracks.length];

/**
 * What the demo radio plays at `now`: the same on every server, changing every `rotationMs`; with
 * « Titres précédents », the tracks of the turns before, newest first, each at the instant its turn began.
 */
export function demoNowPlaying(tracks: readonly NowPlaying[], now: number, rotationMs: number): NowPlaying {
  const turn = Math.floor(now / rotationMs);
  const current = trackOf(tracks, turn);
  if (current === undefined) return { artist: 'Inconnu', title: 'Inconnu' };
  const history: PlayedTrack[] = [];
  for (let before = turn - 1; before >= 0 && history.length < RECENT_TRACKS_MAX; before -= 1) {
    const track = trackOf(tracks, before);
    if (track !== undefined) {
      history.push({ artist: track.artist, title: track.title, playedAt: new Date(before * rotationMs).toISOString() });
    }
  }
  return history.length === 0 ? current : { ...current, history };
}
