import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RADIO_SETTINGS_PATH, StoreProvider, apiUrl, loadRadioSettings, makeStore } from '@collectif/shared';
import Player from '../exposed/Player';
import { PlayerBar } from '../ui/PlayerBar';
import { providePlayerBar } from '../ui/PlayerView';
import { configurePlayer } from '../player/config';
import { countPlaysAsEmbed } from '../figures/beacons';
import { disposePlayer } from '../player/connect';
import { adoptStyles, httpUrl, type MountOptions } from './options';

export type { MountOptions } from './options';

// The partner's player opens at once (it is fetched on the first intent to play): its bar comes with
// it, its styles in the first script, rather than as a chunk of its own as on the site.
providePlayerBar(PlayerBar);
// Its plays are counted as the embeds' (docs/figures.md, « In the browser »).
countPlaysAsEmbed();

export interface MountedPlayer {
  readonly unmount: () => void;
  /** The player's own element, first in the shadow root. */
  readonly container: HTMLElement;
}

interface Active extends MountedPlayer {
  element: HTMLElement;
}

let active: Active | null = null;

/**
 * Puts the player in `element` (in its shadow root), with its own React and its own store. One
 * player per page: the audio element is the page's.
 */
export function mountPlayer(element: Element, options: MountOptions = {}, css = ''): MountedPlayer {
  if (!(element instanceof HTMLElement)) {
    throw new TypeError('CollectifPlayer.mount : le premier argument doit être un élément HTML de la page.');
  }
  if (active !== null) {
    if (active.element === element) return { unmount: active.unmount, container: active.container };
    throw new Error('CollectifPlayer.mount : un seul lecteur par page ; appelez d’abord unmount() sur le précédent.');
  }
  const apiBase = options.apiBase === undefined ? undefined : httpUrl(options.apiBase, 'apiBase');
  const streamUrl = options.streamUrl === undefined ? undefined : options.streamUrl.trim();
  if (streamUrl !== undefined) httpUrl(streamUrl, 'streamUrl', apiBase);
  configurePlayer({
    ...(apiBase === undefined ? {} : { apiBase }),
    ...(streamUrl === undefined ? {} : { streamUrl }),
    // Off for partners unless asked (docs/embed.md, « The timeline »).
    timeline: options.timeline === true,
    // The queue too (docs/embed.md, « The queue »): a partner's page sends no queue-add unless it means it.
    queue: options.queue === true,
  });
  // The partner's page says nothing about the radio: its stream, chat and channel come from the API
  // (until they arrive, or if it fails, site.json's; playing live waits for them).
  void loadRadioSettings(apiUrl(RADIO_SETTINGS_PATH));

  const shadow = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
  if (css !== '') adoptStyles(shadow, css);
  const container = document.createElement('div');
  container.className = 'collectif-embed';
  // First: what the partner script drew before (the bar, a residence's episodes) stays after it.
  shadow.prepend(container);

  const store = makeStore();
  const root = createRoot(container);
  root.render(
    <StrictMode>
      <StoreProvider store={store}>
        <Player />
      </StoreProvider>
    </StrictMode>,
  );

  const handle: Active = {
    element,
    container,
    unmount: () => {
      if (active !== handle) return;
      active = null;
      root.unmount();
      container.remove();
      disposePlayer(store);
    },
  };
  active = handle;
  return { unmount: handle.unmount, container };
}
