import type { PodcastItem, Release } from './types';
import { readLiveStatus, readPodcasts, readReleases } from './answers';

function podcast(n: number): PodcastItem {
  return {
    trackUrn: `soundcloud:tracks:${String(1000 + n)}`,
    url: `/api/demo/replays/show-${String(n)}.mp3`,
    duration: 3600 + n,
    title: `Artiste ${String(n)}`,
    description: `Émission ${String(n)}`,
    cover: `/assets/images/covers/show-${String(n)}.webp`,
    link: `https://soundcloud.com/example/show-${String(n)}`,
    pubDate: new Date(Date.UTC(2024, 0, 30 - n)).toUTCString(),
  };
}

function release(n: number): Release {
  return {
    href: `/album/sortie-${String(n)}`,
    image: `/assets/images/releases/sortie-${String(n)}.webp`,
    title: `Sortie ${String(n)}`,
    artist: n % 2 === 0 ? 'Various Artists' : `Artiste ${String(n)}`,
  };
}

describe('readPodcasts', () => {
  it('keeps a well-formed answer as it is', () => {
    const items = [podcast(1), podcast(2)];
    expect(readPodcasts(items)).toEqual(items);
    expect(readPodcasts([])).toEqual([]);
  });

  it('rejects what is not a list', () => {
    for (const data of [{}, null, undefined, 'texte', 42, { items: [podcast(1)] }]) {
      expect(readPodcasts(data)).toBeNull();
    }
  });

  it('drops the unusable items and keeps the others', () => {
    expect(readPodcasts([null, 42, 'texte', { ...podcast(1), title: 1 }, podcast(2)])).toEqual([podcast(2)]);
    // Nothing to play: neither an enclosure nor a track.
    const { trackUrn: _urn, ...noTrack } = podcast(3);
    expect(readPodcasts([{ ...noTrack, url: ' ' }, podcast(4)])).toEqual([podcast(4)]);
  });

  it('rejects a list whose items are all unusable', () => {
    expect(readPodcasts([null, 42, { title: 1, href: {}, url: [], link: null }])).toBeNull();
  });

  it('fills optional fields of the wrong type with neutral values', () => {
    const { trackUrn: _urn, ...item } = podcast(5);
    expect(readPodcasts([{ ...item, trackUrn: 7, duration: 'long', cover: null, pubDate: 3 }])).toEqual([
      { ...item, duration: 0, cover: '', pubDate: null },
    ]);
  });
});

describe('readReleases', () => {
  it('keeps a well-formed answer as it is', () => {
    const items = [release(1), release(2)];
    expect(readReleases(items)).toEqual(items);
  });

  it('rejects what is not a list, or a list with nothing usable', () => {
    expect(readReleases({})).toBeNull();
    expect(readReleases('<!doctype html>')).toBeNull();
    expect(readReleases([{ title: 1, href: {} }, null])).toBeNull();
  });

  it('drops releases with a missing field or an href that makes no address', () => {
    expect(
      readReleases([{ ...release(1), artist: undefined }, { ...release(2), href: 'http://[' }, release(3)]),
    ).toEqual([release(3)]);
  });
});

describe('readLiveStatus', () => {
  it('reads true or false, and nothing else', () => {
    expect(readLiveStatus({ live: true })).toBe(true);
    expect(readLiveStatus({ live: false })).toBe(false);
    for (const data of [{}, { live: 'oui' }, { live: 1 }, [true], null, 'true']) {
      expect(readLiveStatus(data)).toBeNull();
    }
  });
});
