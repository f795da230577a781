import type { PodcastItem, Release } from '../types';
import {
  liveStatusAnswer,
  nowPlayingAnswer,
  podcastsAnswer,
  legacyReplayNames,
  readWith,
  releasesAnswer,
  replaySelection,
} from './answers';

/** What a schema reads from an answer, or null when the answer is unusable (the block's error state). */
function reader<T>(schema: Parameters<typeof readWith<T>>[0]) {
  return (data: unknown): T | null => {
    const read = readWith(schema, data);
    return 'value' in read ? read.value : null;
  };
}

const readPodcasts = reader(podcastsAnswer);
const readReleases = reader(releasesAnswer);
const readLiveStatus = (data: unknown) => reader(liveStatusAnswer)(data)?.live ?? null;

function podcast(n: number): PodcastItem {
  return {
    trackUrn: `soundcloud:tracks:${String(1000 + n)}`,
    url: `/api/demo/replays/show-${String(n)}.mp3`,
    duration: 3600 + n,
    artist: `Artiste ${String(n)}`,
    show: `Émission ${String(n)}`,
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

describe('podcasts answer', () => {
  it('keeps a well-formed answer as it is', () => {
    const items = [podcast(1), podcast(2)];
    expect(readPodcasts(items)).toEqual(items);
    expect(readPodcasts([])).toEqual([]);
  });

  it('reads the names of contract version 2 only: no `title` or `description` on an item since version 3', () => {
    const { artist, show, ...rest } = podcast(1);
    // A server older than version 2 sent the former names alone: its items have no artist to show.
    expect(readPodcasts([{ ...rest, title: artist, description: show }])).toBeNull();
    const [read] = readPodcasts([{ ...podcast(3), title: 'Artiste 3', description: 'Émission 3' }]) ?? [];
    expect(read).toEqual(podcast(3));
    expect(read).not.toHaveProperty('title');
    expect(read).not.toHaveProperty('description');
  });

  it('rejects what is not a list', () => {
    for (const data of [{}, null, undefined, 'texte', 42, { items: [podcast(1)] }]) {
      expect(readPodcasts(data)).toBeNull();
    }
  });

  it('drops the unusable items and keeps the others', () => {
    expect(readPodcasts([null, 42, 'texte', { ...podcast(1), artist: 1 }, podcast(2)])).toEqual([podcast(2)]);
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

describe('releases answer', () => {
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

describe('live status answer', () => {
  it('reads true or false, and nothing else', () => {
    expect(readLiveStatus({ live: true })).toBe(true);
    expect(readLiveStatus({ live: false })).toBe(false);
    for (const data of [{}, { live: 'oui' }, { live: 1 }, [true], null, 'true']) {
      expect(readLiveStatus(data)).toBeNull();
    }
  });
});

describe('now-playing answer', () => {
  const readNowPlaying = reader(nowPlayingAnswer);

  it('keeps the lines and a cover', () => {
    expect(readNowPlaying({ artist: 'A', title: 'T', cover: '/c.webp', extra: 1 })).toEqual({
      artist: 'A',
      title: 'T',
      cover: '/c.webp',
    });
  });

  it('never fails on an object: missing lines are empty, an empty or wrong cover is left out', () => {
    expect(readNowPlaying({ artist: 3, cover: '' })).toEqual({ artist: '', title: '' });
    expect(readNowPlaying({ title: 'T', cover: 7 })).toEqual({ artist: '', title: 'T' });
  });

  it('ignores what is not an object', () => {
    for (const data of [null, 'texte', 42, undefined]) expect(readNowPlaying(data)).toBeNull();
  });

  const played = (minute: number, artist = `Artiste ${String(minute)}`, title = `Titre ${String(minute)}`) => ({
    artist,
    title,
    playedAt: new Date(Date.UTC(2026, 2, 4, 20, minute)).toISOString(),
  });

  it('keeps the tracks that played, newest first', () => {
    const history = [played(40), played(36), played(31)];
    expect(readNowPlaying({ artist: 'A', title: 'T', history })).toEqual({ artist: 'A', title: 'T', history });
    expect(readNowPlaying({ artist: 'A', title: 'T', history: [played(31), played(40), played(36)] })).toEqual({
      artist: 'A',
      title: 'T',
      history,
    });
  });

  it('drops the tracks it cannot place or show, and keeps five at most', () => {
    const read = readNowPlaying({
      artist: 'A',
      title: 'T',
      history: [
        played(50),
        null,
        'Artiste — Titre',
        { artist: 'Sans date', title: 'T' },
        { ...played(49), playedAt: 'hier soir' },
        { ...played(48), playedAt: 1_772_656_080 },
        played(47, '', ' '),
        { playedAt: played(46).playedAt, title: 'Sans artiste', artist: 7 },
        played(45),
        played(44),
        played(43),
        played(42),
      ],
    });
    expect(read?.history).toEqual([
      played(50),
      { artist: '', title: 'Sans artiste', playedAt: played(46).playedAt },
      played(45),
      played(44),
      played(43),
    ]);
  });

  it('writes each instant in UTC, ISO 8601', () => {
    expect(
      readNowPlaying({ artist: 'A', title: 'T', history: [{ ...played(40), playedAt: '2026-03-04T21:40:00+01:00' }] })
        ?.history,
    ).toEqual([played(40)]);
  });

  it('leaves the history out when there is none to show, without failing the answer', () => {
    for (const history of [[], [null, { artist: 'A' }], 'Artiste — Titre', { 0: played(40) }, null]) {
      expect(readNowPlaying({ artist: 'A', title: 'T', history })).toEqual({ artist: 'A', title: 'T' });
    }
  });
});

describe('replay selection', () => {
  it("ignores the former names of a partner's payload since contract version 3, and says which ones to use", () => {
    const former = { url: '/a.mp3', title: 'Artiste', description: 'Émission' };
    expect(readWith(replaySelection, former)).toEqual({
      value: { url: '/a.mp3', duration: 0, artist: '', show: '', cover: '' },
    });
    expect(legacyReplayNames(former)).toBe(
      'replay-selected : noms ignorés depuis la version 3 du contrat (« title » → « artist », « description » → « show »).',
    );
    expect(legacyReplayNames({ url: '/a.mp3', title: 'Artiste', show: 'Émission' })).toBe(
      'replay-selected : noms ignorés depuis la version 3 du contrat (« title » → « artist »).',
    );
    expect(legacyReplayNames({ url: '/a.mp3', artist: 'A', show: 'B' })).toBeNull();
  });

  it('trims the address and the track, and leaves out a blank track', () => {
    expect(readWith(replaySelection, { url: ' /a.mp3 ', trackUrn: ' soundcloud:tracks:1 ' })).toEqual({
      value: { trackUrn: 'soundcloud:tracks:1', url: '/a.mp3', duration: 0, artist: '', show: '', cover: '' },
    });
    expect(readWith(replaySelection, { url: '/a.mp3', trackUrn: '  ' })).toEqual({
      value: { url: '/a.mp3', duration: 0, artist: '', show: '', cover: '' },
    });
  });

  it("keeps the episode's slug (contract 3.1.0), and leaves out one that cannot be a slug", () => {
    expect(readWith(replaySelection, { url: '/a.mp3', slug: 'axonberg-synapses-11', start: 11 })).toEqual({
      value: { url: '/a.mp3', duration: 0, artist: '', show: '', cover: '', start: 11, slug: 'axonberg-synapses-11' },
    });
    for (const slug of ['../admin', '<b>', 'Axonberg', 42, null]) {
      const read = readWith(replaySelection, { url: '/a.mp3', slug });
      expect(read).toEqual({ value: { url: '/a.mp3', duration: 0, artist: '', show: '', cover: '' } });
      expect('value' in read && 'slug' in read.value).toBe(false);
    }
  });

  it('accepts a blank address when a track is named, and nothing to play otherwise', () => {
    expect(readWith(replaySelection, { url: '', trackUrn: 'soundcloud:tracks:2' })).toEqual({
      value: { trackUrn: 'soundcloud:tracks:2', url: '', duration: 0, artist: '', show: '', cover: '' },
    });
    expect(readWith(replaySelection, { url: ' ' })).toEqual({ error: '« url » doit être l’adresse du fichier audio' });
  });
});
