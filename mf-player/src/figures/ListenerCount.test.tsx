import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { emit } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { configurePlayer } from '../player/config';
import {
  FakeEventSource,
  installEventSource,
  installMediaSession,
  json,
  playerAudio,
  removeEventSource,
  removeMediaSession,
  startLoopbackServer,
  stubMediaPlayback,
  type LoopbackServer,
} from '../testing/browser';
import Player from '../exposed/Player';
import { frenchCount } from './ListenerCount';

// « 23 à l'écoute » in the open player, live (docs/player.md, « Figures »), from the live channel,
// and the live's beacon sent through the page's beacon API once the live really plays.

const NOW = { artist: 'Axonberg', title: 'Synapses' };
let server: LoopbackServer;
let beacons: [string, string][];

beforeAll(async () => {
  server = await startLoopbackServer({ '/api/nowplaying': json(NOW) });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  configurePlayer({ apiBase: `${server.origin}/api`, streamUrl: `${server.origin}/direct.mp3`, timeline: false });
  stubMediaPlayback();
  installMediaSession();
  installEventSource();
  beacons = [];
  Object.defineProperty(navigator, 'sendBeacon', {
    configurable: true,
    value: (url: string, body: string) => beacons.push([url, body]),
  });
});

afterEach(() => {
  removeMediaSession();
  removeEventSource();
  Reflect.deleteProperty(navigator, 'sendBeacon');
  jest.restoreAllMocks();
});

const player = () => screen.getByRole('region', { name: 'Lecteur radio' });

async function channelSays(message: object): Promise<void> {
  await waitFor(() => {
    expect(FakeEventSource.instances.at(-1)?.closed).toBe(false);
  });
  act(() => {
    FakeEventSource.instances.at(-1)?.send('nowplaying', JSON.stringify({ ...NOW, ...message }));
  });
}

it('says how many listen while the channel carries it, and nothing otherwise', async () => {
  renderWithProviders(<Player />);
  act(() => {
    emit('live-selected', {});
  });
  await screen.findByRole('button', { name: 'Ouvrir le chat' });
  // The now-playing asked when the live starts, answered before the channel speaks.
  await waitFor(() => {
    expect(server.requests).toContain('/api/nowplaying');
  });
  await within(player()).findByText('Axonberg');
  await channelSays({ listeners: 1234 });
  expect(await within(player()).findByText(/^1\s234 à l’écoute$/)).toBeInTheDocument();
  await channelSays({});
  await waitFor(() => {
    expect(within(player()).queryByText(/à l’écoute/)).not.toBeInTheDocument();
  });
  // Under the threshold, or not a count: refused as the server never sends it.
  for (const listeners of [3, -1, 2.5, '23', 1e12]) {
    await channelSays({ listeners });
    expect(within(player()).queryByText(/à l’écoute/)).not.toBeInTheDocument();
  }
});

it('sends the live’s beacon, the smallest body, once the sound really plays', async () => {
  renderWithProviders(<Player />);
  act(() => {
    emit('live-selected', {});
  });
  await screen.findByRole('button', { name: 'Ouvrir le chat' });
  expect(beacons).toEqual([]);
  fireEvent(playerAudio(), new Event('playing'));
  await waitFor(() => {
    expect(beacons).toEqual([[`${server.origin}/api/figures/beacon`, '{"kind":"live"}']]);
  });
});

describe('frenchCount', () => {
  it('writes a count as Intl.NumberFormat in French does, without starting ICU on the page', () => {
    const intl = new Intl.NumberFormat('fr-FR');
    for (const value of [0, 5, 42, 999, 1000, 1234, 12_345, 999_999, 1_000_000, 1_234_567, 98_765_432]) {
      expect(frenchCount(value)).toBe(intl.format(value));
    }
  });
});
