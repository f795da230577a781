import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emit, makeStore, type ReplaySource } from '@collectif/shared';
import { renderWithProviders } from '@collectif/shared/test-utils';
import Player from '../exposed/Player';
import { configurePlayer } from '../player/config';
import {
  installEventSource,
  installMediaSession,
  installRemotePlayback,
  json,
  playerAudio,
  removeEventSource,
  removeMediaSession,
  removeRemotePlayback,
  startLoopbackServer,
  stubMediaPlayback,
  type FakeRemotePlayback,
  type LoopbackServer,
  type MediaStubs,
} from '../testing/browser';
import {
  castConnected,
  castDevicesChanged,
  castDisconnected,
  castSourceChanged,
  castWatched,
  selectCast,
  selectCastShown,
} from './castSlice';
import { CAST_TEXT } from './remote';

const replay: ReplaySource = {
  url: '/api/demo/replays/enclosure.mp3',
  duration: 3600,
  artist: 'Artiste A',
  show: 'Émission A',
  cover: '/assets/images/a.webp',
};

let server: LoopbackServer;
let media: MediaStubs;
let remote: FakeRemotePlayback;

beforeAll(async () => {
  server = await startLoopbackServer({
    '/api/nowplaying': json({ artist: 'DJ Test', title: 'Matinale test' }),
  });
});

afterAll(async () => {
  await server.close();
});

beforeEach(() => {
  configurePlayer({ apiBase: `${server.origin}/api` });
  media = stubMediaPlayback();
  installMediaSession();
  installEventSource();
  remote = installRemotePlayback();
});

afterEach(() => {
  removeRemotePlayback();
  removeMediaSession();
  removeEventSource();
  jest.restoreAllMocks();
});

const castButton = () => screen.queryByRole('button', { name: /^(Diffuser sur…|Diffusé sur l’appareil|Connexion)/ });
const src = () => playerAudio().getAttribute('src') ?? '';

async function openLive() {
  const user = userEvent.setup();
  const view = renderWithProviders(<Player />);
  await user.click(screen.getByRole('button', { name: 'Stream : ouvrir le lecteur' }));
  await screen.findByRole('button', { name: 'Fermer le lecteur' });
  await waitFor(() => {
    expect(src()).toContain('/api/demo/live.mp3?direct=');
  });
  return { user, ...view };
}

describe('the cast state', () => {
  it('shows the button for a device, a link under way, or a source that cannot go where a device was seen', () => {
    const store = makeStore();
    const shown = () => selectCastShown(store.getState());
    store.dispatch(castDevicesChanged(true));
    // No API watched (Firefox): nothing, whatever is reported.
    expect(shown()).toBe(false);
    store.dispatch(castWatched('remote'));
    expect(shown()).toBe(true);
    store.dispatch(castDevicesChanged(false));
    expect(shown()).toBe(false);
    store.dispatch(castSourceChanged('mse'));
    expect(shown()).toBe(true);
    store.dispatch(castSourceChanged('plain'));
    expect(shown()).toBe(false);
    store.dispatch(castConnected());
    expect(shown()).toBe(true);
    store.dispatch(castDisconnected());
    expect(selectCast(store.getState())).toMatchObject({ link: 'disconnected', seen: true, devices: false });
    expect(shown()).toBe(false);
  });
});

describe('« Diffuser sur… »', () => {
  it('is absent where the browser has no Remote Playback API', async () => {
    removeRemotePlayback();
    await openLive();
    expect(castButton()).not.toBeInTheDocument();
  });

  it('shows only while the browser reports a device, never as a dead button', async () => {
    await openLive();
    expect(castButton()).not.toBeInTheDocument();
    act(() => {
      remote.available(true);
    });
    expect(await screen.findByRole('button', { name: 'Diffuser sur…' })).toBeInTheDocument();
    act(() => {
      remote.available(false);
    });
    expect(castButton()).not.toBeInTheDocument();
  });

  it('sends the live’s plain MP3 address, says where it plays, keeps play and pause, and brings the sound back at the edge', async () => {
    remote.available(true);
    const { user } = await openLive();
    fireEvent(playerAudio(), new Event('playing'));
    await user.click(await screen.findByRole('button', { name: 'Diffuser sur…' }));
    expect(remote.prompts).toBe(1);
    // The element sent is the page's one, its source the Icecast stream, not a blob of hls.js.
    expect(src()).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/demo\/live\.mp3\?direct=/);
    act(() => {
      remote.link('connecting');
    });
    expect(screen.getByRole('button', { name: 'Connexion à l’appareil…' })).toBeInTheDocument();
    act(() => {
      remote.link('connected');
    });
    expect(screen.getByRole('button', { name: 'Diffusé sur l’appareil : changer ou arrêter' })).toBeInTheDocument();
    const volume = screen.getByRole('slider', { name: 'Volume de l’appareil' });
    fireEvent.change(volume, { target: { value: '40' } });
    expect(playerAudio().volume).toBeCloseTo(0.4);

    // The bar's own button drives the element, so the device.
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    expect(media.pause).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Lecture' }));
    await waitFor(() => {
      expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
    });

    const plays = media.play.mock.calls.length;
    act(() => {
      remote.link('disconnected');
    });
    expect(await screen.findByRole('button', { name: 'Diffuser sur…' })).toBeInTheDocument();
    expect(screen.queryByRole('slider', { name: 'Volume de l’appareil' })).not.toBeInTheDocument();
    // Back on the page without a second press: the live asked again from its edge, and played.
    await waitFor(() => {
      expect(media.play.mock.calls.length).toBeGreaterThan(plays);
    });
    expect(src()).toContain('/api/demo/live.mp3?direct=');
    expect(screen.getByRole('button', { name: 'Pause' })).toBeInTheDocument();
  });

  it('leaves a paused player paused when the device lets go', async () => {
    remote.available(true);
    const { user } = await openLive();
    await user.click(await screen.findByRole('button', { name: 'Diffuser sur…' }));
    act(() => {
      remote.link('connected');
    });
    await user.click(screen.getByRole('button', { name: 'Pause' }));
    const plays = media.play.mock.calls.length;
    act(() => {
      remote.link('disconnected');
    });
    await screen.findByRole('button', { name: 'Diffuser sur…' });
    expect(media.play.mock.calls.length).toBe(plays);
    expect(screen.getByRole('button', { name: 'Lecture' })).toBeInTheDocument();
  });

  it('sends a replay’s own file, and a paused live asks for its stream before the picker', async () => {
    remote.available(true);
    const { user } = await openLive();
    act(() => {
      emit('replay-selected', { ...replay, start: 90 });
    });
    await waitFor(() => {
      expect(src()).toBe(`${server.origin}/api/demo/replays/enclosure.mp3`);
    });
    await user.click(await screen.findByRole('button', { name: 'Diffuser sur…' }));
    expect(remote.prompts).toBe(1);

    await user.click(screen.getByRole('button', { name: 'Revenir au direct' }));
    await user.click(await screen.findByRole('button', { name: 'Pause' }));
    await waitFor(() => {
      expect(src()).toBe('');
    });
    await user.click(screen.getByRole('button', { name: 'Diffuser sur…' }));
    await waitFor(() => {
      expect(src()).toContain('/api/demo/live.mp3?direct=');
    });
    expect(remote.prompts).toBe(1);
    // The browser starts loading the new source (jsdom loads nothing: its event, fired here).
    fireEvent(playerAudio(), new Event('loadstart'));
    await waitFor(() => {
      expect(remote.prompts).toBe(2);
    });
  });

  it('says in French that a source of hls.js cannot be sent, instead of opening the picker', async () => {
    remote.available(true);
    const { user } = await openLive();
    await screen.findByRole('button', { name: 'Diffuser sur…' });
    // What hls.js does to the element: a blob of Media Source Extensions; the browser then reports
    // no device for it.
    act(() => {
      playerAudio().setAttribute('src', 'blob:http://127.0.0.1/differe');
      fireEvent(playerAudio(), new Event('loadstart'));
      remote.available(false);
    });
    await user.click(screen.getByRole('button', { name: 'Diffuser sur…' }));
    expect(screen.getByText(CAST_TEXT.timeline)).toHaveAttribute('role', 'status');
    expect(remote.prompts).toBe(0);
  });

  it('says why when the browser finds no device, and nothing when the visitor closes the picker', async () => {
    remote.available(true);
    const { user } = await openLive();
    remote.refuse = 'NotFoundError';
    await user.click(await screen.findByRole('button', { name: 'Diffuser sur…' }));
    expect(await screen.findByText(CAST_TEXT.noDevice)).toBeInTheDocument();
    remote.refuse = 'NotAllowedError';
    await user.click(screen.getByRole('button', { name: 'Diffuser sur…' }));
    await waitFor(() => {
      expect(screen.queryByText(CAST_TEXT.noDevice)).not.toBeInTheDocument();
    });
    expect(remote.prompts).toBe(2);
  });

  it('uses Safari’s AirPlay where the Remote Playback API is absent, and brings the sound back when it ends', async () => {
    removeRemotePlayback();
    let wireless = false;
    const picker = jest.fn();
    Object.defineProperty(HTMLMediaElement.prototype, 'webkitShowPlaybackTargetPicker', {
      configurable: true,
      value: picker,
    });
    Object.defineProperty(HTMLMediaElement.prototype, 'webkitCurrentPlaybackTargetIsWireless', {
      configurable: true,
      get: () => wireless,
    });
    try {
      const { user } = await openLive();
      expect(castButton()).not.toBeInTheDocument();
      act(() => {
        playerAudio().dispatchEvent(
          Object.assign(new Event('webkitplaybacktargetavailabilitychanged'), { availability: 'available' }),
        );
      });
      await user.click(await screen.findByRole('button', { name: 'Diffuser sur…' }));
      expect(picker).toHaveBeenCalledTimes(1);
      wireless = true;
      act(() => {
        playerAudio().dispatchEvent(new Event('webkitcurrentplaybacktargetiswirelesschanged'));
      });
      expect(screen.getByRole('button', { name: 'Diffusé sur l’appareil : changer ou arrêter' })).toBeInTheDocument();
      // AirPlay's volume is the device's own.
      expect(screen.queryByRole('slider', { name: 'Volume de l’appareil' })).not.toBeInTheDocument();
      const plays = media.play.mock.calls.length;
      wireless = false;
      act(() => {
        playerAudio().dispatchEvent(new Event('webkitcurrentplaybacktargetiswirelesschanged'));
      });
      expect(await screen.findByRole('button', { name: 'Diffuser sur…' })).toBeInTheDocument();
      await waitFor(() => {
        expect(media.play.mock.calls.length).toBeGreaterThan(plays);
      });
    } finally {
      Reflect.deleteProperty(HTMLMediaElement.prototype, 'webkitShowPlaybackTargetPicker');
      Reflect.deleteProperty(HTMLMediaElement.prototype, 'webkitCurrentPlaybackTargetIsWireless');
    }
  });
});
