import { createSlice, rootReducer, type PayloadAction, type RootState } from '@collectif/shared';

/*
 * « Diffuser sur… » (docs/player.md, « Diffuser sur un appareil »): what the browser says of the
 * devices the page's audio element can be sent to, and where its sound is. Injected into the store
 * when the open bar first loads: nothing of it is on a page's first visit.
 */

/** Which of the browser's APIs sends the element: the Remote Playback API, or Safari's AirPlay. */
export type CastApi = 'remote' | 'airplay';

/** What the element holds: nothing, an address a receiver can fetch, or Media Source Extensions (hls.js). */
export type CastSource = 'none' | 'plain' | 'mse';

/** Where the sound is: the page, on its way to a device, or on the device. */
export type CastLink = 'disconnected' | 'connecting' | 'connected';

export interface CastState {
  api: CastApi | null;
  /** The browser reports a device for the element's source now. */
  devices: boolean;
  /** A device was reported once in this page: a source that cannot be sent then says so. */
  seen: boolean;
  source: CastSource;
  link: CastLink;
  /** Why the last press sent nothing, said under the button. */
  note: string | null;
}

const initialState: CastState = {
  api: null,
  devices: false,
  seen: false,
  source: 'none',
  link: 'disconnected',
  note: null,
};

export const castSlice = createSlice({
  name: 'cast',
  initialState,
  reducers: {
    castWatched(state, action: PayloadAction<CastApi>) {
      state.api = action.payload;
    },
    castDevicesChanged(state, action: PayloadAction<boolean>) {
      state.devices = action.payload;
      if (action.payload) state.seen = true;
    },
    castSourceChanged(state, action: PayloadAction<CastSource>) {
      state.source = action.payload;
      // A new source that can be sent takes back what the last press said.
      if (action.payload === 'plain') state.note = null;
    },
    castPressed(state) {
      state.note = null;
    },
    castRefused(state, action: PayloadAction<string>) {
      state.note = action.payload;
    },
    castConnecting(state) {
      state.link = 'connecting';
      state.note = null;
    },
    castConnected(state) {
      state.link = 'connected';
      state.note = null;
    },
    castDisconnected(state) {
      state.link = 'disconnected';
    },
  },
});

export const injectedCast = castSlice.injectInto(rootReducer);

export const {
  castWatched,
  castDevicesChanged,
  castSourceChanged,
  castPressed,
  castRefused,
  castConnecting,
  castConnected,
  castDisconnected,
} = castSlice.actions;

/** The cast state; the initial one before the slice's first action. */
export function selectCast(state: RootState): CastState {
  return (state as { cast?: CastState }).cast ?? initialState;
}

/**
 * « Diffuser sur… » shows only where it can do something: a device reported for this source, or a
 * link under way; or a source a receiver cannot fetch (the timeline through hls.js) where a device
 * was reported, so that the button says why instead of vanishing.
 */
export function selectCastShown(state: RootState): boolean {
  const cast = selectCast(state);
  return cast.api !== null && (cast.link !== 'disconnected' || cast.devices || (cast.seen && cast.source === 'mse'));
}
