import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  makeStore,
  on,
  radioSettings,
  resetEvents,
  siteConfig,
  type EpisodeDetail,
  type QueueAddRequest,
  type ReplayRequest,
} from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { declaredHref } from '@collectif/shared/testing';
import { missingProperties } from '@collectif/shared/seo';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';
import PlayedArtistPage, { page as playedArtistPage } from './PlayedArtistPage';

const SLUG = 'basic-channel';

/** GET /api/artists/basic-channel as the server answers it: newest episode first, then by start. */
const BASIC_CHANNEL = {
  slug: SLUG,
  name: 'Basic Channel',
  indexed: true,
  plays: [
    {
      episode: 'axonberg-synapses-11',
      artist: 'Axonberg',
      show: 'Synapses #11',
      date: '2026-10-26T19:00:00.000Z',
      start: 22,
      title: 'Phylyps Trak',
    },
    {
      episode: 'axonberg-synapses-11',
      artist: 'Axonberg',
      show: 'Synapses #11',
      date: '2026-10-26T19:00:00.000Z',
      start: 1830,
      title: 'Quadrant Dub',
    },
    {
      episode: 'velours-club-4',
      artist: 'Velours',
      show: 'Velours Club #4',
      date: '2026-09-12T19:00:00.000Z',
      start: 3750,
      title: 'Octagon',
    },
  ],
  releases: [
    {
      title: 'Quadrant',
      href: '/album/quadrant',
      url: 'https://label.example.org/album/quadrant',
      image: '/assets/images/releases/quadrant.webp',
    },
  ],
  residence: { id: 'axonberg', artist: 'Axonberg', show: 'Synapses' },
  sameAs: ['https://label.example.org/album/quadrant'],
};

const SYNAPSES: EpisodeDetail = {
  url: '/api/demo/replays/synapses-11.mp3',
  duration: 3900,
  artist: 'Axonberg',
  show: 'Synapses #11',
  cover: '/assets/images/default-cover.webp',
  link: 'https://soundcloud.com/collectif/synapses-11',
  pubDate: '2026-10-26T19:00:00.000Z',
  slug: 'axonberg-synapses-11',
  residences: [],
  styles: [],
};

let api: FakeApi;
let answer: { status?: number; body: unknown };

beforeEach(async () => {
  window.scrollTo = jest.fn();
  answer = { body: BASIC_CHANNEL };
  api = await startFakeApi({
    [`/artists/${SLUG}`]: () => answer,
    '/artists/basic-channel-berlin': () => answer,
    '/episodes/axonberg-synapses-11': () => ({ body: SYNAPSES }),
  });
});

afterEach(async () => {
  resetEvents();
  await api.close();
});

const open = (slug = SLUG) =>
  renderWithProviders(<PlayedArtistPage />, { route: `/artistes/${slug}`, path: 'artistes/:slug' });

describe('PlayedArtistPage', () => {
  it('names every episode that played the artist, each play at its time, their releases and residence', async () => {
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Basic Channel' })).toBeInTheDocument();
    expect(
      screen.getByText(
        `Basic Channel : 3 passages à l’antenne de ${siteConfig.name}, 1 sortie sur le label, la résidence Synapses.`,
      ),
    ).toBeInTheDocument();
    const plays = screen.getByRole('region', { name: 'Passages à l’antenne' });
    const episodes = within(plays).getAllByRole('heading', { level: 3 });
    expect(episodes.map((heading) => heading.textContent)).toEqual([
      'Axonberg · Synapses #11',
      'Velours · Velours Club #4',
    ]);
    expect(within(plays).getByRole('link', { name: 'Axonberg · Synapses #11' })).toHaveAttribute(
      'href',
      '/emissions/axonberg-synapses-11',
    );
    expect(within(plays).getByRole('link', { name: 'Écouter à partir de 30:30 : Quadrant Dub' })).toHaveAttribute(
      'href',
      '/emissions/axonberg-synapses-11?t=1830',
    );
    expect(within(plays).getByRole('link', { name: 'Écouter à partir de 1:02:30 : Octagon' })).toHaveAttribute(
      'href',
      '/emissions/velours-club-4?t=3750',
    );
    const releases = screen.getByRole('region', { name: 'Sorties sur le label' });
    const release = within(releases).getByRole('link', { name: 'Quadrant (nouvel onglet)' });
    expect(release).toHaveAttribute('href', 'https://label.example.org/album/quadrant');
    expect(within(releases).getByRole('link', { name: 'Toutes les sorties du label' })).toHaveAttribute(
      'href',
      '/label',
    );
    expect(screen.getByRole('link', { name: 'Axonberg · Synapses' })).toHaveAttribute('href', '/residences/axonberg');
  });

  it("« Tout écouter » puts every play in the player's queue, each from its time, named by the artist", async () => {
    const user = userEvent.setup();
    const added: QueueAddRequest[] = [];
    const off = on('queue-add', (request) => added.push(request));
    open();
    await user.click(await screen.findByRole('button', { name: 'Tout écouter' }));
    await user.click(screen.getByRole('button', { name: 'Ajouter à la file à partir de 1:02:30 : Octagon' }));
    off();
    expect(added).toEqual([
      {
        items: [
          { slug: 'axonberg-synapses-11', start: 22 },
          { slug: 'axonberg-synapses-11', start: 1830 },
          { slug: 'velours-club-4', start: 3750 },
        ],
        label: 'Basic Channel',
      },
      { items: [{ slug: 'velours-club-4', start: 3750 }] },
    ]);
  });

  it('plays an episode from a play’s time in the player, the page staying where it is', async () => {
    const user = userEvent.setup();
    const asked: ReplayRequest[] = [];
    const off = on('replay-selected', (request) => asked.push(request));
    open();
    await user.click(await screen.findByRole('link', { name: 'Écouter à partir de 30:30 : Quadrant Dub' }));
    // The episode's answer first (the player needs its audio), then the request.
    await waitFor(() => {
      expect(asked).toHaveLength(1);
    });
    expect(screen.getByRole('heading', { level: 1, name: 'Basic Channel' })).toBeInTheDocument();
    off();
    expect(asked).toEqual([
      expect.objectContaining({ slug: 'axonberg-synapses-11', start: 1830, url: SYNAPSES.url, artist: 'Axonberg' }),
    ]);
  });

  it('shows a name with markup as text, and leaves out what it cannot link to', async () => {
    answer = {
      body: {
        ...BASIC_CHANNEL,
        name: '<img src=x onerror=alert(1)>Dub',
        plays: [{ ...BASIC_CHANNEL.plays[0], episode: '../../admin' }, BASIC_CHANNEL.plays[2]],
        releases: [
          { ...BASIC_CHANNEL.releases[0], url: 'javascript:alert(1)' },
          { title: 'Sans adresse', href: '/album/x', url: 'https://label.example.org/album/x' },
        ],
        residence: undefined,
      },
    };
    open();
    expect(
      await screen.findByRole('heading', { level: 1, name: '<img src=x onerror=alert(1)>Dub' }),
    ).toBeInTheDocument();
    expect(document.querySelector('img[src="x"]')).toBeNull();
    const plays = screen.getByRole('region', { name: 'Passages à l’antenne' });
    expect(
      within(plays)
        .getAllByRole('heading', { level: 3 })
        .map((h) => h.textContent),
    ).toEqual(['Velours · Velours Club #4']);
    const releases = screen.getByRole('region', { name: 'Sorties sur le label' });
    expect(
      within(releases)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Sans adresse (nouvel onglet)']);
    expect(document.querySelector('a[href^="javascript"]')).toBeNull();
  });

  it('answers an unknown artist with a page that leads to every artist, and never asks for an impossible one', async () => {
    answer = { status: 404, body: { error: 'artist_not_found', message: 'Cet artiste n’existe pas.' } };
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Artiste introuvable' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Voir tous les artistes' })).toHaveAttribute('href', '/artistes');
    open('Basic_Channel');
    expect(screen.getAllByRole('heading', { level: 1, name: 'Artiste introuvable' })).toHaveLength(2);
    expect(api.requests).toEqual([`/artists/${SLUG}`]);
  });
});

describe('the played artist page’s head', () => {
  const ORIGIN = 'https://radio.example.org';
  const context = (slug: string) => ({
    params: { slug },
    origin: ORIGIN,
    query: new URLSearchParams(),
    radio: radioSettings(),
    href: declaredHref,
  });
  const headOf = async (slug = SLUG) => {
    const store = makeStore();
    await Promise.all(playedArtistPage.load!({ ...context(slug), dispatch: store.dispatch }));
    return playedArtistPage.head!({ ...context(slug), state: store.getState() });
  };

  it('says who the artist is, as a MusicGroup with their other pages', async () => {
    const head = await headOf();
    expect(head.title).toBe('Basic Channel · Artistes');
    expect(head.description).toBe(
      `Basic Channel : 3 passages à l’antenne de ${siteConfig.name}, 1 sortie sur le label, la résidence Synapses.`,
    );
    expect(head.canonicalPath).toBe('/artistes/basic-channel');
    expect(head.noindex).toBeUndefined();
    expect(head.jsonLd).toEqual([
      {
        '@context': 'https://schema.org',
        '@type': 'MusicGroup',
        name: 'Basic Channel',
        url: `${ORIGIN}/artistes/basic-channel`,
        description: head.description,
        sameAs: ['https://label.example.org/album/quadrant'],
      },
    ]);
    expect(missingProperties(head.jsonLd)).toEqual([]);
  });

  it('keeps a thin page out of search engines, names the canonical artist for a merged spelling', async () => {
    answer = { body: { ...BASIC_CHANNEL, indexed: false, sameAs: [] } };
    const head = await headOf('basic-channel-berlin');
    expect(head.noindex).toBe(true);
    expect(head.canonicalPath).toBe('/artistes/basic-channel');
    expect(head.jsonLd?.[0]).not.toHaveProperty('sameAs');
  });

  it('bounds the description of a very long name', async () => {
    answer = { body: { ...BASIC_CHANNEL, name: 'Dub '.repeat(500).trim() } };
    const head = await headOf();
    expect(head.description?.length).toBeLessThanOrEqual(160);
    expect(head.description).toMatch(/…$/);
  });

  it('answers 404 for an unknown artist and for an address that cannot be one', async () => {
    answer = { status: 404, body: { error: 'artist_not_found', message: 'Inconnu.' } };
    expect((await headOf()).status).toBe(404);
    expect((await headOf()).title).toBe('Artiste introuvable · Artistes');
    expect((await headOf('Pas un artiste')).status).toBe(404);
    // A failure that is not « unknown » is not said so: the page says it is unavailable.
    answer = { status: 503, body: { error: 'unavailable', message: 'Indisponible.' } };
    expect((await headOf()).status).toBeUndefined();
  });
});
