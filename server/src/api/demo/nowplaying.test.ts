import type { Release } from '@collectif/shared';
import { demoNowPlaying, demoTracks } from './nowplaying';

const releases: Release[] = Array.from({ length: 12 }, (_, n) => ({
  href: `/album/sortie-${String(n)}`,
  image: `/assets/images/releases/sortie-${String(n)}.webp`,
  title: `Sortie ${String(n)}`,
  artist: `Artiste ${String(n)}`,
}));
const tracks = demoTracks(releases);
const ROTATION = 180_000;

describe('the demo radio', () => {
  it('plays one track per rotation period, the same on every server', () => {
    const turn = 1000 * tracks.length + 7;
    const playing = demoNowPlaying(tracks, turn * ROTATION + 90_000, ROTATION);
    expect(playing).toMatchObject({ artist: tracks[7]?.artist, title: tracks[7]?.title });
    expect(demoNowPlaying(tracks, turn * ROTATION, ROTATION)).toEqual(playing);
    expect(demoNowPlaying(tracks, (turn + 1) * ROTATION - 1, ROTATION)).toEqual(playing);
    expect(demoNowPlaying(tracks, (turn + 1) * ROTATION, ROTATION).title).toBe(tracks[8]?.title);
  });

  it('gives the five tracks before, newest first, each at the instant its turn began', () => {
    const turn = 1000 * tracks.length + 2;
    const now = turn * ROTATION + 42_000;
    const { history } = demoNowPlaying(tracks, now, ROTATION);
    // Turns 1, 0, then the end of the rotation (11, 10, 9).
    expect(history).toEqual(
      [1, 0, 11, 10, 9].map((index, n) => ({
        artist: tracks[index]?.artist,
        title: tracks[index]?.title,
        playedAt: new Date((turn - 1 - n) * ROTATION).toISOString(),
      })),
    );
    expect(history?.[0]?.playedAt).toBe(new Date(now - 42_000 - ROTATION).toISOString());
    // No cover in the history: its lines and its instant.
    for (const track of history ?? []) expect(Object.keys(track).sort()).toEqual(['artist', 'playedAt', 'title']);
  });

  it('has no history before its first turn, and a short one just after', () => {
    expect(demoNowPlaying(tracks, 1000, ROTATION)).not.toHaveProperty('history');
    expect(demoNowPlaying(tracks, 2 * ROTATION, ROTATION).history?.map((track) => track.playedAt)).toEqual([
      new Date(ROTATION).toISOString(),
      new Date(0).toISOString(),
    ]);
  });

  it('says « Inconnu » with nothing to play', () => {
    expect(demoNowPlaying([], Date.UTC(2026, 2, 4), ROTATION)).toEqual({ artist: 'Inconnu', title: 'Inconnu' });
  });
});
