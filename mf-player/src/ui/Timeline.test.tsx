import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RADIO_SETTINGS_ID, resetRadioSettings, siteConfig, type Rendition } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import Player from '../exposed/Player';
import { configurePlayer, QUALITY_KEY } from '../player/config';
import { MESSAGES } from '../player/playerSlice';
import { TIMELINE_RETRY_MS } from './Timeline';
import {
  installEventSource,
  installMediaSession,
  json,
  playerAudio,
  removeEventSource,
  removeMediaSession,
  startLoopbackServer,
  stubMediaPlayback,
  type FakeMediaSession,
  type LoopbackServer,
  type Route,
} from '../testing/browser';

// Wednesday 25 November 2026, 20:30 in Paris (19:30 UTC; the tests run in UTC). The site keeps four
// hours, from 15:30:00 to 19:29:50 UTC, in segments of 10 s.
const at = (time: string) => Date.parse(`2026-11-25T${time}Z`);
const iso = (time: string) => new Date(at(time)).toISOString();
const HLS = 'application/vnd.apple.mpegurl';

const normale: Rendition = { id: 'normale', label: 'Normale', url: '/api/demo/live.mp3', bitrate: 128, codec: 'mp3' };
const econome: Rendition = {
  id: 'econome',
  label: 'Économe',
  url: '/api/demo/live-econome.mp3',
  bitrate: 48,
  codec: 'mp3',
};

const show = (id: string, title: string, start: string, end: string, residence: string | null) => ({
  id,
  title,
  start: iso(start),
  end: iso(end),
  allDay: false,
  residence,
});

const replay = {
  slug: 'velours-club-12',
  pubDate: iso('19:05:00'),
  residences: ['velours'],
  styles: ['house'],
  link: 'https://soundcloud.example/velours-club-12',
  url: '/api/demo/replays/velours-12.mp3',
  duration: 7200,
  artist: 'Velours',
  show: 'Club #12',
  cover: '/assets/images/velours.webp',
};

/** GET /api/episodes: the residence's latest episodes, its replay among them when `published`. */
let published = false;
const episodes: Route = (request, response) => {
  const residence = new URL(request.url, 'http://x').searchParams.get('residence');
  const items = published && residence === 'velours' ? [replay] : [];
  json({ items, total: items.length, page: 1, pages: 1, pageSize: 24 })(request, response);
};

const timeshiftAnswer = json({
  hours: 4,
  start: iso('15:30:00'),
  end: iso('19:29:50'),
  played: [
    { at: iso('17:10:00'), artist: 'Axonberg', title: 'Synapse un' },
    { at: iso('18:58:00'), artist: 'La Brume', title: 'Matin sur la Garonne' },
    { at: iso('19:02:00'), artist: 'Verglas', title: 'Froid Sec' },
  ],
});
const windowAnswer = json({ start: iso('15:30:00'), end: iso('19:29:50'), segmentSeconds: 10 });

let server: LoopbackServer;
let session: FakeMediaSession;
/** The page's clock (`performance.now()`), moved by the tests. */
let clock = 5_000_000;

beforeAll(async () => {
  server = await startLoopbackServer({
    '/api/nowplaying': json({ artist: 'DJ Test', title: 'Matinale test' }),
    '/api/timeshift': timeshiftAnswer,
    '/direct/window.json': windowAnswer,
    '/api/schedule': json({
      zone: 'Europe/Paris',
      from: '2026-11-24T23:00:00.000Z',
      to: '2026-11-27T23:00:00.000Z',
      events: [
        show('a', 'Axonberg · Synapses', '17:00:00', '19:00:00', 'axonberg'),
        show('v', 'Velours Club', '19:00:00', '21:00:00', 'velours'),
        show('o', 'Orage Mécanique', '21:00:00', '23:00:00', null),
      ],
    }),
    '/api/episodes': episodes,
  });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  published = false;
  server.requests.length = 0;
  jest.spyOn(Date, 'now').mockReturnValue(at('19:30:00'));
  jest.spyOn(performance, 'now').mockImplementation(() => clock);
  const script = document.createElement('script');
  script.type = 'application/json';
  script.id = RADIO_SETTINGS_ID;
  script.textContent = JSON.stringify({
    liveStreamUrl: '/api/demo/live.mp3',
    renditions: [normale, econome],
    timeshift: { playlist: '/direct/live.m3u8', hours: 4 },
  });
  document.head.append(script);
  resetRadioSettings();
  configurePlayer({ apiBase: `${server.origin}/api`, chatEmbedUrl: `${server.origin}/chat/{room}` });
  stubMediaPlayback();
  session = installMediaSession();
  installEventSource();
});

afterEach(() => {
  document.getElementById(RADIO_SETTINGS_ID)?.remove();
  resetRadioSettings();
  configurePlayer({ apiBase: siteConfig.radio.apiBase });
  localStorage.clear();
  Reflect.deleteProperty(navigator, 'connection');
  removeMediaSession();
  removeEventSource();
  Reflect.deleteProperty(HTMLMediaElement.prototype, 'getStartDate');
  jest.restoreAllMocks();
});

const audio = playerAudio;
const fire = (type: string) => fireEvent(audio(), new Event(type));
const edgeUrl = (rendition = normale) => `${server.origin}${rendition.url}?direct=`;
const variantUrl = (id = 'normale') => `${server.origin}/direct/${id}/index.m3u8`;

/** Safari, which plays HLS itself and dates it (the browser's gap in jsdom, stood in for). */
function asSafari(): void {
  jest.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type) => (type === HLS ? 'maybe' : ''));
  // Until its playlist is read, Safari knows no date.
  Object.defineProperty(HTMLMediaElement.prototype, 'getStartDate', {
    configurable: true,
    value: () => new Date(Number.NaN),
  });
}

/** What Safari knows once its playlist is read: the date it starts at and what it can seek. */
function playlistRead(startDate: number, seekable: [number, number]): void {
  Object.defineProperty(audio(), 'getStartDate', { configurable: true, value: () => new Date(startDate) });
  Object.defineProperty(audio(), 'seekable', {
    configurable: true,
    get: () => ({ length: 1, start: () => seekable[0], end: () => seekable[1] }),
  });
  fire('loadedmetadata');
}

function player() {
  return screen.getByRole('region', { name: 'Lecteur radio' });
}

/** Opens the player live. */
async function open() {
  const user = userEvent.setup();
  const view = renderWithProviders(<Player />);
  await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
  return { user, ...view };
}

/** Opens the player live and waits for the timeline. */
async function openLive() {
  const opened = await open();
  const slider = await screen.findByRole('slider', { name: 'Position dans le direct' });
  return { slider, ...opened };
}

describe('the live’s timeline (docs/player.md, « The timeline »)', () => {
  it('at the edge: the MP3 stream, the dot, « En direct » on the timeline', async () => {
    asSafari();
    const { slider } = await openLive();
    expect(slider).toHaveAttribute('aria-valuetext', 'En direct');
    expect(slider).toHaveAttribute('max', String(4 * 3600 - 10));
    expect(slider).toHaveValue(String(4 * 3600 - 10));
    expect(within(player()).getByText('En direct')).toHaveClass('visually-hidden');
    expect(screen.queryByRole('button', { name: 'Revenir au direct' })).not.toBeInTheDocument();
    expect(audio().src.startsWith(edgeUrl())).toBe(true);
    expect(await screen.findByText('DJ Test')).toBeInTheDocument();
  });

  it('« Reprendre au début » plays the show from its start: the lines, the on-air line and « -29:50 » follow the moment heard; « Direct » goes back to the edge', async () => {
    asSafari();
    const { user } = await openLive();
    await user.click(await screen.findByRole('button', { name: 'Reprendre au début' }));
    await waitFor(() => {
      expect(audio().src).toBe(variantUrl());
    });
    // Safari has read the playlist: it starts at the window's start; the show's start is 3 h 30 in.
    playlistRead(at('15:30:00'), [0, 14_390]);
    expect(audio().currentTime).toBe(12_600);
    expect(screen.getByText('La Brume')).toBeInTheDocument();
    expect(screen.getByText('Matin sur la Garonne')).toBeInTheDocument();
    expect(within(player()).getByText(/Retard sur le direct/).parentElement).toHaveTextContent('-29:50');
    expect(screen.getByRole('slider', { name: 'Position dans le direct' })).toHaveAttribute(
      'aria-valuetext',
      '29 minutes 50 secondes avant le direct',
    );
    expect(screen.getByRole('button', { name: /^À l’antenne : Velours Club · À suivre · 22:00/ })).toBeInTheDocument();

    // Four minutes later in the element: what it plays is what played at 19:04.
    fire('playing');
    audio().currentTime = 12_840;
    clock += 240_000;
    fire('timeupdate');
    expect(screen.getByText('Verglas')).toBeInTheDocument();
    expect(screen.getByText('Froid Sec')).toBeInTheDocument();
    expect(within(player()).getByText(/Retard sur le direct/).parentElement).toHaveTextContent('-29:50');

    await user.click(screen.getByRole('button', { name: 'Revenir au direct' }));
    await waitFor(() => {
      expect(audio().src.startsWith(edgeUrl())).toBe(true);
    });
    expect(screen.getByRole('slider', { name: 'Position dans le direct' })).toHaveAttribute(
      'aria-valuetext',
      'En direct',
    );
    expect(within(player()).getByText('En direct')).toBeInTheDocument();
    expect(await screen.findByText('DJ Test')).toBeInTheDocument();
  });

  it('behind the edge, the on-air line names the show of the moment heard', async () => {
    asSafari();
    const { slider, user } = await openLive();
    slider.focus();
    await user.keyboard('{Home}');
    await waitFor(() => {
      expect(audio().src).toBe(variantUrl());
    });
    playlistRead(at('15:30:00'), [0, 14_390]);
    fire('playing');
    audio().currentTime = 6000;
    fire('timeupdate');
    expect(await screen.findByRole('button', { name: /^À l’antenne : Axonberg · Synapses/ })).toBeInTheDocument();
    expect(screen.getByText('Synapse un')).toBeInTheDocument();
  });

  it('is operated and announced by keyboard: arrows 10 s, Page Up/Down 5 min, Home the window’s start, End the edge', async () => {
    asSafari();
    const { slider, user } = await openLive();
    slider.focus();
    // Leaving the edge goes as far back as the timeline plays: three segments.
    await user.keyboard('{ArrowLeft}');
    expect(slider).toHaveAttribute('aria-valuetext', '30 secondes avant le direct');
    await waitFor(() => {
      expect(audio().src).toBe(variantUrl());
    });
    await user.keyboard('{ArrowLeft}');
    expect(slider).toHaveAttribute('aria-valuetext', '40 secondes avant le direct');
    await user.keyboard('{PageDown}');
    expect(slider).toHaveAttribute('aria-valuetext', '5 minutes 40 secondes avant le direct');
    await user.keyboard('{PageUp}{ArrowRight}');
    expect(slider).toHaveAttribute('aria-valuetext', '30 secondes avant le direct');
    await user.keyboard('{Home}');
    expect(slider).toHaveAttribute('aria-valuetext', '3 heures 59 minutes 50 secondes avant le direct');
    expect(slider).toHaveValue('0');
    expect(within(player()).getByText(/Retard sur le direct/).parentElement).toHaveTextContent('-3:59:50');
    // The element moves within what Safari holds, one playlist for all these moves: from one
    // segment in, the oldest one may be gone when asked for.
    playlistRead(at('15:30:00'), [0, 14_390]);
    expect(audio().currentTime).toBe(10);
    await user.keyboard('{End}');
    expect(slider).toHaveAttribute('aria-valuetext', 'En direct');
    await waitFor(() => {
      expect(audio().src.startsWith(edgeUrl())).toBe(true);
    });
    // Nearer the edge than three segments is the edge.
    await user.keyboard('{ArrowLeft}{ArrowRight}');
    expect(slider).toHaveAttribute('aria-valuetext', 'En direct');
    expect(screen.getByRole('region', { name: 'Lecteur radio' })).toBeInTheDocument();
  });

  it('the system’s controls seek within the window, 10 s a step, and know its length', async () => {
    asSafari();
    const { slider } = await openLive();
    await waitFor(() => {
      expect(session.handlers.has('seekbackward')).toBe(true);
    });
    act(() => {
      session.handlers.get('seekbackward')?.({ action: 'seekbackward' });
      session.handlers.get('seekbackward')?.({ action: 'seekbackward' });
    });
    expect(slider).toHaveAttribute('aria-valuetext', '40 secondes avant le direct');
    act(() => {
      session.handlers.get('seekforward')?.({ action: 'seekforward', seekOffset: 5 });
    });
    expect(slider).toHaveAttribute('aria-valuetext', '35 secondes avant le direct');
    act(() => {
      session.handlers.get('seekto')?.({ action: 'seekto', seekTime: 3600 });
    });
    expect(slider).toHaveAttribute('aria-valuetext', '2 heures 59 minutes 50 secondes avant le direct');
    expect(session.positions.at(-1)).toEqual({ duration: 14_390, position: 3600, playbackRate: 1 });
  });

  it('a timeline that fails goes back to the edge and says so', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    asSafari();
    const { user } = await openLive();
    await user.click(await screen.findByRole('button', { name: 'Reprendre au début' }));
    await waitFor(() => {
      expect(audio().src).toBe(variantUrl());
    });
    fire('error');
    expect(await screen.findByRole('status')).toHaveTextContent(MESSAGES.timelineFailed);
    await waitFor(() => {
      expect(audio().src.startsWith(edgeUrl())).toBe(true);
    });
    fire('playing');
    expect(screen.getByRole('status')).toHaveTextContent(MESSAGES.timelineFailed);
    expect(screen.getByRole('slider', { name: 'Position dans le direct' })).toHaveAttribute(
      'aria-valuetext',
      'En direct',
    );
    expect(errors).toHaveBeenCalled();
  });

  it('holds the row’s room from the bar’s first frame until the timeline takes it: the bar keeps one height', async () => {
    asSafari();
    await open();
    // Just opened: neither the timeline's code nor its window has come yet.
    expect(document.querySelector('.player__timeline-room')).not.toBeNull();
    expect(screen.queryByRole('slider')).not.toBeInTheDocument();
    expect(await screen.findByRole('slider', { name: 'Position dans le direct' })).toBeInTheDocument();
    expect(document.querySelector('.player__timeline-room')).toBeNull();
  });

  it('gives the room back when the window cannot be read', async () => {
    asSafari();
    const failing: Route = (_request, response) => {
      response.writeHead(503).end();
    };
    server.routes.set('/api/timeshift', failing);
    server.routes.set('/direct/window.json', failing);
    try {
      await open();
      expect(document.querySelector('.player__timeline-room')).not.toBeNull();
      await waitFor(() => {
        expect(document.querySelector('.player__timeline-room')).toBeNull();
      });
      expect(server.requests).toContain('/direct/window.json');
      expect(screen.queryByRole('slider')).not.toBeInTheDocument();
    } finally {
      server.routes.set('/api/timeshift', timeshiftAnswer);
      server.routes.set('/direct/window.json', windowAnswer);
    }
  });

  it('asks again within seconds for a window not there yet, and shows the timeline once the recorder has one', async () => {
    asSafari();
    // A radio just started: its recorder has not written its first segment.
    const notYet: Route = (_request, response) => {
      response.writeHead(404).end();
    };
    server.routes.set('/api/timeshift', notYet);
    server.routes.set('/direct/window.json', notYet);
    try {
      await open();
      await waitFor(() => {
        expect(document.querySelector('.player__timeline-room')).toBeNull();
      });
      const asked = server.requests.filter((path) => path === '/direct/window.json').length;
      server.routes.set('/api/timeshift', timeshiftAnswer);
      server.routes.set('/direct/window.json', windowAnswer);
      // Well before the minute of the refresh (TIMELINE_REFRESH_MS).
      expect(
        await screen.findByRole('slider', { name: 'Position dans le direct' }, { timeout: TIMELINE_RETRY_MS * 3 }),
      ).toBeInTheDocument();
      expect(server.requests.filter((path) => path === '/direct/window.json').length).toBeGreaterThan(asked);
    } finally {
      server.routes.set('/api/timeshift', timeshiftAnswer);
      server.routes.set('/direct/window.json', windowAnswer);
    }
  });

  it('a browser that answers HLS but dates nothing (Chromium) does not play the timeline natively', async () => {
    jest.spyOn(HTMLMediaElement.prototype, 'canPlayType').mockImplementation((type) => (type === HLS ? 'maybe' : ''));
    await open();
    expect(await screen.findByRole('button', { name: /^À l’antenne : Velours Club/ })).toBeInTheDocument();
    // Without Media Source Extensions here either (jsdom), no timeline at all.
    expect(screen.queryByRole('slider')).not.toBeInTheDocument();
    expect(server.requests).not.toContain('/direct/window.json');
    expect(document.querySelector('.player__timeline-room')).toBeNull();
  });

  it('where the browser can play no HLS at all, no timeline: the edge as before', async () => {
    await open();
    expect(await screen.findByRole('button', { name: /^À l’antenne : Velours Club/ })).toBeInTheDocument();
    expect(screen.queryByRole('slider')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Reprendre au début' })).not.toBeInTheDocument();
    expect(server.requests).not.toContain('/api/timeshift');
    expect(audio().src.startsWith(edgeUrl())).toBe(true);
  });

  it('a radio that keeps no hours shows no timeline and asks nothing of it', async () => {
    asSafari();
    document.getElementById(RADIO_SETTINGS_ID)?.remove();
    resetRadioSettings();
    await open();
    expect(await screen.findByText('DJ Test')).toBeInTheDocument();
    expect(screen.queryByRole('slider')).not.toBeInTheDocument();
    expect(server.requests).not.toContain('/direct/window.json');
  });
});

describe('a show with its replay (docs/player.md, « A show with its replay »)', () => {
  it('says « Réécouter l’émission », which plays the episode from the same moment', async () => {
    published = true;
    asSafari();
    const { user } = await openLive();
    const button = await screen.findByRole('button', { name: 'Réécouter l’émission' });
    expect(screen.queryByRole('button', { name: 'Reprendre au début' })).not.toBeInTheDocument();
    await user.click(button);
    expect(await screen.findByRole('slider', { name: 'Position dans l’émission' })).toBeInTheDocument();
    expect(screen.getByText('Velours')).toBeInTheDocument();
    expect(screen.getByText('Club #12')).toBeInTheDocument();
    // 19:29:50, the edge, is 29 min 50 s into the show.
    expect(within(player()).getByText(/Temps écoulé/).parentElement).toHaveTextContent('29:50');
    await waitFor(() => {
      expect(audio().src).toBe(`${server.origin}/api/demo/replays/velours-12.mp3`);
    });
    expect(server.requests).toContain('/api/episodes');
  });
});

describe('« Qualité » (docs/player.md, « Quality »)', () => {
  it('is chosen in « À l’antenne », kept on the device, and the live starts again on it', async () => {
    const { user } = await open();
    await user.click(await screen.findByRole('button', { name: /^À l’antenne/ }));
    const choice = within(await screen.findByRole('region', { name: 'À l’antenne' })).getByRole('group', {
      name: 'Qualité',
    });
    expect(within(choice).getByRole('radio', { name: 'Normale 128 kb/s' })).toBeChecked();
    await user.click(within(choice).getByRole('radio', { name: 'Économe 48 kb/s' }));
    expect(localStorage.getItem(QUALITY_KEY)).toBe('econome');
    await waitFor(() => {
      expect(audio().src.startsWith(edgeUrl(econome))).toBe(true);
    });
  });

  it('without a choice, the browser’s Save-Data picks « Économe »; a tampered choice is ignored', async () => {
    localStorage.setItem(QUALITY_KEY, '"><script>alert(1)</script>');
    Object.defineProperty(navigator, 'connection', { configurable: true, value: { saveData: true } });
    const { user } = await open();
    await waitFor(() => {
      expect(audio().src.startsWith(edgeUrl(econome))).toBe(true);
    });
    await user.click(await screen.findByRole('button', { name: /^À l’antenne/ }));
    expect(await screen.findByRole('radio', { name: 'Économe 48 kb/s' })).toBeChecked();
  });

  it('behind the edge, the timeline plays the chosen variant', async () => {
    asSafari();
    localStorage.setItem(QUALITY_KEY, 'econome');
    const { user } = await openLive();
    await user.click(await screen.findByRole('button', { name: 'Reprendre au début' }));
    await waitFor(() => {
      expect(audio().src).toBe(variantUrl('econome'));
    });
  });
});
