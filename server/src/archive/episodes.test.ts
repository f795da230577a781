import type { FeedPodcast } from '../feed';
import { buildCatalogue } from '../episodes/catalogue';
import { archiveSummary, withArchives, type ArchivedShows } from './episodes';
import { RECORD_VERSION, type ArchiveRecord } from './record';

const residences = [
  { id: 'axonberg', artist: 'Axonberg', styles: ['techno'] },
  { id: 'la-brume', artist: 'La Brume', styles: ['ambient'] },
];

function record(overrides: Partial<ArchiveRecord> = {}): ArchiveRecord {
  return {
    version: RECORD_VERSION,
    id: 'axonberg-2026-11-24-20h00',
    residence: 'axonberg',
    title: 'Synapses — direct du 24 novembre 2026',
    artist: 'Axonberg',
    slot: { start: '2026-11-24T19:00:00.000Z', end: '2026-11-24T21:00:00.000Z' },
    audio: { start: '2026-11-24T19:00:00.000Z', end: '2026-11-24T21:00:00.000Z' },
    seconds: 7170,
    frames: 274_000,
    bytes: 114_600_123,
    gaps: [{ at: 3600, from: '2026-11-24T20:00:00.000Z', to: '2026-11-24T20:00:30.000Z', seconds: 30 }],
    truncated: null,
    chapters: [
      { start: 0, artist: 'Lumière Noire', title: 'Première' },
      { start: 61.5, artist: 'Kiko', title: 'Deuxième' },
    ],
    published: true,
    createdAt: '2026-11-24T21:00:30.000Z',
    ...overrides,
  };
}

function podcast(link: string, artist: string, pubDate: string): FeedPodcast {
  return {
    url: `https://audio.example/${link}.mp3`,
    duration: 3600,
    artist,
    show: 'Synapses',
    cover: '',
    link: `https://soundcloud.example/${link}`,
    pubDate,
  };
}

const shows = (records: ArchiveRecord[]): ArchivedShows => ({
  revision: 'r1',
  records,
  origin: 'https://radio.example.org',
  covers: { axonberg: '/assets/images/residences/axonberg-400.webp' },
});

describe('a live archive as an episode of its residence', () => {
  it('is an episode: its MP3 the audio with its exact length, its residence’s, its chapters the tracklist', () => {
    const feed = [podcast('older', 'Axonberg', '2026-11-10T20:00:00.000Z')];
    const merged = withArchives(feed, shows([record()]), residences);
    const catalogue = buildCatalogue(merged.podcasts, residences, merged.tracklists);
    const episode = catalogue.find('axonberg-2026-11-24-20h00');
    expect(episode).toMatchObject({
      url: '/archives/axonberg-2026-11-24-20h00.mp3',
      length: 114_600_123,
      duration: 7170,
      artist: 'Axonberg',
      show: 'Synapses — direct du 24 novembre 2026',
      cover: '/assets/images/residences/axonberg-400.webp',
      pubDate: '2026-11-24T21:00:00.000Z',
      residences: ['axonberg'],
      styles: ['techno'],
    });
    // Newest first, with the feed's.
    expect(catalogue.episodes.map((entry) => entry.slug)).toEqual(['axonberg-2026-11-24-20h00', 'older']);
    expect(catalogue.chapters('axonberg-2026-11-24-20h00')?.chapters).toEqual([
      { startTime: 0, title: 'Lumière Noire — Première' },
      { startTime: 61, title: 'Kiko — Deuxième' },
    ]);
    expect(catalogue.query({ q: 'Kiko' }).items.map((entry) => entry.slug)).toEqual(['axonberg-2026-11-24-20h00']);
    expect(merged.sameAs.size).toBe(0);
  });

  it('says when it was live and what is missing, in French', () => {
    expect(archiveSummary(record())).toBe(
      'Enregistré en direct le mardi 24 novembre 2026, de 20:00 à 22:00.<br>Le direct a été interrompu 0:30 à 1:00:00 : ce passage manque.',
    );
    expect(archiveSummary(record({ gaps: [], truncated: { from: '2026-11-24T20:00:00.000Z', missing: 3600 } }))).toBe(
      'Enregistré en direct le mardi 24 novembre 2026, de 20:00 à 22:00.<br>Le début de l’émission (1:00:00) n’était plus gardé quand elle s’est terminée : l’enregistrement commence à 21:00.',
    );
  });

  it('is one episode with SoundCloud’s copy of the same show: SoundCloud’s, with the archive’s chapters', () => {
    const feed = [
      podcast('synapses-24-novembre', 'Axonberg', '2026-11-27T10:00:00.000Z'),
      // Another residence's item of the same days: not the same show.
      podcast('brume', 'La Brume', '2026-11-25T10:00:00.000Z'),
      // Axonberg's, but before the slot: not the same show.
      podcast('avant', 'Axonberg', '2026-11-20T10:00:00.000Z'),
    ];
    const merged = withArchives(feed, shows([record()]), residences);
    const catalogue = buildCatalogue(merged.podcasts, residences, merged.tracklists);
    expect(catalogue.episodes.map((entry) => entry.slug)).toEqual(['synapses-24-novembre', 'brume', 'avant']);
    expect(catalogue.find('axonberg-2026-11-24-20h00')).toBeUndefined();
    expect(catalogue.chapters('synapses-24-novembre')?.chapters).toHaveLength(2);
    expect(merged.sameAs).toEqual(
      new Map([['https://soundcloud.example/synapses-24-novembre', 'axonberg-2026-11-24-20h00']]),
    );
  });

  it('keeps a volunteer’s tracklist over the archive’s chapters', () => {
    const feed = [podcast('synapses-24-novembre', 'Axonberg', '2026-11-27T10:00:00.000Z')];
    const merged = withArchives(feed, shows([record()]), residences);
    const written = { episode: 'synapses-24-novembre', tracks: [{ start: 5, artist: 'Écrit', title: 'À la main' }] };
    const catalogue = buildCatalogue(merged.podcasts, residences, [...merged.tracklists, written]);
    expect(catalogue.chapters('synapses-24-novembre')?.chapters).toEqual([
      { startTime: 5, title: 'Écrit — À la main' },
    ]);
  });

  it('changes nothing without archives', () => {
    const feed = [podcast('a', 'Axonberg', '2026-11-27T10:00:00.000Z')];
    expect(withArchives(feed, { revision: '', records: [], origin: 'http://localhost' }, residences)).toEqual({
      podcasts: feed,
      tracklists: [],
      sameAs: new Map(),
    });
  });
});
