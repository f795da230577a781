import type { Episode, Release } from '@collectif/shared';
import { releaseUrl } from '@collectif/shared/config';
import { TRACK_TEXT_MAX } from '@collectif/shared/content-schemas';
import { buildPlayedArtists, type PlayedArtistsSources } from './index';

// The played artists' index (docs/artists.md) from tracklists, releases, residences and merges.

const episode = (slug: string, date: string, artist = 'Axonberg', show = 'Synapses'): Episode => ({
  slug,
  artist,
  show,
  url: `https://audio.example.org/${slug}.mp3`,
  duration: 3600,
  cover: '',
  link: `https://radio.example.org/${slug}`,
  pubDate: date,
  residences: [],
  styles: [],
});

// Newest first, as the catalogue keeps them.
const EPISODES = [
  episode('synapses-3', '2026-11-20T20:00:00Z'),
  episode('synapses-2', '2026-11-13T20:00:00Z'),
  episode('brume-1', '2026-11-01T20:00:00Z', 'La Brume', 'Brouillard'),
];

const release = (href: string, artist: string, title = 'Un disque'): Release => ({
  href,
  artist,
  title,
  image: '/assets/images/releases/disque.webp',
});

function sources(overrides: Partial<PlayedArtistsSources> = {}): PlayedArtistsSources {
  return {
    episodes: EPISODES,
    find: (slug) => EPISODES.find((one) => one.slug === slug),
    tracklists: [
      {
        episode: 'synapses-3',
        tracks: [
          { start: 0, artist: 'Björk', title: 'Hyperballad' },
          { start: 300, artist: 'Basic Channel', title: 'Phylyps Trak' },
        ],
      },
      { episode: 'synapses-2', tracks: [{ start: 120, artist: 'bjork', title: 'Jóga' }] },
      { episode: 'brume-1', tracks: [{ start: 60, artist: 'BJÖRK ', title: 'Army of Me' }] },
      // An episode no longer in the feed: its rows wait, unused.
      { episode: 'gone', tracks: [{ start: 0, artist: 'Fantôme', title: 'Parti' }] },
    ],
    releases: [release('/album/synapses-ep', 'Axonberg'), release('/album/va-1', 'Various Artists')],
    residences: [
      {
        id: 'axonberg',
        artist: 'Axonberg / Björk',
        show: 'Synapses',
        bandcamp: 'https://axonberg.bandcamp.com',
        instagram: 'http://insecure.example.org',
      },
    ],
    merges: [],
    ...overrides,
  };
}

describe('the played artists’ index', () => {
  it('makes one artist of names that differ by case, accents and spaces, with every play newest first', () => {
    const index = buildPlayedArtists(sources());
    expect(index.slugOf('BJORK')).toBe('bjork');
    const bjork = index.find('bjork');
    expect(bjork?.plays.map((play) => [play.episode, play.start, play.title])).toEqual([
      ['synapses-3', 0, 'Hyperballad'],
      ['synapses-2', 120, 'Jóga'],
      ['brume-1', 60, 'Army of Me'],
    ]);
    expect(bjork?.plays[2]).toMatchObject({ artist: 'La Brume', show: 'Brouillard', date: '2026-11-01T20:00:00Z' });
    // The residence's spelling is the one shown; its https links and no other are `sameAs`.
    expect(bjork?.name).toBe('Björk');
    expect(bjork?.residence).toEqual({ id: 'axonberg', artist: 'Axonberg / Björk', show: 'Synapses' });
    expect(bjork?.indexed).toBe(true);
    expect(index.find('fantome')).toBeUndefined();
  });

  it('joins the label’s releases, never a compilation’s « Various Artists », and links their shop page', () => {
    const index = buildPlayedArtists(sources());
    const axonberg = index.find('axonberg');
    expect(axonberg?.plays).toEqual([]);
    expect(axonberg?.releases).toEqual([
      {
        title: 'Un disque',
        href: '/album/synapses-ep',
        url: releaseUrl('/album/synapses-ep'),
        image: '/assets/images/releases/disque.webp',
      },
    ]);
    expect(axonberg?.sameAs).toEqual([releaseUrl('/album/synapses-ep'), 'https://axonberg.bandcamp.com']);
    expect(index.slugOf('Various Artists')).toBeUndefined();
    expect(index.find('various-artists')).toBeUndefined();
  });

  it('indexes an artist with a release, a residence or two plays; one play alone is not indexed', () => {
    const index = buildPlayedArtists(sources());
    expect(index.find('basic-channel')?.indexed).toBe(false);
    expect([...index.indexed()].sort()).toEqual(['axonberg', 'bjork']);
  });

  it('lists them A–Z by folded name with their counts, 50 a page, filtered by a folded `q`', () => {
    const many = Array.from({ length: 120 }, (_, i) => ({
      start: 1000 + i,
      artist: `Zed ${String(i).padStart(3, '0')}`,
      title: 'T',
    }));
    const index = buildPlayedArtists(
      sources({
        tracklists: [
          ...sources().tracklists.filter((entry) => entry.episode !== 'brume-1'),
          { episode: 'brume-1', tracks: [{ start: 60, artist: 'BJÖRK ', title: 'Army of Me' }, ...many] },
        ],
      }),
    );
    const first = index.page({});
    expect(first?.total).toBe(123);
    expect(first?.pages).toBe(3);
    expect(first?.items.slice(0, 3)).toEqual([
      { slug: 'axonberg', name: 'Axonberg', plays: 0, releases: 1, residence: 'axonberg' },
      { slug: 'basic-channel', name: 'Basic Channel', plays: 1, releases: 0 },
      { slug: 'bjork', name: 'Björk', plays: 3, releases: 0, residence: 'axonberg' },
    ]);
    expect(index.page({ page: 3 })?.items).toHaveLength(23);
    expect(index.page({ page: 4 })).toBeUndefined();
    expect(index.page({ q: 'BJÖ' })?.items.map((item) => item.slug)).toEqual(['bjork']);
    expect(index.page({ q: 'personne' })).toEqual({ items: [], page: 1, pages: 1, total: 0 });
    expect(index.search('chann').map((item) => item.slug)).toEqual(['basic-channel']);
    expect(index.search('   ')).toEqual([]);
  });

  it('gives colliding slugs -2, -3 by first appearance, the oldest episode first', () => {
    const index = buildPlayedArtists(
      sources({
        tracklists: [
          { episode: 'synapses-3', tracks: [{ start: 0, artist: 'AC/DC', title: 'Newest' }] },
          { episode: 'brume-1', tracks: [{ start: 0, artist: 'AC DC', title: 'Oldest' }] },
          { episode: 'synapses-2', tracks: [{ start: 0, artist: 'AC-DC', title: 'Middle' }] },
        ],
      }),
    );
    expect(index.find('ac-dc')?.name).toBe('AC DC');
    expect(index.find('ac-dc-2')?.name).toBe('AC-DC');
    expect(index.find('ac-dc-3')?.name).toBe('AC/DC');
  });

  it('merges other spellings into an admin’s canonical page, the merged-away slug answering it', () => {
    const tracklists = sources().tracklists.map((entry) =>
      entry.episode === 'synapses-2'
        ? {
            ...entry,
            tracks: [...entry.tracks, { start: 600, artist: 'Bjork Gudmundsdottir', title: 'Human Behaviour' }],
          }
        : entry,
    );
    const before = buildPlayedArtists(sources({ tracklists }));
    expect(before.find('bjork-gudmundsdottir')?.slug).toBe('bjork-gudmundsdottir');
    const index = buildPlayedArtists(
      sources({
        tracklists,
        merges: [
          // A spelling, and an unknown page (ignored), and a loop back (ignored).
          { into: 'bjork', names: ['Björk Guðmundsdóttir', 'bjork-gudmundsdottir', 'Inconnu'] },
          { into: 'bjork-gudmundsdottir', names: ['Björk'] },
          { into: 'pas-une-page', names: ['Basic Channel'] },
        ],
      }),
    );
    const merged = index.find('bjork-gudmundsdottir');
    expect(merged?.slug).toBe('bjork');
    expect(merged?.plays.map((play) => play.title)).toEqual(['Hyperballad', 'Jóga', 'Human Behaviour', 'Army of Me']);
    expect(index.slugOf('Bjork Gudmundsdottir')).toBe('bjork');
    expect(index.page({})?.items.map((item) => item.slug)).toEqual(['axonberg', 'basic-channel', 'bjork']);
    // Found by any of its spellings.
    expect(index.page({ q: 'gudmund' })?.items.map((item) => item.slug)).toEqual(['bjork']);
    expect(index.find('basic-channel')?.slug).toBe('basic-channel');
  });

  it('bounds hostile names: markup kept as text, control characters out, 2,000 characters cut, slugs ascii', () => {
    const long = 'A'.repeat(2000);
    const index = buildPlayedArtists(
      sources({
        tracklists: [
          {
            episode: 'synapses-3',
            tracks: [
              { start: 0, artist: '<script>alert(1)</script>', title: 'x' },
              { start: 1, artist: 'Bell\u0007\u0000 Ringer\n', title: 'y' },
              { start: 2, artist: long, title: long },
              { start: 3, artist: '坂本龍一', title: 'z' },
              { start: 4, artist: '\u0001\u0002', title: 'nothing' },
            ],
          },
        ],
      }),
    );
    const page = index.page({});
    for (const item of page?.items ?? []) {
      expect(item.slug).toMatch(/^[a-z0-9]+(-[a-z0-9]+)*$/);
      expect(item.slug.length).toBeLessThanOrEqual(80);
      expect(item.name.length).toBeLessThanOrEqual(TRACK_TEXT_MAX);
      expect(item.name).not.toMatch(/\p{Cc}/u);
    }
    expect(index.find('script-alert-1-script')?.name).toBe('<script>alert(1)</script>');
    expect(index.find('bell-ringer')?.name).toBe('Bell Ringer');
    expect(index.find('a'.repeat(80))?.plays[0]?.title).toHaveLength(TRACK_TEXT_MAX);
    expect(index.find('artiste')?.name).toBe('坂本龍一');
    // A name of control characters only is no artist.
    expect(page?.total).toBe(4 + 1);
  });
});
