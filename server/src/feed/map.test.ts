import type { PodcastItem } from '@collectif/shared';
import {
  DEFAULT_COVER,
  enclosureLength,
  isPodcast,
  mapFeedItem,
  parseDuration,
  podcastsFromItems,
  sortNewestFirst,
  splitTitle,
  trackUrnFromGuid,
} from './map';
import type { RawFeedItem } from './item';

/** An item shaped as the parser gives it (attributes under `_attributes`, values as text). */
function rawItem(overrides: Record<string, unknown> = {}): RawFeedItem {
  return {
    guid: { '#text': 'tag:soundcloud,2010:tracks/244374452', _attributes: { isPermaLink: 'false' } },
    title: 'Artist Name - Show title #12',
    pubDate: 'Wed, 04 Mar 2026 18:00:00 +0000',
    link: 'https://soundcloud.com/collective/show-title-12',
    'itunes:duration': '02:26:06',
    description: 'Deux heures de dub.',
    enclosure: {
      _attributes: {
        type: 'audio/mpeg',
        length: '140234567',
        url: 'https://feeds.soundcloud.com/stream/244374452-collective-show-title-12.mp3',
      },
    },
    'itunes:image': { _attributes: { href: 'https://i1.sndcdn.com/artworks-x-t3000x3000.jpg' } },
    ...overrides,
  };
}

describe('trackUrnFromGuid', () => {
  it('derives soundcloud:tracks:{id} from a guid holding tracks/{digits}', () => {
    expect(trackUrnFromGuid('tag:soundcloud,2010:tracks/244374452')).toBe('soundcloud:tracks:244374452');
  });

  it('gives nothing for a guid without a track id', () => {
    expect(trackUrnFromGuid('tag:soundcloud,2010:playlists/12')).toBeUndefined();
    expect(trackUrnFromGuid('tag:soundcloud,2010:tracks/')).toBeUndefined();
    expect(trackUrnFromGuid('')).toBeUndefined();
  });
});

describe('splitTitle', () => {
  it('splits at the first hyphen: artist line, then show line', () => {
    expect(splitTitle('Artist Name - Show title #12', 'orig')).toEqual({
      artist: 'Artist Name',
      show: 'Show title #12',
    });
  });

  it('prefers a separator with spaces around it, so a hyphenated name stays whole', () => {
    expect(splitTitle('Basse-Cour - Nuit dub', 'orig')).toEqual({ artist: 'Basse-Cour', show: 'Nuit dub' });
    expect(splitTitle('Jean-Pierre - Dub du dimanche - partie 2', 'orig')).toEqual({
      artist: 'Jean-Pierre',
      show: 'Dub du dimanche - partie 2',
    });
  });
  it('takes an en dash or an em dash with spaces as the separator too, the first of them', () => {
    expect(splitTitle('Mila Rose – Back-to-back #2', 'orig')).toEqual({
      artist: 'Mila Rose',
      show: 'Back-to-back #2',
    });
    expect(splitTitle('Saint-Cyprien — Live - au Bikini', 'orig')).toEqual({
      artist: 'Saint-Cyprien',
      show: 'Live - au Bikini',
    });
  });
  it('splits at the first bare hyphen only when no spaced separator is there', () => {
    expect(splitTitle('Axonberg-Nuits de basse #4', 'orig')).toEqual({
      artist: 'Axonberg',
      show: 'Nuits de basse #4',
    });
    expect(splitTitle('Kalibre -Dub station', 'orig')).toEqual({ artist: 'Kalibre', show: 'Dub station' });
  });

  it('falls back to the original description when the second part is empty', () => {
    expect(splitTitle('Artiste seul -  ', ' La description. ')).toEqual({
      artist: 'Artiste seul',
      show: 'La description.',
    });
  });

  it('keeps a title without a hyphen and the original description', () => {
    expect(splitTitle('Session spéciale', 'Une nuit entière.')).toEqual({
      artist: 'Session spéciale',
      show: 'Une nuit entière.',
    });
  });
});

describe('parseDuration', () => {
  it('reads h:mm:ss, mm:ss and seconds', () => {
    expect(parseDuration('02:26:06')).toBe(2 * 3600 + 26 * 60 + 6);
    expect(parseDuration('1:02:03')).toBe(3723);
    expect(parseDuration('58:30')).toBe(3510);
    expect(parseDuration('5400')).toBe(5400);
    expect(parseDuration(' 75 ')).toBe(75);
  });

  it('gives a finite number of seconds, or 0 for a value too large to be one', () => {
    expect(parseDuration('9'.repeat(400))).toBe(0);
    expect(parseDuration(`${'9'.repeat(400)}:00:00`)).toBe(0);
    expect(parseDuration(`${'1'.repeat(30)}.5`)).toBe(0);
    expect(parseDuration('9007199254740991')).toBe(Number.MAX_SAFE_INTEGER);
    for (const text of ['9'.repeat(400), `${'9'.repeat(400)}:00:00`])
      expect(Number.isFinite(parseDuration(text))).toBe(true);
  });
  it('gives 0 for anything else', () => {
    expect(parseDuration('')).toBe(0);
    expect(parseDuration('deux heures')).toBe(0);
    expect(parseDuration('1:2:3:4')).toBe(0);
    expect(parseDuration('-30')).toBe(0);
  });
});

describe('isPodcast', () => {
  it('is a podcast above 10,000,000 bytes', () => {
    expect(isPodcast(rawItem())).toBe(true);
    expect(enclosureLength(rawItem())).toBe(140234567);
  });

  it('is not a podcast at or under 10,000,000 bytes, or with an untruthful length of 1', () => {
    const at = rawItem({ enclosure: { _attributes: { length: '10000000', url: 'https://x/a.mp3' } } });
    const one = rawItem({ enclosure: { _attributes: { length: '1', url: 'https://x/a.mp3' } } });
    expect(isPodcast(at)).toBe(false);
    expect(isPodcast(one)).toBe(false);
  });

  it('is not a podcast without an enclosure or without a URL to play', () => {
    expect(isPodcast(rawItem({ enclosure: undefined }))).toBe(false);
    expect(isPodcast(rawItem({ enclosure: { _attributes: { length: '20000000' } } }))).toBe(false);
  });
});

describe('mapFeedItem', () => {
  it('maps a typical SoundCloud item', () => {
    expect(mapFeedItem(rawItem())).toEqual({
      trackUrn: 'soundcloud:tracks:244374452',
      url: 'https://feeds.soundcloud.com/stream/244374452-collective-show-title-12.mp3',
      duration: 8766,
      artist: 'Artist Name',
      show: 'Show title #12',
      cover: 'https://i1.sndcdn.com/artworks-x-t3000x3000.jpg',
      link: 'https://soundcloud.com/collective/show-title-12',
      pubDate: '2026-03-04T18:00:00.000Z',
      summary: 'Deux heures de dub.',
      length: 140234567,
    });
  });

  it('keeps the description as safe HTML, sanitised once, here, where the feed is read', () => {
    const item = mapFeedItem(
      rawItem({
        'itunes:summary':
          'Du <em>dub</em>\nen direct<script>alert(1)</script><img src=x onerror="alert(2)"><a href="javascript:alert(3)">lien</a> &amp; <a href="https://example.org">site</a>',
      }),
    );
    expect(item.summary).toBe(
      'Du <em>dub</em><br>en direct<a target="_blank" rel="noopener noreferrer">lien</a> &amp; <a href="https://example.org" target="_blank" rel="noopener noreferrer">site</a>',
    );
  });

  it('uses the default cover without itunes:image, and has no trackUrn without a track guid', () => {
    const item = mapFeedItem(rawItem({ 'itunes:image': undefined, guid: 'https://example.org/show/1' }));
    expect(item.cover).toBe(DEFAULT_COVER);
    expect(item).not.toHaveProperty('trackUrn');
  });

  it('uses the channel image before the default cover, and the item image before both', () => {
    const channel = 'https://i1.sndcdn.com/avatars-channel-t3000x3000.jpg';
    expect(mapFeedItem(rawItem({ 'itunes:image': undefined }), channel).cover).toBe(channel);
    expect(mapFeedItem(rawItem(), channel).cover).toBe('https://i1.sndcdn.com/artworks-x-t3000x3000.jpg');
  });
  it('accepts a custom default cover and a plain-text guid', () => {
    const item = mapFeedItem(rawItem({ 'itunes:image': {}, guid: 'tag:soundcloud,2010:tracks/7' }), '/c.webp');
    expect(item.cover).toBe('/c.webp');
    expect(item.trackUrn).toBe('soundcloud:tracks:7');
  });

  it('never throws on a broken item', () => {
    const item = mapFeedItem({ title: { nested: true }, pubDate: 'pas une date', enclosure: 'x' });
    expect(item).toEqual({
      url: '',
      duration: 0,
      artist: '',
      show: '',
      cover: DEFAULT_COVER,
      link: '',
      pubDate: null,
    });
  });
});

describe('podcastsFromItems', () => {
  it('keeps podcasts only, mapped, newest first', () => {
    const old = rawItem({ pubDate: 'Mon, 02 Mar 2026 18:00:00 +0000', link: 'https://x/old' });
    const short = rawItem({
      pubDate: 'Thu, 05 Mar 2026 18:00:00 +0000',
      enclosure: { _attributes: { length: '900000', url: 'https://x/jingle.mp3' } },
    });
    const recent = rawItem({ pubDate: 'Fri, 06 Mar 2026 18:00:00 +0000', link: 'https://x/recent' });
    expect(podcastsFromItems([old, short, recent]).map((p) => p.link)).toEqual(['https://x/recent', 'https://x/old']);
  });
});

describe('sortNewestFirst', () => {
  it('puts undated items last, in their original order', () => {
    const item = (link: string, pubDate: string | null): PodcastItem => ({
      url: '',
      duration: 0,
      artist: '',
      show: '',
      cover: '',
      link,
      pubDate,
    });
    const sorted = sortNewestFirst([
      item('a', null),
      item('b', '2026-01-01T00:00:00.000Z'),
      item('c', null),
      item('d', '2026-02-01T00:00:00.000Z'),
    ]);
    expect(sorted.map((i) => i.link)).toEqual(['d', 'b', 'a', 'c']);
  });
});
