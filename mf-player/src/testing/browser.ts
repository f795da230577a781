// Test stand-ins for what jsdom lacks (media playback, the Media Session API, EventSource): the
// browser's gaps, not our modules. Each records what the player did so that tests can assert it.
import { startFakeServer, type FakeRoute } from '@collectif/shared/testing';
import { AUDIO_ELEMENT_ID } from '../player/audioEngine';

export interface MediaStubs {
  play: jest.SpyInstance;
  pause: jest.SpyInstance;
  load: jest.SpyInstance;
}

/** play() resolves (or rejects with `refuse`), pause() and load() do nothing: tests fire the events. */
export function stubMediaPlayback(refuse?: string): MediaStubs {
  return {
    play: jest
      .spyOn(HTMLMediaElement.prototype, 'play')
      .mockImplementation(() =>
        refuse === undefined ? Promise.resolve() : Promise.reject(new DOMException('refusé', refuse)),
      ),
    pause: jest.spyOn(HTMLMediaElement.prototype, 'pause').mockImplementation(() => undefined),
    load: jest.spyOn(HTMLMediaElement.prototype, 'load').mockImplementation(() => undefined),
  };
}

/** Values the real element computes from the media, set by the test. */
export function setMediaState(
  audio: HTMLMediaElement,
  values: { duration?: number; paused?: boolean; ended?: boolean },
): void {
  for (const [key, value] of Object.entries(values)) {
    Object.defineProperty(audio, key, { configurable: true, get: () => value as unknown });
  }
}

export interface FakeMediaSession {
  metadata: MediaMetadataInit | null;
  playbackState: MediaSessionPlaybackState;
  handlers: Map<MediaSessionAction, MediaSessionActionHandler>;
  positions: (MediaPositionState | undefined)[];
  setActionHandler(action: MediaSessionAction, handler: MediaSessionActionHandler | null): void;
  setPositionState(state?: MediaPositionState): void;
}

export function installMediaSession(): FakeMediaSession {
  const fake: FakeMediaSession = {
    metadata: null,
    playbackState: 'none',
    handlers: new Map(),
    positions: [],
    setActionHandler(action, handler) {
      if (handler === null) this.handlers.delete(action);
      else this.handlers.set(action, handler);
    },
    setPositionState(state) {
      this.positions.push(state);
    },
  };
  Object.defineProperty(navigator, 'mediaSession', { configurable: true, value: fake });
  Object.defineProperty(globalThis, 'MediaMetadata', {
    configurable: true,
    writable: true,
    value: class FakeMediaMetadata {
      title = '';
      artist = '';
      album = '';
      artwork: MediaImage[] = [];
      constructor(init: MediaMetadataInit) {
        Object.assign(this, init);
      }
    },
  });
  return fake;
}

export function removeMediaSession(): void {
  Reflect.deleteProperty(navigator, 'mediaSession');
  Reflect.deleteProperty(globalThis, 'MediaMetadata');
}

export class FakeEventSource extends EventTarget {
  static instances: FakeEventSource[] = [];
  closed = false;

  constructor(readonly url: string) {
    super();
    FakeEventSource.instances.push(this);
  }

  close(): void {
    this.closed = true;
  }

  /** What the server sends as `event: <type>` + `data: <data>`. */
  send(type: string, data: string): void {
    this.dispatchEvent(new MessageEvent(type, { data }));
  }
}

export function installEventSource(): typeof FakeEventSource {
  FakeEventSource.instances = [];
  Object.defineProperty(globalThis, 'EventSource', { configurable: true, writable: true, value: FakeEventSource });
  return FakeEventSource;
}

export function removeEventSource(): void {
  Reflect.deleteProperty(globalThis, 'EventSource');
}

export type Route = FakeRoute;

/** The shared loopback server standing for the collective's API (the /api contract), with CORS. */
export interface LoopbackServer {
  origin: string;
  /** Paths requested so far, decoded. */
  requests: string[];
  routes: Map<string, Route>;
  close(): Promise<void>;
}

export async function startLoopbackServer(routes: Record<string, Route>): Promise<LoopbackServer> {
  const requests: string[] = [];
  const server = await startFakeServer({
    routes,
    headers: { 'Access-Control-Allow-Origin': '*' },
    onRequest: ({ path }) => requests.push(path),
  });
  return { origin: server.origin, requests, routes: server.routes, close: () => server.close() };
}

export { closedOrigin, json, text } from '@collectif/shared/testing';

/** The player's one audio element, which its engine puts in the page. */
export function playerAudio(): HTMLAudioElement {
  const element = document.getElementById(AUDIO_ELEMENT_ID);
  if (!(element instanceof HTMLAudioElement)) throw new Error('pas d’élément audio');
  return element;
}

/**
 * The Remote Playback API (`HTMLMediaElement.remote`), which jsdom lacks: each element's stand-in
 * records the prompts, and the test plays the browser's part (a device reported, the visitor's
 * pick, a disconnection) through the returned controls.
 */
export interface FakeRemotePlayback {
  /** How many times the page opened the browser's picker. */
  prompts: number;
  /** The DOMException name the next prompts reject with; null: they resolve. */
  refuse: string | null;
  /** The browser reports a device, or none, to every watcher. */
  available(value: boolean): void;
  /** The browser's link to a device changes, with its event. */
  link(state: RemotePlaybackState): void;
}

export function installRemotePlayback(): FakeRemotePlayback {
  const watchers: ((available: boolean) => void)[] = [];
  let availability = false;
  const remotes = new WeakMap<HTMLMediaElement, EventTarget & { state: RemotePlaybackState }>();
  const controls: FakeRemotePlayback = {
    prompts: 0,
    refuse: null,
    available(value) {
      availability = value;
      for (const watcher of watchers) watcher(value);
    },
    link(state) {
      const remote = remotes.get(playerAudio());
      if (remote === undefined) throw new Error('pas de Remote Playback sur l’élément audio');
      remote.state = state;
      const type = state === 'connected' ? 'connect' : state === 'connecting' ? 'connecting' : 'disconnect';
      remote.dispatchEvent(new Event(type));
    },
  };
  class FakeRemote extends EventTarget {
    state: RemotePlaybackState = 'disconnected';
    watchAvailability(callback: (available: boolean) => void): Promise<number> {
      watchers.push(callback);
      callback(availability);
      return Promise.resolve(watchers.length);
    }
    cancelWatchAvailability(): Promise<void> {
      return Promise.resolve();
    }
    prompt(): Promise<void> {
      controls.prompts += 1;
      return controls.refuse === null ? Promise.resolve() : Promise.reject(new DOMException('refusé', controls.refuse));
    }
  }
  Object.defineProperty(HTMLMediaElement.prototype, 'remote', {
    configurable: true,
    get(this: HTMLMediaElement) {
      let remote = remotes.get(this);
      if (remote === undefined) {
        remote = new FakeRemote();
        remotes.set(this, remote);
      }
      return remote;
    },
  });
  return controls;
}

export function removeRemotePlayback(): void {
  Reflect.deleteProperty(HTMLMediaElement.prototype, 'remote');
}
