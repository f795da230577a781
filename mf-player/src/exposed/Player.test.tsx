import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emit, on, siteConfig, type PlayerSnapshot, type ReplaySource } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import { configurePlayer } from '../player/config';
import { TRACK_ERROR_LOG } from '../player/listeners';
import { MESSAGES } from '../player/playerSlice';
import {
  closedOrigin,
  installEventSource,
  installMediaSession,
  json,
  removeEventSource,
  removeMediaSession,
  setMediaState,
  startLoopbackServer,
  stubMediaPlayback,
  text,
  type FakeMediaSession,
  type LoopbackServer,
  type MediaStubs,
  playerAudio,
} from '../testing/browser';
import Player from './Player';

const replay: ReplaySource = {
  trackUrn: 'soundcloud:tracks:42',
  url: '/api/demo/replays/enclosure.mp3',
  duration: 3600,
  artist: 'Artiste A',
  show: 'Émission A',
  cover: '/assets/images/a.webp',
};

let server: LoopbackServer;
let media: MediaStubs;
let session: FakeMediaSession;

beforeAll(async () => {
  server = await startLoopbackServer({
    '/api/nowplaying': json({ artist: 'DJ Test', title: 'Matinale test' }),
    '/api/track/soundcloud:tracks:42': text('/api/demo/replays/a.mp3\n'),
    '/api/track/soundcloud:tracks:500': json({ error: 'upstream', message: 'SoundCloud ne répond pas.' }, 502),
    '/api/track/soundcloud:tracks:7': text('javascript:alert(1)'),
    '/api/track/soundcloud:tracks:8': text('<!doctype html><html lang="fr"><h1>Maintenance</h1></html>'),
    '/chat/collectif-garonne': text('<!doctype html><title>chat</title>'),
  });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  server.requests.length = 0;
  configurePlayer({ apiBase: `${server.origin}/api`, chatEmbedUrl: `${server.origin}/chat/{room}` });
  media = stubMediaPlayback();
  session = installMediaSession();
  installEventSource();
});

afterEach(() => {
  removeMediaSession();
  removeEventSource();
  jest.restoreAllMocks();
});

const audio = playerAudio;

function fire(type: string): void {
  fireEvent(audio(), new Event(type));
}

function renderPlayer() {
  const user = userEvent.setup();
  const view = renderWithProviders(<Player />);
  return { user, ...view };
}

function player() {
  return screen.getByRole('region', { name: 'Lecteur radio' });
}

async function selectReplay(source: ReplaySource = replay): Promise<void> {
  act(() => {
    emit('replay-selected', source);
  });
  await screen.findByRole('button', { name: 'Revenir au direct' });
}

const liveUrl = () => `${server.origin}/api/demo/live.mp3`;

describe('closed player', () => {
  it('is a Stream pill that opens the player', () => {
    renderPlayer();
    const pill = screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' });
    expect(pill).toHaveTextContent('Stream');
    expect(screen.queryByRole('button', { name: 'Pause' })).not.toBeInTheDocument();
    expect(media.play).not.toHaveBeenCalled();
  });

  it('creates one audio element for the page, kept across re-renders and remounts', () => {
    const { rerender, unmount, store } = renderPlayer();
    const first = audio();
    rerender(<Player />);
    unmount();
    // The shell's store lives as long as the page; only the component comes and goes.
    renderWithProviders(<Player />, { store });
    expect(audio()).toBe(first);
    expect(document.querySelectorAll('audio')).toHaveLength(1);
  });
});

describe('live mode', () => {
  it('opening fetches now playing and plays the live stream from its edge', async () => {
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    expect(screen.getByText('chargement ...')).toBeInTheDocument();
    expect(within(player()).getByText('En direct')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ouvrir le chat' })).toBeInTheDocument();
    expect(screen.queryByRole('slider')).not.toBeInTheDocument();
    await waitFor(() => {
      expect(audio().src.startsWith(`${liveUrl()}?direct=`)).toBe(true);
    });
    expect(media.play).toHaveBeenCalled();
    expect(await screen.findByText('DJ Test')).toBeInTheDocument();
    expect(screen.getByText('Matinale test')).toBeInTheDocument();
    expect(server.requests).toContain('/api/nowplaying');
    fire('playing');
    expect(screen.queryByText('chargement ...')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Pause' })).toHaveFocus();
  });

  it('closing pauses, lets go of the stream and gives the focus back to the pill', async () => {
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    await user.click(screen.getByRole('button', { name: 'Fermer le lecteur' }));
    expect(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' })).toHaveFocus();
    expect(media.pause).toHaveBeenCalled();
    expect(audio().getAttribute('src')).toBeNull();
  });

  it('a click on the player toggles it; a click on a control inside does not', async () => {
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await screen.findByText('DJ Test');
    await user.click(screen.getByRole('button', { name: 'Ouvrir le chat' }));
    expect(screen.getByRole('button', { name: 'Fermer le chat' })).toBeInTheDocument();
    await user.click(screen.getByText('DJ Test'));
    expect(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' })).toBeInTheDocument();
  });

  it('Escape closes the chat panel and gives focus back to its button', async () => {
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await screen.findByText('DJ Test');
    await user.click(screen.getByRole('button', { name: 'Ouvrir le chat' }));
    expect(await screen.findByRole('region', { name: 'Chat de la radio' })).toBeInTheDocument();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'Chat de la radio' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ouvrir le chat' })).toHaveFocus();
  });

  it('a resume after a pause rejoins the live edge with a fresh address', async () => {
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    const first = audio().src;
    fire('playing');
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    expect(audio().getAttribute('src')).toBeNull();
    fire('pause');
    expect(screen.getByRole('region', { name: 'Lecteur radio' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Lecture' }));
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    expect(audio().src).not.toBe(first);
    expect(audio().src.startsWith(`${liveUrl()}?direct=`)).toBe(true);
  });

  it('a dropped stream is rejoined at the live edge after a short wait', async () => {
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    fire('playing');
    const first = audio().src;
    const plays = media.play.mock.calls.length;
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    fire('error');
    expect(screen.getByText(MESSAGES.reconnecting)).toBeInTheDocument();
    await waitFor(() => {
      expect(audio().src).not.toBe(first);
    });
    expect(audio().src.startsWith(`${liveUrl()}?direct=`)).toBe(true);
    await waitFor(() => {
      expect(media.play.mock.calls.length).toBeGreaterThan(plays);
    });
    fire('playing');
    expect(screen.queryByText(MESSAGES.reconnecting)).not.toBeInTheDocument();
  });

  it('a reconnection that fails is tried again, although the browser pauses the failed element', async () => {
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    fire('playing');
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const sources = [audio().src];
    // Twice: the stream drops, then the first reconnection is refused. Chromium follows each failed
    // load with a 'pause' event; the visitor asked for nothing.
    for (let drop = 0; drop < 2; drop += 1) {
      fire('error');
      fire('pause');
      expect(screen.getByText(MESSAGES.reconnecting)).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
      await waitFor(() => {
        expect(audio().src).not.toBe(sources.at(-1));
      });
      sources.push(audio().src);
    }
    fire('playing');
    expect(screen.queryByText(MESSAGES.reconnecting)).not.toBeInTheDocument();
    expect(sources.every((src) => src.startsWith(`${liveUrl()}?direct=`))).toBe(true);
  });

  it('a live stream that ends (the server closed it) is rejoined too', async () => {
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    fire('playing');
    const first = audio().src;
    setMediaState(audio(), { ended: true });
    fire('pause');
    fire('ended');
    await waitFor(() => {
      expect(audio().src).not.toBe(first);
    });
    expect(audio().src.startsWith(`${liveUrl()}?direct=`)).toBe(true);
  });

  it('a stream that stalls without advancing is reconnected; one that recovers is left alone', async () => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    try {
      renderWithProviders(<Player />);
      fireEvent.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
      await act(async () => {
        await jest.advanceTimersByTimeAsync(10);
      });
      fire('playing');
      setMediaState(audio(), { paused: false });
      const first = audio().src;

      audio().currentTime = 5;
      fire('stalled');
      audio().currentTime = 9;
      await act(async () => {
        await jest.advanceTimersByTimeAsync(20_000);
      });
      expect(audio().src).toBe(first);

      fire('stalled');
      await act(async () => {
        await jest.advanceTimersByTimeAsync(20_000);
      });
      expect(audio().src).not.toBe(first);
      expect(audio().src.startsWith(`${liveUrl()}?direct=`)).toBe(true);
    } finally {
      await act(async () => {
        await jest.runOnlyPendingTimersAsync();
      });
      jest.useRealTimers();
    }
  });

  it('now playing is kept current from the live channel while open, and the channel closes with the player', async () => {
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await screen.findByText('DJ Test');
    const [channel] = (
      globalThis.EventSource as unknown as {
        instances: { url: string; closed: boolean; send(t: string, d: string): void }[];
      }
    ).instances;
    expect(channel?.url).toBe(`${server.origin}/api/nowplaying/events`);
    act(() => {
      channel?.send('nowplaying', JSON.stringify({ artist: 'Nouvelle artiste', title: '' }));
      channel?.send('nowplaying', '{pas du json');
    });
    expect(screen.getByText('Nouvelle artiste')).toBeInTheDocument();
    expect(screen.getByText('Inconnu')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Fermer le lecteur' }));
    expect(channel?.closed).toBe(true);
  });

  it('says what is on and what comes next; the line opens « À l’antenne » with the last tracks, which the live channel pushes', async () => {
    // Wednesday 25 November 2026, 20:30 in Paris; the tests run in UTC.
    jest.spyOn(Date, 'now').mockReturnValue(Date.parse('2026-11-25T19:30:00.000Z'));
    const show = (id: string, title: string, start: string, end: string) => ({
      id,
      title,
      start,
      end,
      allDay: false,
      residence: null,
    });
    server.routes.set(
      '/api/schedule',
      json({
        zone: 'Europe/Paris',
        from: '2026-11-24T23:00:00.000Z',
        to: '2026-11-26T23:00:00.000Z',
        events: [
          show('v', 'Velours Club', '2026-11-25T19:00:00.000Z', '2026-11-25T21:00:00.000Z'),
          show('a', 'Axonberg · Synapses', '2026-11-25T21:00:00.000Z', '2026-11-25T23:00:00.000Z'),
        ],
      }),
    );
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    const line = await screen.findByRole('button', {
      name: 'À l’antenne : Velours Club · À suivre · 22:00 · Axonberg · Synapses',
    });
    expect(server.requests).toContain('/api/schedule');
    await user.click(line);
    const panel = await screen.findByRole('region', { name: 'À l’antenne' });
    expect(line).toHaveAttribute('aria-expanded', 'true');
    expect(panel).toHaveTextContent('En ce moment20:00 – 22:00 · Velours Club');
    expect(panel).toHaveTextContent('À suivreAujourd’hui 22:00 · Axonberg · Synapses');
    expect(within(panel).queryByText('Titres précédents')).not.toBeInTheDocument();
    const [channel] = (globalThis.EventSource as unknown as { instances: { send(t: string, d: string): void }[] })
      .instances;
    act(() => {
      channel?.send(
        'nowplaying',
        JSON.stringify({
          artist: 'Verglas',
          title: 'Froid Sec',
          history: [{ artist: 'La Brume', title: 'Matin sur la Garonne', playedAt: '2026-11-25T19:26:00.000Z' }],
        }),
      );
    });
    expect(await within(panel).findByText('Titres précédents')).toBeInTheDocument();
    expect(panel).toHaveTextContent('20:26 · La Brume — Matin sur la Garonne');
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: 'À l’antenne' })).not.toBeInTheDocument();
    expect(line).toHaveFocus();
    server.routes.delete('/api/schedule');
  });

  it('a browser that refuses autoplay gets a polite invitation to press Lecture', async () => {
    jest.restoreAllMocks();
    media = stubMediaPlayback('NotAllowedError');
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    expect(await screen.findByText(MESSAGES.pressPlay)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Lecture' })).toBeInTheDocument();
    expect(screen.queryByText('chargement ...')).not.toBeInTheDocument();
  });

  it('the live-selected event opens the player on the live stream', async () => {
    renderPlayer();
    act(() => {
      window.dispatchEvent(new CustomEvent('collectif:live-selected', { detail: {} }));
    });
    expect(await screen.findByText('DJ Test')).toBeInTheDocument();
    await waitFor(() => {
      expect(audio().src.startsWith(`${liveUrl()}?direct=`)).toBe(true);
    });
  });
});

describe('replay mode', () => {
  it('a replay-selected event switches to replay, fetches the stream and plays from 0', async () => {
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await user.click(screen.getByRole('button', { name: 'Ouvrir le chat' }));
    expect(await screen.findByTitle('Chat de la radio')).toBeInTheDocument();

    await selectReplay();
    expect(screen.queryByTitle('Chat de la radio')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Ouvrir le chat' })).not.toBeInTheDocument();
    expect(screen.getByText('Artiste A')).toBeInTheDocument();
    expect(screen.getByText('Émission A')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Revenir au direct' })).toHaveTextContent('Direct');
    expect(screen.getByRole('slider', { name: 'Position dans l’émission' })).toHaveValue('0');
    expect(within(player()).getByText(/Temps écoulé/).parentElement).toHaveTextContent('0:00');
    expect(within(player()).getByText(/Temps restant/).parentElement).toHaveTextContent('-1:00:00');
    await waitFor(() => {
      expect(audio().src).toBe(`${server.origin}/api/demo/replays/a.mp3`);
    });
    expect(server.requests).toContain('/api/track/soundcloud:tracks:42');
    expect(audio().currentTime).toBe(0);
    expect(media.play).toHaveBeenCalled();
  });

  it('without a trackUrn the enclosure plays directly', async () => {
    renderPlayer();
    await selectReplay({ ...replay, trackUrn: undefined, url: 'https://cdn.example.org/b.mp3' });
    await waitFor(() => {
      expect(audio().src).toBe('https://cdn.example.org/b.mp3');
    });
    expect(server.requests.some((path) => path.startsWith('/api/track/'))).toBe(false);
  });

  it('a failed stream fetch is logged, clears loading and says so politely', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPlayer();
    await selectReplay({ ...replay, trackUrn: 'soundcloud:tracks:500' });
    expect(await screen.findByText(MESSAGES.streamUnavailable)).toBeInTheDocument();
    expect(screen.queryByText('chargement ...')).not.toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith(TRACK_ERROR_LOG, expect.anything());
    expect(media.play).not.toHaveBeenCalled();
  });

  it('an unplayable stream address is refused like a failed fetch', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPlayer();
    await selectReplay({ ...replay, trackUrn: 'soundcloud:tracks:7' });
    expect(await screen.findByText(MESSAGES.streamUnavailable)).toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith(TRACK_ERROR_LOG, 'réponse inutilisable', 'javascript:alert(1)');
    expect(audio().getAttribute('src')).toBeNull();
  });

  it('a replay chosen during the live stream silences it at once, and for good if the replay cannot play', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await waitFor(() => {
      expect(audio().src.startsWith(`${liveUrl()}?direct=`)).toBe(true);
    });
    fire('playing');
    await selectReplay({ ...replay, trackUrn: 'soundcloud:tracks:500' });
    // The live stream must not go on under the replay's title while its address is asked for.
    expect(audio().getAttribute('src')).toBeNull();
    expect(await screen.findByText(MESSAGES.streamUnavailable)).toBeInTheDocument();
    expect(audio().getAttribute('src')).toBeNull();
    expect(screen.getByRole('button', { name: 'Lecture' })).toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith(TRACK_ERROR_LOG, expect.anything());
  });

  it('an error page answered in place of the stream address is refused the same way', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPlayer();
    await selectReplay({ ...replay, trackUrn: 'soundcloud:tracks:8' });
    expect(await screen.findByText(MESSAGES.streamUnavailable)).toBeInTheDocument();
    expect(screen.queryByText('chargement ...')).not.toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith(
      TRACK_ERROR_LOG,
      'réponse inutilisable',
      expect.stringContaining('Maintenance'),
    );
    expect(audio().getAttribute('src')).toBeNull();
  });

  it('loading ends on canplay, and an audio error is logged and said politely', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPlayer();
    await selectReplay();
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    expect(screen.getByText('chargement ...')).toBeInTheDocument();
    fire('canplay');
    expect(screen.queryByText('chargement ...')).not.toBeInTheDocument();
    fire('error');
    expect(screen.getByText(MESSAGES.audioError)).toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith('Erreur du lecteur audio', undefined, undefined);
  });

  it('shows elapsed and negative remaining time, and speaks the position', async () => {
    renderPlayer();
    await selectReplay();
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    setMediaState(audio(), { duration: 3600 });
    audio().currentTime = 90;
    fire('timeupdate');
    const slider = screen.getByRole('slider', { name: 'Position dans l’émission' });
    expect(slider).toHaveValue('2.5');
    expect(slider).toHaveAttribute('aria-valuetext', '1 minute 30 secondes sur 1 heure');
    expect(within(player()).getByText(/Temps écoulé/).parentElement).toHaveTextContent('1:30');
    expect(within(player()).getByText(/Temps restant/).parentElement).toHaveTextContent('-58:30');
  });

  it('the progress tick follows the audio while it plays', async () => {
    renderPlayer();
    await selectReplay();
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    fire('playing');
    audio().currentTime = 1800;
    await waitFor(() => {
      expect(screen.getByRole('slider')).toHaveValue('50');
    });
    // A pause that did not come from the player (the system's) is shown as such.
    fire('pause');
    expect(screen.getByRole('button', { name: 'Lecture' })).toBeInTheDocument();
    fire('playing');
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
  });

  it('a replay heard to the end stops at the end, and Lecture plays it again from 0', async () => {
    const { user } = renderPlayer();
    await selectReplay();
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    fire('playing');
    audio().currentTime = 3600;
    setMediaState(audio(), { duration: 3600, ended: true });
    fire('pause');
    fire('ended');
    expect(screen.getByRole('slider')).toHaveValue('100');
    expect(within(player()).getByText(/Temps restant/).parentElement).toHaveTextContent('-0:00');
    const plays = media.play.mock.calls.length;
    await user.click(screen.getByRole('button', { name: 'Lecture' }));
    await waitFor(() => {
      expect(media.play.mock.calls.length).toBeGreaterThan(plays);
    });
    expect(audio().currentTime).toBe(0);
    expect(screen.getByRole('slider')).toHaveValue('0');
  });

  it('seeks by keyboard: arrows by 1, Page Up/Down by 10, Home and End', async () => {
    const { user } = renderPlayer();
    await selectReplay();
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    const slider = screen.getByRole('slider', { name: 'Position dans l’émission' });
    expect(slider).toHaveAttribute('tabindex', '0');
    slider.focus();
    await user.keyboard('{PageUp}');
    expect(slider).toHaveValue('10');
    expect(audio().currentTime).toBe(360);
    await user.keyboard('{ArrowRight}');
    expect(slider).toHaveValue('11');
    expect(audio().currentTime).toBe(396);
    await user.keyboard('{PageDown}{PageDown}{ArrowLeft}');
    expect(slider).toHaveValue('0');
    await user.keyboard('{End}');
    expect(slider).toHaveValue('100');
    expect(audio().currentTime).toBe(3600);
    await user.keyboard('{Home}');
    expect(slider).toHaveValue('0');
    expect(screen.getByRole('region', { name: 'Lecteur radio' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Revenir au direct' })).toBeInTheDocument();
  });

  it('a click on the slider seeks there', async () => {
    renderPlayer();
    await selectReplay();
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    fireEvent.change(screen.getByRole('slider'), { target: { value: '50' } });
    expect(audio().currentTime).toBe(1800);
  });

  it('dragging moves the thumb, seeks on release, and the click that ends it does not toggle', async () => {
    renderPlayer();
    await selectReplay();
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    const slider = screen.getByRole('slider');
    fireEvent.pointerDown(slider);
    fireEvent.change(slider, { target: { value: '70' } });
    expect(audio().currentTime).toBe(0);
    expect(slider).toHaveValue('70');
    fireEvent.pointerUp(window);
    fireEvent.click(screen.getByText('Artiste A'));
    expect(screen.getByRole('slider')).toBeInTheDocument();
    await waitFor(() => {
      expect(audio().currentTime).toBe(2520);
    });
    fireEvent.click(screen.getByText('Artiste A'));
    expect(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' })).toBeInTheDocument();
  });

  it('reopening resumes from the slider without fetching the stream again', async () => {
    const { user } = renderPlayer();
    await selectReplay();
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    fireEvent.change(screen.getByRole('slider'), { target: { value: '25' } });
    await user.click(screen.getByRole('button', { name: 'Fermer le lecteur' }));
    expect(media.pause).toHaveBeenCalled();
    audio().currentTime = 0;
    const plays = media.play.mock.calls.length;
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await waitFor(() => {
      expect(media.play.mock.calls.length).toBeGreaterThan(plays);
    });
    expect(audio().currentTime).toBe(900);
    expect(screen.getByRole('slider')).toHaveValue('25');
    expect(server.requests.filter((path) => path.startsWith('/api/track/'))).toHaveLength(1);
  });

  it('direct returns to the live stream and its now playing', async () => {
    const { user } = renderPlayer();
    await selectReplay();
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    await user.click(screen.getByRole('button', { name: 'Revenir au direct' }));
    expect(await screen.findByText('DJ Test')).toBeInTheDocument();
    await waitFor(() => {
      expect(audio().src.startsWith(`${liveUrl()}?direct=`)).toBe(true);
    });
    expect(screen.queryByRole('slider')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Revenir au direct' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Ouvrir le chat' })).toBeInTheDocument();
  });

  it('HLS without native support goes through hls.js, and says so when the browser has no MSE either', async () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPlayer();
    await selectReplay({ ...replay, trackUrn: undefined, url: 'https://cdn.example.org/show/playlist.m3u8' });
    expect(await screen.findByText(MESSAGES.audioError)).toBeInTheDocument();
    expect(errors).toHaveBeenCalledWith('Erreur du lecteur audio : ce navigateur ne lit pas les flux HLS');
    expect(audio().getAttribute('src')).toBeNull();
  });

  it('HLS plays natively where the browser can', async () => {
    jest
      .spyOn(HTMLMediaElement.prototype, 'canPlayType')
      .mockImplementation((type) => (type === 'application/vnd.apple.mpegurl' ? 'maybe' : ''));
    renderPlayer();
    await selectReplay({ ...replay, trackUrn: undefined, url: 'https://cdn.example.org/show/playlist.m3u8' });
    await waitFor(() => {
      expect(audio().src).toBe('https://cdn.example.org/show/playlist.m3u8');
    });
  });

  it('a malformed replay-selected event from a script is refused in French and changes nothing', () => {
    const errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderPlayer();
    act(() => {
      window.dispatchEvent(new CustomEvent('collectif:replay-selected', { detail: { title: 'sans adresse' } }));
    });
    expect(errors).toHaveBeenCalledWith('Lecteur : épisode ignoré, « url » doit être l’adresse du fichier audio.');
    expect(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' })).toBeInTheDocument();
  });
});

describe('chat panel', () => {
  it('opens above the player with the collective’s room, and closing clears it', async () => {
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await user.click(screen.getByRole('button', { name: 'Ouvrir le chat' }));
    const frame = await screen.findByTitle('Chat de la radio');
    expect(frame).toHaveAttribute('src', `${server.origin}/chat/${siteConfig.radio.chatRoom}`);
    await waitFor(() => {
      expect(server.requests).toContain(`/chat/${siteConfig.radio.chatRoom}`);
    });
    expect(await screen.findByTitle('Chat de la radio')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Fermer le chat' }));
    expect(screen.queryByTitle('Chat de la radio')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Ouvrir le chat' }));
    await user.click(screen.getByRole('button', { name: 'Fermer le lecteur' }));
    expect(screen.queryByRole('region', { name: 'Chat de la radio' })).not.toBeInTheDocument();
  });

  it('says in French when the widget cannot load, with a link to open it in a new tab', async () => {
    const unreachable = await closedOrigin();
    configurePlayer({ apiBase: `${server.origin}/api`, chatEmbedUrl: `${unreachable}/{room}` });
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await user.click(screen.getByRole('button', { name: 'Ouvrir le chat' }));
    const chat = screen.getByRole('region', { name: 'Chat de la radio' });
    expect(await within(chat).findByText('Le chat ne peut pas s’afficher ici pour le moment.')).toBeInTheDocument();
    const link = within(chat).getByRole('link', { name: /Ouvrir le chat dans un nouvel onglet/ });
    expect(link).toHaveAttribute('href', `${unreachable}/${siteConfig.radio.chatRoom}`);
    expect(link).toHaveAttribute('target', '_blank');
    expect(within(chat).queryByTitle('Chat de la radio')).not.toBeInTheDocument();
  });
});

describe('system media controls', () => {
  it('show title, artist and cover, with play/pause and the replay’s seeking actions', async () => {
    renderPlayer();
    await selectReplay();
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    expect(session.metadata).toMatchObject({
      title: 'Émission A',
      artist: 'Artiste A',
      artwork: [{ src: `${server.origin}/assets/images/a.webp` }],
    });
    expect([...session.handlers.keys()].sort()).toEqual(['pause', 'play', 'seekbackward', 'seekforward', 'seekto']);
    expect(session.positions.at(-1)).toEqual({ duration: 3600, position: 0, playbackRate: 1 });

    act(() => {
      session.handlers.get('seekforward')?.({ action: 'seekforward' });
    });
    expect(audio().currentTime).toBe(10);
    act(() => {
      session.handlers.get('seekforward')?.({ action: 'seekforward', seekOffset: 30 });
    });
    expect(audio().currentTime).toBe(40);
    act(() => {
      session.handlers.get('seekbackward')?.({ action: 'seekbackward' });
    });
    expect(audio().currentTime).toBe(30);
    act(() => {
      session.handlers.get('seekto')?.({ action: 'seekto', seekTime: 1800 });
    });
    expect(audio().currentTime).toBe(1800);
    expect(session.positions.at(-1)).toEqual({ duration: 3600, position: 1800, playbackRate: 1 });

    fire('playing');
    expect(session.playbackState).toBe('playing');
    act(() => {
      session.handlers.get('pause')?.({ action: 'pause' });
    });
    expect(screen.getByRole('button', { name: 'Lecture' })).toBeInTheDocument();
    expect(media.pause).toHaveBeenCalled();
    act(() => {
      session.handlers.get('play')?.({ action: 'play' });
    });
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
  });

  it('offer no seeking in live mode, and the default cover when there is none', async () => {
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await screen.findByText('DJ Test');
    expect(session.metadata).toMatchObject({
      title: 'Matinale test',
      artist: 'DJ Test',
      artwork: [{ src: `${server.origin}/assets/images/default-cover.webp` }],
    });
    expect([...session.handlers.keys()].sort()).toEqual(['pause', 'play']);
    expect(session.positions.at(-1)).toBeUndefined();
  });
});

describe('public state', () => {
  it('emits player-state snapshots that a page can follow', async () => {
    const seen: PlayerSnapshot[] = [];
    const off = on('player-state', (snapshot) => seen.push(snapshot));
    const { user } = renderPlayer();
    await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
    await waitFor(() => {
      expect(audio().getAttribute('src')).not.toBeNull();
    });
    fire('playing');
    await waitFor(() => {
      expect(seen.at(-1)).toMatchObject({ mode: 'LIVE', open: true, playing: true, loading: false });
    });
    off();
  });
});
