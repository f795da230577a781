import type { NowPlaying, Release } from '@collectif/shared';

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

/** What the demo radio plays at `now`: the same on every server, changing every `rotationMs`. */
export function demoNowPlaying(tracks: readonly NowPlaying[], now: number, rotationMs: number): NowPlaying {
  const index = Math.floor(now / rotationMs) % tracks.length;
  return tracks[index] ?? { artist: 'Inconnu', title: 'Inconnu' };
}
