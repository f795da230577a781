import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { api, type AppStore } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { follow } from '@collectif/shared/follow';
import { setPushChoices } from '@collectif/shared/follow/prevenir';
import { configurePlayer } from '../player/config';
import {
  FakeEventSource,
  installEventSource,
  installMediaSession,
  json,
  removeEventSource,
  removeMediaSession,
  startLoopbackServer,
  stubMediaPlayback,
  type LoopbackServer,
} from '../testing/browser';
import Player from '../exposed/Player';

// A followed residence going on air, said while the site is open (docs/follow.md, « Going on air »):
// the player loads the announcer only for a browser that follows one, reads the now-playing
// channel, and says it in a polite live region, and by a notification when the visitor allowed it.

const summaries = [
  { id: 'axonberg', artist: 'Axonberg', show: 'Synapses' },
  { id: 'la-brume', artist: 'La Brume', show: 'Nappes du Matin' },
  { id: 'capitole-sound', artist: 'Capitole Sound', show: 'Session Capitole' },
];

class FakeNotification {
  static permission: NotificationPermission = 'granted';
  static shown: { title: string; options?: NotificationOptions }[] = [];
  onclick: (() => void) | null = null;
  constructor(title: string, options?: NotificationOptions) {
    FakeNotification.shown.push({ title, options });
  }
  close(): void {
    return undefined;
  }
}

let server: LoopbackServer;

beforeAll(async () => {
  server = await startLoopbackServer({
    '/api/nowplaying': json({ artist: 'Capitole Sound', title: 'Brique et Basse' }),
    '/api/content/residences': json(summaries),
    '/api/schedule': json({ zone: 'Europe/Paris', from: '', to: '', events: [] }),
  });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  window.localStorage.clear();
  server.requests.length = 0;
  configurePlayer({ apiBase: `${server.origin}/api` });
  stubMediaPlayback();
  installMediaSession();
  installEventSource();
  FakeNotification.shown = [];
  FakeNotification.permission = 'granted';
  Object.defineProperty(window, 'Notification', { configurable: true, writable: true, value: FakeNotification });
});

afterEach(() => {
  Reflect.deleteProperty(window, 'Notification');
  removeMediaSession();
  removeEventSource();
  jest.restoreAllMocks();
});

/** The announcer's channel, once it has read where the page starts from. */
async function channel(): Promise<FakeEventSource> {
  await waitFor(() => {
    expect(FakeEventSource.instances.filter((source) => !source.closed)).toHaveLength(1);
  });
  const open = FakeEventSource.instances.find((source) => !source.closed);
  if (open === undefined) throw new Error('pas de canal');
  expect(open.url).toBe(`${server.origin}/api/nowplaying/events`);
  return open;
}

/** The announcer's live region (the open player has one of its own). */
function announcement(): HTMLElement {
  const region = document.querySelector<HTMLElement>('.follow-live [role="status"]');
  if (region === null) throw new Error('pas de région annoncée');
  return region;
}

/**
 * A message of the channel, and the page once it has read it: the answer every part reads says it
 * (the store writes it a few tasks later, and the page renders it).
 */
async function nowPlaying(store: AppStore, source: FakeEventSource, artist: string): Promise<void> {
  act(() => {
    source.send('nowplaying', JSON.stringify({ artist, title: 'Un titre' }));
  });
  await waitFor(() => {
    expect(api.endpoints.nowPlaying.select(undefined)(store.getState()).data?.artist).toBe(artist);
  });
  // Rendered, and its effects run, before the next message.
  await act(async () => {
    await Promise.resolve();
  });
}

describe('the announcer', () => {
  it('is not loaded for a browser that follows nothing: no channel, no request', async () => {
    renderWithProviders(<Player />);
    expect(await screen.findByRole('button', { name: 'Stream : ouvrir le lecteur' })).toBeInTheDocument();
    expect(FakeEventSource.instances).toEqual([]);
    expect(server.requests).toEqual([]);
    expect(document.querySelector('.follow-live')).toBeNull();
  });

  it('says nothing and asks nothing for a stored list of no residence (one tampered with)', async () => {
    window.localStorage.setItem('collectif:suivi', JSON.stringify(['<script>', 42]));
    renderWithProviders(<Player />);
    expect(await screen.findByRole('button', { name: 'Stream : ouvrir le lecteur' })).toBeInTheDocument();
    // Its chunk loaded (the module React's lazy imports, awaited here), and the page rendered again.
    await act(async () => {
      await import('./FollowAnnouncer');
    });
    expect(FakeEventSource.instances).toEqual([]);
    expect(server.requests).toEqual([]);
    expect(document.querySelector('.follow-live')).toBeNull();
  });

  it('says a followed residence going on air, in a polite live region and in a notification', async () => {
    follow('axonberg');
    const { store } = renderWithProviders(<Player />);
    const source = await channel();
    const region = announcement();
    expect(region).toBeEmptyDOMElement();

    // Someone not followed, then a followed residence: only the latter is said.
    await nowPlaying(store, source, 'La Brume');
    await nowPlaying(store, source, 'Axonberg');
    await waitFor(() => {
      expect(region).toHaveTextContent('Axonberg est en direct');
    });
    const said = {
      title: 'Axonberg est en direct',
      options: expect.objectContaining({ body: 'Synapses · Collectif Garonne', lang: 'fr' }) as unknown,
    };
    expect(FakeNotification.shown).toEqual([said]);
    // The same show going on is not said again, nor is it when now-playing goes to another
    // artist and back within half an hour (onAir.test.ts: said again after that).
    await nowPlaying(store, source, 'Axonberg');
    await nowPlaying(store, source, 'La Brume');
    await nowPlaying(store, source, 'Axonberg');
    expect(FakeNotification.shown).toEqual([said]);
    expect(region).toHaveTextContent('Axonberg est en direct');
  });

  it('says nothing of what is on air when the page opens, and shows no notification unless allowed', async () => {
    server.routes.set('/api/nowplaying', json({ artist: 'Axonberg', title: 'Synapse 7' }));
    FakeNotification.permission = 'default';
    try {
      follow('axonberg');
      follow('la-brume');
      const { store } = renderWithProviders(<Player />);
      const source = await channel();
      await nowPlaying(store, source, 'Axonberg');
      expect(announcement()).toBeEmptyDOMElement();
      // Accents and case aside, and one name of « A / B » is enough.
      await nowPlaying(store, source, 'LA BRUME / Invitée');
      await waitFor(() => {
        expect(announcement()).toHaveTextContent('La Brume est en direct');
      });
      expect(FakeNotification.shown).toEqual([]);
    } finally {
      server.routes.set('/api/nowplaying', json({ artist: 'Capitole Sound', title: 'Brique et Basse' }));
    }
  });

  it('« Écouter le direct » opens the live player, whose own channel it then reads; « Fermer » lets it go', async () => {
    const user = userEvent.setup();
    follow('axonberg');
    follow('capitole-sound');
    const { store } = renderWithProviders(<Player />);
    const source = await channel();
    await nowPlaying(store, source, 'Axonberg');
    await user.click(await screen.findByRole('button', { name: 'Écouter le direct' }));
    expect(await screen.findByRole('button', { name: 'Fermer le lecteur' })).toBeInTheDocument();
    // Axonberg's offer is gone. (The live player asks the radio what plays as it opens: the test
    // server's answer, another followed residence, may already be announced in its place.)
    await waitFor(() => {
      expect(announcement()).not.toHaveTextContent('Axonberg');
    });
    // One channel in the tab: the player's.
    expect(source.closed).toBe(true);
    const playerChannel = await channel();
    expect(playerChannel).not.toBe(source);

    await nowPlaying(store, playerChannel, 'Capitole Sound');
    await waitFor(() => {
      expect(announcement()).toHaveTextContent('Capitole Sound est en direct');
    });
    // Listening already: nothing more to offer than closing it.
    expect(screen.queryByRole('button', { name: 'Écouter le direct' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Fermer l’annonce' }));
    expect(announcement()).toBeEmptyDOMElement();
  });

  it('with « Me prévenir » on, links to what the site keeps, and leaves the notification to the push message', async () => {
    follow('axonberg');
    setPushChoices([{ id: 'axonberg', live: true, replay: false }]);
    const { store } = renderWithProviders(<Player />);
    const source = await channel();
    await nowPlaying(store, source, 'Axonberg');
    await waitFor(() => {
      expect(announcement()).toHaveTextContent('Axonberg est en direct');
    });
    expect(screen.getByRole('link', { name: 'Ce que le site garde' })).toHaveAttribute(
      'href',
      '/a-propos#confidentialite',
    );
    expect(FakeNotification.shown).toEqual([]);
  });

  it('a page opened by a live notification (`?ecouter=direct`) opens the player on the live stream, and drops the query', async () => {
    window.history.replaceState(null, '', '/?ecouter=direct');
    try {
      follow('axonberg');
      renderWithProviders(<Player />);
      expect(await screen.findByRole('button', { name: 'Fermer le lecteur' })).toBeInTheDocument();
      expect(window.location.pathname + window.location.search).toBe('/');
    } finally {
      window.history.replaceState(null, '', '/');
    }
  });
});
