import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { siteConfig, type PlayerSnapshot } from '@collectif/shared';
import { AUDIO_ELEMENT_ID } from '../player/audioEngine';
import { chatUrl } from '../player/config';
import {
  installEventSource,
  json,
  startLoopbackServer,
  stubMediaPlayback,
  type LoopbackServer,
  type MediaStubs,
  type Route,
} from '../testing/browser';
import { defineCollectifPlayer, ELEMENT_NAME } from './element';
import { mountPlayer, type MountedPlayer } from './mount';
import { cleanPage, host, inShadow } from './testing';

let server: LoopbackServer;
let media: MediaStubs;
let mounted: MountedPlayer | null = null;

beforeAll(async () => {
  server = await startLoopbackServer({
    '/api/nowplaying': json({ artist: 'DJ Partenaire', title: 'Direct partenaire' }),
    // The settings the server read at start-up (GET /api/radio).
    '/api/radio': json({
      liveStreamUrl: '/flux/radio.mp3',
      chatEmbedUrl: siteConfig.radio.chatEmbedUrl,
      chatRoom: 'salon-de-la-radio',
      twitchChannel: siteConfig.radio.twitchChannel,
    }),
  });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  media = stubMediaPlayback();
  installEventSource();
});

afterEach(() => {
  act(() => {
    mounted?.unmount();
  });
  mounted = null;
  cleanPage(server);
});

function audio(): HTMLAudioElement | null {
  return document.getElementById(AUDIO_ELEMENT_ID) as HTMLAudioElement | null;
}

describe('CollectifPlayer.mount', () => {
  it('renders the player in the element, with its own store, and plays the configured live stream', async () => {
    const element = host();
    const user = userEvent.setup();
    act(() => {
      mounted = mountPlayer(element, { apiBase: `${server.origin}/api`, streamUrl: '/flux/direct.mp3' }, '.x{}');
    });
    const player = inShadow(element);
    await user.click(player.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    expect(await player.findByText('DJ Partenaire')).toBeInTheDocument();
    await waitFor(() => {
      expect(audio()?.src.startsWith(`${server.origin}/flux/direct.mp3?direct=`)).toBe(true);
    });
    expect(media.play).toHaveBeenCalled();
  });

  it('plays the live stream and opens the chat of the settings it fetches from the API', async () => {
    const element = host();
    const user = userEvent.setup();
    act(() => {
      mounted = mountPlayer(element, { apiBase: `${server.origin}/api` });
    });
    await user.click(await inShadow(element).findByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await waitFor(() => {
      expect(audio()?.src.startsWith(`${server.origin}/flux/radio.mp3?direct=`)).toBe(true);
    });
    expect(chatUrl()).toBe(siteConfig.radio.chatEmbedUrl.replace('{room}', 'salon-de-la-radio'));
    expect(server.requests.filter((path) => path === '/api/radio')).toHaveLength(1);
  });

  it('keeps the stream of site.json when the API has no settings', async () => {
    const warn = jest.spyOn(console, 'warn').mockImplementation(() => undefined);
    const route = server.routes.get('/api/radio');
    server.routes.delete('/api/radio');
    try {
      const element = host();
      const user = userEvent.setup();
      act(() => {
        mounted = mountPlayer(element, { apiBase: `${server.origin}/api` });
      });
      await user.click(await inShadow(element).findByRole('button', { name: 'Stream : ouvrir le lecteur' }));
      await waitFor(() => {
        expect(audio()?.src.startsWith(`${server.origin}${siteConfig.radio.liveStreamUrl}?direct=`)).toBe(true);
      });
      expect(server.requests).toContain('/api/radio');
      expect(warn).toHaveBeenCalled();
    } finally {
      if (route !== undefined) server.routes.set('/api/radio', route);
    }
  });

  it('is driven by plain DOM events and reports its state as DOM events', async () => {
    const element = host();
    const states: PlayerSnapshot[] = [];
    const listener = (event: Event) => states.push((event as CustomEvent<PlayerSnapshot>).detail);
    window.addEventListener('collectif:player-state', listener);
    act(() => {
      mounted = mountPlayer(element, { apiBase: `${server.origin}/api` });
    });
    act(() => {
      window.dispatchEvent(
        new CustomEvent('collectif:replay-selected', {
          detail: {
            url: '/api/demo/replays/b.mp3',
            duration: 120,
            artist: 'Artiste B',
            show: 'Émission B',
            cover: '',
          },
        }),
      );
    });
    const player = inShadow(element);
    expect(await player.findByText('Artiste B')).toBeInTheDocument();
    // Relative addresses from the API are the API's, not the partner page's.
    await waitFor(() => {
      expect(audio()?.src).toBe(`${server.origin}/api/demo/replays/b.mp3`);
    });
    await waitFor(() => {
      expect(states.at(-1)).toMatchObject({ mode: 'REPLAY', open: true, artist: 'Artiste B', duration: 120 });
    });
    window.removeEventListener('collectif:player-state', listener);
  });

  it('unmount removes the player and its audio', async () => {
    const element = host();
    act(() => {
      mounted = mountPlayer(element, { apiBase: `${server.origin}/api` });
    });
    await inShadow(element).findByRole('button', { name: 'Stream : ouvrir le lecteur' });
    expect(audio()).not.toBeNull();
    act(() => {
      mounted?.unmount();
    });
    mounted = null;
    expect(inShadow(element).queryByRole('button', { name: 'Stream : ouvrir le lecteur' })).not.toBeInTheDocument();
    expect(audio()).toBeNull();
  });

  it('refuses wrong options and a second player with a French error', () => {
    expect(() => mountPlayer(host(), { apiBase: 'ftp://radio.example.org/api' })).toThrow(
      'CollectifPlayer : l’option « apiBase » doit être une adresse http(s) (ftp://radio.example.org/api).',
    );
    expect(() => mountPlayer(host(), { apiBase: 'http://[::1' })).toThrow(/« apiBase » n’est pas une adresse valide/);
    expect(() => mountPlayer(null as unknown as Element)).toThrow('premier argument doit être un élément HTML');
    act(() => {
      mounted = mountPlayer(host(), { apiBase: `${server.origin}/api` });
    });
    expect(() => mountPlayer(host())).toThrow('un seul lecteur par page');
  });
});

describe('the live’s timeline on a partner’s page (docs/embed.md, « The timeline »)', () => {
  const timeshiftRoutes = {
    '/api/radio': json({ liveStreamUrl: '/flux/radio.mp3', timeshift: { playlist: '/direct/live.m3u8', hours: 4 } }),
    '/api/timeshift': json({
      hours: 4,
      start: '2026-11-25T15:30:00.000Z',
      end: '2026-11-25T19:29:50.000Z',
      played: [],
    }),
    '/direct/window.json': json({
      start: '2026-11-25T15:30:00.000Z',
      end: '2026-11-25T19:29:50.000Z',
      segmentSeconds: 10,
    }),
  };
  let saved: Map<string, Route>;

  beforeEach(() => {
    saved = new Map(server.routes);
    for (const [path, route] of Object.entries(timeshiftRoutes)) server.routes.set(path, route);
    // A browser that plays HLS and dates it (Safari): the timeline could show.
    jest
      .spyOn(HTMLMediaElement.prototype, 'canPlayType')
      .mockImplementation((type) => (type === 'application/vnd.apple.mpegurl' ? 'maybe' : ''));
    Object.defineProperty(HTMLMediaElement.prototype, 'getStartDate', {
      configurable: true,
      value: () => new Date(Number.NaN),
    });
  });

  afterEach(() => {
    Reflect.deleteProperty(HTMLMediaElement.prototype, 'getStartDate');
    server.routes.clear();
    for (const [path, route] of saved) server.routes.set(path, route);
  });

  it('is off unless the partner asks for it, whatever the radio keeps', async () => {
    const element = host();
    const user = userEvent.setup();
    act(() => {
      mounted = mountPlayer(element, { apiBase: `${server.origin}/api` });
    });
    const player = inShadow(element);
    await user.click(await player.findByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    expect(await player.findByText('DJ Partenaire')).toBeInTheDocument();
    expect(player.queryByRole('slider')).not.toBeInTheDocument();
    expect(server.requests).not.toContain('/api/timeshift');
  });

  it('shows with `timeline: true`, or the element’s `differe` attribute', async () => {
    const element = host();
    const user = userEvent.setup();
    act(() => {
      mounted = mountPlayer(element, { apiBase: `${server.origin}/api`, timeline: true });
    });
    const player = inShadow(element);
    await user.click(await player.findByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    expect(await player.findByRole('slider', { name: 'Position dans le direct' })).toHaveAttribute(
      'aria-valuetext',
      'En direct',
    );
    act(() => {
      mounted?.unmount();
    });
    mounted = null;

    defineCollectifPlayer({}, '');
    const tag = document.createElement(ELEMENT_NAME);
    tag.setAttribute('api-base', `${server.origin}/api`);
    tag.setAttribute('differe', '');
    act(() => {
      document.body.append(tag);
    });
    await user.click(await inShadow(tag).findByRole('button', { name: 'Lecture' }));
    expect(await inShadow(tag).findByRole('slider', { name: 'Position dans le direct' })).toBeInTheDocument();
    act(() => {
      tag.remove();
    });
  });
});

describe('the queue on a partner’s page (docs/embed.md, « The queue »)', () => {
  const sendAdd = () => {
    act(() => {
      window.dispatchEvent(new CustomEvent('collectif:queue-add', { detail: { items: [{ slug: 'un' }] } }));
    });
  };

  beforeEach(() => {
    localStorage.clear();
    server.routes.set(
      '/api/episodes/un',
      json({
        url: '/api/demo/replays/un.mp3',
        duration: 60,
        artist: 'Axonberg',
        show: 'Synapses #1',
        cover: '/assets/images/a.webp',
        link: 'https://soundcloud.com/collectif/un',
        pubDate: null,
        slug: 'un',
        residences: [],
        styles: [],
      }),
    );
  });

  afterEach(() => {
    server.routes.delete('/api/episodes/un');
  });

  it('ignores the page’s queue-add unless the partner asks, with `queue: true`', async () => {
    const element = host();
    const user = userEvent.setup();
    act(() => {
      mounted = mountPlayer(element, { apiBase: `${server.origin}/api` });
    });
    const player = inShadow(element);
    await user.click(await player.findByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    sendAdd();
    expect(await player.findByText('DJ Partenaire')).toBeInTheDocument();
    expect(server.requests).not.toContain('/api/episodes/un');
    expect(localStorage.getItem('collectif:file')).toBeNull();
    act(() => {
      mounted?.unmount();
    });

    const asking = host();
    act(() => {
      mounted = mountPlayer(asking, { apiBase: `${server.origin}/api`, queue: true });
    });
    sendAdd();
    // Nothing played: the episode plays, as on the site.
    expect(await inShadow(asking).findByText('Axonberg')).toBeInTheDocument();
    act(() => {
      mounted?.unmount();
    });
    mounted = null;
    localStorage.clear();

    // The element's `file` attribute asks for it too, once its player is loaded (the first play).
    defineCollectifPlayer({}, '');
    const tag = document.createElement(ELEMENT_NAME);
    tag.setAttribute('api-base', `${server.origin}/api`);
    tag.setAttribute('file', '');
    act(() => {
      document.body.append(tag);
    });
    await user.click(await inShadow(tag).findByRole('button', { name: 'Lecture' }));
    await inShadow(tag).findByText('DJ Partenaire');
    sendAdd();
    await waitFor(() => {
      expect(localStorage.getItem('collectif:file')).toBe('[{"slug":"un"}]');
    });
    act(() => {
      tag.remove();
    });
  });
});

describe('<collectif-player>', () => {
  it('mounts from its attributes when it enters the page and unmounts when it leaves', async () => {
    defineCollectifPlayer({}, '');
    const element = document.createElement(ELEMENT_NAME);
    element.setAttribute('api-base', `${server.origin}/api`);
    element.setAttribute('stream-url', `${server.origin}/api/demo/live.mp3`);
    act(() => {
      document.body.append(element);
    });
    const player = inShadow(element);
    const user = userEvent.setup();
    // The bar before the first play, then the player itself, fetched on the press.
    await user.click(await player.findByRole('button', { name: 'Lecture' }));
    expect(await player.findByRole('button', { name: 'Pause' })).toBeInTheDocument();
    expect(await player.findByText('DJ Partenaire')).toBeInTheDocument();
    await waitFor(() => {
      expect(audio()?.src.startsWith(`${server.origin}/api/demo/live.mp3?direct=`)).toBe(true);
    });
    act(() => {
      element.remove();
    });
    expect(audio()).toBeNull();
    expect(screen.queryByRole('region', { name: 'Lecteur radio' })).not.toBeInTheDocument();
  });

  it('says in the console which attribute is wrong and leaves the page alone', () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    defineCollectifPlayer({}, '');
    const element = document.createElement(ELEMENT_NAME);
    element.setAttribute('api-base', 'javascript:alert(1)');
    act(() => {
      document.body.append(element);
    });
    expect(errors).toHaveBeenCalledWith(
      'CollectifPlayer : l’option « apiBase » doit être une adresse http(s) (javascript:alert(1)).',
    );
    expect(element.shadowRoot).toBeNull();
  });
});

describe('the embed script', () => {
  it('defines window.CollectifPlayer and the custom element', async () => {
    await import('./index');
    const api = (window as { CollectifPlayer?: { mount: typeof mountPlayer } }).CollectifPlayer;
    expect(customElements.get(ELEMENT_NAME)).toBeDefined();
    const element = host();
    act(() => {
      mounted = api?.mount(element, { apiBase: `${server.origin}/api` }) ?? null;
    });
    expect(await inShadow(element).findByRole('button', { name: 'Lecture' })).toBeInTheDocument();
  });
});
