import {
  isoDuration,
  missingProperties,
  musicAlbums,
  musicGroup,
  organization,
  radioEpisode,
  radioSeries,
  radioStation,
  REQUIRED_PROPERTIES,
} from './jsonLd';

const ORIGIN = 'https://radio.example.org';

describe('isoDuration', () => {
  it('writes seconds as an ISO 8601 duration, and nothing for an unknown length', () => {
    expect(isoDuration(3723)).toBe('PT1H2M3S');
    expect(isoDuration(3600)).toBe('PT1H');
    expect(isoDuration(90.4)).toBe('PT1M30S');
    expect(isoDuration(42)).toBe('PT42S');
    expect(isoDuration(0)).toBe('');
    expect(isoDuration(Number.NaN)).toBe('');
    expect(isoDuration(-5)).toBe('');
  });
});

describe('the builders', () => {
  const station = radioStation({
    name: 'Collectif Garonne',
    url: `${ORIGIN}/`,
    description: 'Web radio à Toulouse',
    logo: `${ORIGIN}/assets/images/logo.svg`,
    streamUrl: `${ORIGIN}/api/demo/live.mp3`,
    sameAs: ['https://www.instagram.com/example.collectif/'],
    email: 'contact@example.org',
  });
  const series = radioSeries({
    name: 'Synapses',
    url: `${ORIGIN}/residences/axonberg`,
    description: 'Voyage entre electro et techno.',
    image: `${ORIGIN}/assets/images/residences/axonberg-header.webp`,
    artist: 'Axonberg',
    episodes: [
      {
        title: 'Axonberg',
        description: 'Synapses #4',
        url: `${ORIGIN}/audio/4.mp3`,
        link: `${ORIGIN}/emissions/4`,
        duration: 3600,
        cover: '',
        pubDate: 'Sat, 21 Nov 2026 20:00:00 +0100',
      },
      {
        title: 'Axonberg',
        description: '',
        url: `${ORIGIN}/audio/3.mp3`,
        link: `${ORIGIN}/emissions/3`,
        duration: 0,
        cover: '',
        pubDate: 'pas une date',
      },
    ],
  });
  const albums = musicAlbums({
    url: `${ORIGIN}/label`,
    albums: [
      {
        name: 'Synapses EP',
        artist: 'Axonberg',
        image: `${ORIGIN}/a.webp`,
        url: 'https://example-label.bandcamp.com/album/synapses',
      },
    ],
  });
  const collective = organization({
    name: 'Collectif Garonne',
    url: `${ORIGIN}/a-propos`,
    logo: `${ORIGIN}/assets/images/logo.svg`,
    email: 'contact@example.org',
    sameAs: [],
    foundingDate: '2017',
  });

  it('give every typed node the properties it must carry', () => {
    for (const node of [station, series, albums, collective]) expect(missingProperties(node)).toEqual([]);
  });

  it('say what each page is, with the values it was given', () => {
    expect(station).toMatchObject({
      '@type': 'RadioStation',
      potentialAction: { '@type': 'ListenAction', target: { urlTemplate: `${ORIGIN}/api/demo/live.mp3` } },
    });
    expect(series.episode).toEqual([
      expect.objectContaining({
        name: 'Axonberg · Synapses #4',
        datePublished: '2026-11-21T19:00:00.000Z',
        associatedMedia: {
          '@type': 'AudioObject',
          contentUrl: `${ORIGIN}/audio/4.mp3`,
          encodingFormat: 'audio/mpeg',
          duration: 'PT1H',
        },
      }),
      expect.objectContaining({ name: 'Axonberg' }),
    ]);
    // An unreadable date and an unknown length are left out rather than written wrong.
    expect(series.episode?.[1]).not.toHaveProperty('datePublished');
    expect(series.episode?.[1]?.associatedMedia).not.toHaveProperty('duration');
    expect(albums.itemListElement[0]).toMatchObject({
      position: 1,
      item: { '@type': 'MusicAlbum', byArtist: { name: 'Axonberg' } },
    });
    expect(collective).toMatchObject({ '@type': 'Organization', foundingDate: '2017' });
  });

  it('leave out the episodes of a show whose feed has none', () => {
    const empty = radioSeries({
      name: 'Synapses',
      url: `${ORIGIN}/r`,
      description: '',
      image: '',
      artist: 'A',
      episodes: [],
    });
    expect(empty).not.toHaveProperty('episode');
  });
});

describe('radioEpisode, an episode page', () => {
  it('is a RadioEpisode with its AudioObject and the series it is part of, with every required property', () => {
    const node = radioEpisode({
      title: 'Axonberg',
      description: 'Synapses #11',
      url: 'https://radio.example.org/api/demo/replays/a.mp3',
      link: 'https://radio.example.org/emissions/axonberg-synapses-11',
      duration: 3750,
      cover: 'https://radio.example.org/a.webp',
      pubDate: '2026-10-26T19:00:00.000Z',
      artist: 'Axonberg',
      summary: 'Deux heures de techno.',
      series: { name: 'Synapses', url: 'https://radio.example.org/residences/axonberg' },
    });
    expect(node).toMatchObject({
      '@context': 'https://schema.org',
      '@type': 'RadioEpisode',
      name: 'Axonberg · Synapses #11',
      url: 'https://radio.example.org/emissions/axonberg-synapses-11',
      description: 'Deux heures de techno.',
      associatedMedia: { '@type': 'AudioObject', duration: 'PT1H2M30S' },
      partOfSeries: { '@type': 'RadioSeries', name: 'Synapses' },
    });
    expect(missingProperties(node)).toEqual([]);
  });

  it('lists the tracks it played as MusicRecording items, a label release linked to its page', () => {
    const node = radioEpisode({
      title: 'Axonberg',
      description: 'Synapses #11',
      url: 'https://radio.example.org/api/demo/replays/a.mp3',
      link: 'https://radio.example.org/emissions/axonberg-synapses-11',
      duration: 60,
      cover: '',
      pubDate: null,
      artist: 'Axonberg',
      tracks: [
        { title: 'Synapses EP', artist: 'Axonberg', url: 'https://label.example.org/album/synapses-ep' },
        { title: 'Pattern 3', artist: 'Moritz von Oswald Trio' },
      ],
    });
    expect(node.track).toEqual([
      {
        '@type': 'MusicRecording',
        name: 'Synapses EP',
        byArtist: { '@type': 'MusicGroup', name: 'Axonberg' },
        url: 'https://label.example.org/album/synapses-ep',
      },
      {
        '@type': 'MusicRecording',
        name: 'Pattern 3',
        byArtist: { '@type': 'MusicGroup', name: 'Moritz von Oswald Trio' },
      },
    ]);
    expect(missingProperties(node)).toEqual([]);
  });

  it('leaves out the series and description it does not have', () => {
    const node = radioEpisode({
      title: 'Invité',
      description: '',
      url: 'https://a.example/x.mp3',
      link: 'https://radio.example.org/emissions/invite',
      duration: 0,
      cover: '',
      pubDate: null,
      artist: 'Invité',
    });
    expect(node).not.toHaveProperty('partOfSeries');
    expect(node).not.toHaveProperty('description');
    expect(node).not.toHaveProperty('track');
    expect(missingProperties(node)).toEqual([]);
  });
});

describe('missingProperties', () => {
  it('names each required property that is missing or empty, wherever the node sits', () => {
    expect(
      missingProperties({
        '@type': 'ItemList',
        itemListElement: [
          { '@type': 'ListItem', position: 1, item: { '@type': 'MusicAlbum', name: '', byArtist: null } },
        ],
      }),
    ).toEqual(['$.itemListElement[0].item.name', '$.itemListElement[0].item.byArtist']);
    expect(missingProperties({ '@type': 'RadioSeries', url: 'x' })).toEqual(['$.name']);
    expect(missingProperties({ '@type': 'Inconnu' })).toEqual([]);
    expect(Object.keys(REQUIRED_PROPERTIES)).toContain('RadioEpisode');
  });
});

describe('musicGroup, a played artist', () => {
  it('names the artist and their other pages, and leaves out what it does not have', () => {
    const group = musicGroup({
      name: 'Basic Channel',
      url: `${ORIGIN}/artistes/basic-channel`,
      description: 'Basic Channel : 3 passages.',
      sameAs: ['https://label.example.org/album/quadrant'],
    });
    expect(group).toEqual({
      '@context': 'https://schema.org',
      '@type': 'MusicGroup',
      name: 'Basic Channel',
      url: `${ORIGIN}/artistes/basic-channel`,
      description: 'Basic Channel : 3 passages.',
      sameAs: ['https://label.example.org/album/quadrant'],
    });
    expect(missingProperties(group)).toEqual([]);
    expect(musicGroup({ name: 'X', url: `${ORIGIN}/artistes/x`, sameAs: [] })).toEqual({
      '@context': 'https://schema.org',
      '@type': 'MusicGroup',
      name: 'X',
      url: `${ORIGIN}/artistes/x`,
    });
  });
});
