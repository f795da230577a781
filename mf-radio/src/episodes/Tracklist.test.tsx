import { act, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import {
  emit,
  on,
  releaseUrl,
  type EpisodeDetail,
  type PlayerSnapshot,
  type QueueAddRequest,
  type ReplayRequest,
} from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { resumeKey } from '@collectif/shared/resume';
import EpisodePage from '../exposed/EpisodePage';
import { startFakeApi, type FakeApi } from '../testing/fakeApi';

const SLUG = 'axonberg-synapses-11';

const episode: EpisodeDetail = {
  url: '/api/demo/replays/synapses-11.mp3',
  duration: 3900,
  artist: 'Axonberg',
  show: 'Synapses #11',
  cover: '/assets/images/default-cover.webp',
  link: 'https://soundcloud.com/collectif/synapses-11',
  pubDate: '2026-10-26T19:00:00.000Z',
  slug: SLUG,
  residences: [],
  styles: [],
  tracks: [
    { start: 0, artist: 'Axonberg', title: 'Synapses EP', release: '/album/synapses-ep', also: [] },
    {
      start: 11,
      artist: 'Moritz von Oswald Trio',
      title: 'Pattern 3',
      also: [
        { slug: 'axonberg-synapses-10', artist: 'Axonberg', show: 'Synapses #10' },
        { slug: 'velours-club-4', artist: 'Velours', show: 'Velours Club #4' },
        { slug: 'nebuleuse-2', artist: 'Nébuleuse', show: 'Orbite #2' },
        { slug: 'nebuleuse-1', artist: 'Nébuleuse', show: 'Orbite #1' },
      ],
    },
    { start: 22, artist: 'Basic Channel', title: 'Phylyps Trak', also: [], artistSlug: 'basic-channel' },
    { start: 3750, artist: 'Deepchord', title: 'Vantage Isle', also: [] },
  ],
};

let api: FakeApi;
let answer: unknown;

beforeEach(async () => {
  window.scrollTo = jest.fn();
  answer = episode;
  api = await startFakeApi({ [`/episodes/${SLUG}`]: () => ({ body: answer }) });
});

afterEach(async () => {
  await api.close();
});

const open = (search = '') =>
  renderWithProviders(<EpisodePage />, { route: `/emissions/${SLUG}${search}`, path: 'emissions/:slug' });

async function tracklist() {
  return screen.findByRole('region', { name: 'Titres joués' });
}

function rows(list: HTMLElement) {
  return within(list).getAllByRole('listitem');
}

/** The player's public state, as the player says it while it holds a replay. */
function playerAt(currentTime: number, changes: Partial<PlayerSnapshot> = {}) {
  act(() => {
    emit('player-state', {
      mode: 'REPLAY',
      open: true,
      playing: true,
      loading: false,
      artist: episode.artist,
      show: episode.show,
      currentTime,
      duration: episode.duration,
      source: resumeKey(episode),
      ...changes,
    });
  });
}

describe("an episode's tracklist", () => {
  it('lists each row: its time, a link to that moment of the page, artist — title', async () => {
    open();
    const list = await tracklist();
    expect(within(list).getByRole('heading', { level: 2, name: 'Titres joués' })).toBeInTheDocument();
    expect(rows(list).map((row) => row.textContent)).toEqual([
      expect.stringMatching(/^0:00Axonberg — Synapses EP/),
      expect.stringMatching(/^0:11Moritz von Oswald Trio — Pattern 3/),
      // Each row's « + » is said « Ajouter à la file » (its name says which moment).
      '0:22Basic Channel — Phylyps TrakAjouter à la file',
      '1:02:30Deepchord — Vantage IsleAjouter à la file',
    ]);
    const at = within(list).getByRole('link', { name: 'Écouter à partir de 0:11' });
    expect(at).toHaveAttribute('href', `/emissions/${SLUG}?t=11`);
    expect(at).toHaveTextContent('0:11');
    expect(within(list).getByRole('link', { name: 'Écouter à partir de 1:02:30' })).toHaveAttribute(
      'href',
      `/emissions/${SLUG}?t=3750`,
    );
  });

  it("links a label release's title to its page, and up to three other episodes that played the artist", async () => {
    open();
    const list = await tracklist();
    const release = within(list).getByRole('link', { name: 'Synapses EP (nouvel onglet)' });
    expect(release).toHaveAttribute('href', releaseUrl('/album/synapses-ep'));
    expect(release).toHaveAttribute('target', '_blank');
    expect(within(list).queryByRole('link', { name: /Pattern 3/ })).not.toBeInTheDocument();
    const second = rows(list)[1]!;
    expect(second).toHaveTextContent(
      'Aussi dans : Axonberg · Synapses #10, Velours · Velours Club #4, Nébuleuse · Orbite #2',
    );
    expect(within(second).getByRole('link', { name: 'Axonberg · Synapses #10' })).toHaveAttribute(
      'href',
      '/emissions/axonberg-synapses-10',
    );
    expect(within(second).queryByRole('link', { name: /Orbite #1/ })).not.toBeInTheDocument();
    expect(rows(list)[2]).not.toHaveTextContent('Aussi dans');
  });

  it('plays the episode from a time in the player, with its slug, and the address says that moment', async () => {
    const user = userEvent.setup();
    const asked: ReplayRequest[] = [];
    const off = on('replay-selected', (request) => asked.push(request));
    open();
    const list = await tracklist();
    expect(screen.getByRole('button', { name: 'Écouter' })).toBeInTheDocument();
    await user.click(within(list).getByRole('link', { name: 'Écouter à partir de 0:22' }));
    off();
    expect(asked).toEqual([expect.objectContaining({ slug: SLUG, start: 22, url: episode.url, artist: 'Axonberg' })]);
    // The page stays, its address now at ?t=22: « Écouter » says so, as the server would.
    expect(await screen.findByRole('button', { name: 'Écouter à partir de 0:22' })).toBeInTheDocument();
    expect(screen.getByRole('heading', { level: 1, name: 'Axonberg' })).toBeInTheDocument();
  });

  it('marks the row the player is at while it holds this episode, and none otherwise', async () => {
    open();
    const list = await tracklist();
    const current = () => rows(list).filter((row) => row.getAttribute('aria-current') === 'true');
    expect(current()).toEqual([]);
    playerAt(15);
    expect(current().map((row) => row.textContent)).toEqual([expect.stringContaining('Pattern 3')]);
    playerAt(22.4);
    expect(current().map((row) => row.textContent)).toEqual([expect.stringContaining('Phylyps Trak')]);
    // Another replay, the live stream or a closed player: no row is the player's.
    playerAt(22.4, { source: 'soundcloud:tracks:1' });
    expect(current()).toEqual([]);
    playerAt(0, { mode: 'LIVE', duration: 0 });
    expect(current()).toEqual([]);
    playerAt(30, { open: false, playing: false });
    expect(current()).toEqual([]);
  });

  it("links a row's artist to their page when the index has one, and only then", async () => {
    open();
    const list = await tracklist();
    expect(within(rows(list)[2]!).getByRole('link', { name: 'Basic Channel' })).toHaveAttribute(
      'href',
      '/artistes/basic-channel',
    );
    expect(within(list).queryByRole('link', { name: 'Deepchord' })).not.toBeInTheDocument();
  });

  it("never links a row's artist by a slug that cannot make an address", async () => {
    answer = {
      ...episode,
      tracks: [{ start: 5, artist: 'Hostile', title: 'Titre', also: [], artistSlug: '../admin?x=<b>' }],
    };
    open();
    const list = await tracklist();
    expect(rows(list)[0]).toHaveTextContent('Hostile — Titre');
    expect(within(list).queryByRole('link', { name: 'Hostile' })).not.toBeInTheDocument();
  });

  it("puts the episode in the player's queue from a row's moment, and the whole episode from the page", async () => {
    const user = userEvent.setup();
    const added: QueueAddRequest[] = [];
    const off = on('queue-add', (request) => added.push(request));
    open();
    const list = await tracklist();
    await user.click(
      within(list).getByRole('button', { name: 'Ajouter à la file à partir de 1:02:30 : Deepchord — Vantage Isle' }),
    );
    await user.click(screen.getByRole('button', { name: 'Ajouter à la file' }));
    off();
    // Slugs and starts only, never an address (docs/player.md, « The queue »).
    expect(added).toEqual([{ items: [{ slug: SLUG, start: 3750 }] }, { items: [{ slug: SLUG }] }]);
  });

  it('adds the episode at the moment its address names', async () => {
    const user = userEvent.setup();
    const added: QueueAddRequest[] = [];
    const off = on('queue-add', (request) => added.push(request));
    open('?t=1m');
    await tracklist();
    await user.click(screen.getByRole('button', { name: 'Ajouter à la file' }));
    off();
    expect(added).toEqual([{ items: [{ slug: SLUG, start: 60 }] }]);
  });

  it('is not shown for an episode without a tracklist', async () => {
    const { tracks: _tracks, ...plain } = episode;
    answer = plain;
    open();
    expect(await screen.findByRole('heading', { level: 1, name: 'Axonberg' })).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Titres joués' })).not.toBeInTheDocument();
  });
});
