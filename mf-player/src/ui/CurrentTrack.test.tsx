import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { api, emit, siteConfig, type EpisodeDetail, type ReplayRequest } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { configurePlayer } from '../player/config';
import {
  installEventSource,
  installMediaSession,
  json,
  removeEventSource,
  removeMediaSession,
  setMediaState,
  startLoopbackServer,
  stubMediaPlayback,
  type FakeMediaSession,
  type LoopbackServer,
  playerAudio,
} from '../testing/browser';
import Player from '../exposed/Player';

const SLUG = 'axonberg-synapses-11';

const episode: EpisodeDetail = {
  url: '/api/demo/replays/synapses-11.mp3',
  duration: 60,
  artist: 'Axonberg',
  show: 'Synapses #11',
  cover: '/assets/images/a.webp',
  link: 'https://soundcloud.com/collectif/synapses-11',
  pubDate: '2026-10-26T19:00:00.000Z',
  slug: SLUG,
  residences: ['axonberg'],
  styles: ['techno'],
  tracks: [
    { start: 0, artist: 'Axonberg', title: 'Synapses EP', release: '/album/synapses-ep', also: [] },
    { start: 11, artist: 'Moritz von Oswald Trio', title: 'Pattern 3', also: [] },
    { start: 22, artist: 'Basic Channel', title: 'Phylyps Trak', also: [] },
  ],
};

const request: ReplayRequest = {
  url: episode.url,
  duration: episode.duration,
  artist: episode.artist,
  show: episode.show,
  cover: episode.cover,
  slug: SLUG,
};

let server: LoopbackServer;
let session: FakeMediaSession;

beforeAll(async () => {
  server = await startLoopbackServer({ [`/api/episodes/${SLUG}`]: json(episode) });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  configurePlayer({ apiBase: `${server.origin}/api` });
  stubMediaPlayback();
  session = installMediaSession();
  installEventSource();
});

afterEach(() => {
  removeMediaSession();
  removeEventSource();
  jest.restoreAllMocks();
});

const audio = playerAudio;

function player() {
  return screen.getByRole('region', { name: 'Lecteur radio' });
}

/** The audio reaches `seconds`, as the element's time event tells the player. */
function playTo(seconds: number) {
  audio().currentTime = seconds;
  fireEvent(audio(), new Event('timeupdate'));
}

async function choose(replay: ReplayRequest) {
  act(() => {
    emit('replay-selected', replay);
  });
  await screen.findByRole('button', { name: 'Revenir au direct' });
  await waitFor(() => {
    expect(audio().getAttribute('src')).not.toBeNull();
  });
  setMediaState(audio(), { duration: 60 });
}

describe('the current track of a replay', () => {
  it('shows the track that plays, from the episode’s tracklist, as the replay goes on', async () => {
    renderWithProviders(<Player />);
    await choose({ ...request, start: 11 });
    expect(await within(player()).findByText('Moritz von Oswald Trio — Pattern 3')).toBeInTheDocument();
    expect(within(player()).getByText('Titre en cours :', { exact: false })).toHaveClass('visually-hidden');
    playTo(25);
    expect(await within(player()).findByText('Basic Channel — Phylyps Trak')).toBeInTheDocument();
    expect(within(player()).queryByText(/Pattern 3/)).not.toBeInTheDocument();
    // The replay's own lines stay as they were.
    expect(within(player()).getByText('Axonberg')).toBeInTheDocument();
    expect(within(player()).getByText('Synapses #11')).toBeInTheDocument();
    expect(server.requests).toEqual([`/api/episodes/${SLUG}`]);
  });

  it('says that track to the system’s media controls, the show as its album', async () => {
    renderWithProviders(<Player />);
    await choose(request);
    await waitFor(() => {
      expect(session.metadata).toMatchObject({ title: 'Synapses EP', artist: 'Axonberg', album: 'Synapses #11' });
    });
    playTo(12);
    await waitFor(() => {
      expect(session.metadata).toMatchObject({
        title: 'Pattern 3',
        artist: 'Moritz von Oswald Trio',
        album: 'Synapses #11',
        artwork: [{ src: `${server.origin}/assets/images/a.webp` }],
      });
    });
  });

  it('reads the answer an episode page already holds, asking nothing', async () => {
    const { store } = renderWithProviders(<Player />);
    await store.dispatch(api.util.upsertQueryData('episode', SLUG, episode));
    await choose({ ...request, start: 30 });
    expect(within(player()).getByText('Basic Channel — Phylyps Trak')).toBeInTheDocument();
    expect(server.requests).toEqual([]);
  });

  it('shows nothing more for a replay without a slug, and asks nothing', async () => {
    const { slug: _slug, ...withoutSlug } = request;
    renderWithProviders(<Player />);
    await choose(withoutSlug);
    playTo(12);
    expect(within(player()).queryByText(/Titre en cours/)).not.toBeInTheDocument();
    expect(session.metadata).toMatchObject({ title: 'Synapses #11', artist: 'Axonberg', album: siteConfig.name });
    expect(server.requests).toEqual([]);
  });
});
