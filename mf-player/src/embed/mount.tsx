import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RADIO_SETTINGS_PATH, StoreProvider, apiUrl, loadRadioSettings, makeStore } from '@collectif/shared';
import Player from '../exposed/Player';
import { configurePlayer } from '../player/config';
import { disposePlayer } from '../player/connect';

/** The options of `CollectifPlayer.mount` and of the `<collectif-player>` attributes. */
export interface MountOptions {
  /** The collective's API, absolute (e.g. https://radio.example.org/api). */
  apiBase?: string;
  /** The live stream; relative URLs are read against the API's origin. */
  streamUrl?: string;
}

export interface MountedPlayer {
  readonly unmount: () => void;
}

interface Active extends MountedPlayer {
  element: HTMLElement;
}

let active: Active | null = null;

function httpUrl(value: string, option: string, base: string = globalThis.location.href): string {
  let url: URL;
  try {
    url = new URL(value, base);
  } catch {
    throw new TypeError(`CollectifPlayer : l’option « ${option} » n’est pas une adresse valide (${value}).`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new TypeError(`CollectifPlayer : l’option « ${option} » doit être une adresse http(s) (${value}).`);
  }
  return url.href;
}

/** Styles live in the player's shadow root: the partner's CSS and ours cannot touch each other. */
function adoptStyles(root: ShadowRoot, css: string): void {
  const canAdopt =
    'adoptedStyleSheets' in root && typeof CSSStyleSheet === 'function' && 'replaceSync' in CSSStyleSheet.prototype;
  if (canAdopt) {
    // Constructed sheets also pass a partner's Content-Security-Policy that forbids inline <style>.
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
    return;
  }
  const style = document.createElement('style');
  style.textContent = css;
  root.appendChild(style);
}

/**
 * Puts the player in `element` (in its shadow root), with its own React and its own store. One
 * player per page: the audio element is the page's.
 */
export function mountPlayer(element: Element, options: MountOptions = {}, css = ''): MountedPlayer {
  if (!(element instanceof HTMLElement)) {
    throw new TypeError('CollectifPlayer.mount : le premier argument doit être un élément HTML de la page.');
  }
  if (active !== null) {
    if (active.element === element) return { unmount: active.unmount };
    throw new Error('CollectifPlayer.mount : un seul lecteur par page ; appelez d’abord unmount() sur le précédent.');
  }
  const apiBase = options.apiBase === undefined ? undefined : httpUrl(options.apiBase, 'apiBase');
  const streamUrl = options.streamUrl === undefined ? undefined : options.streamUrl.trim();
  if (streamUrl !== undefined) httpUrl(streamUrl, 'streamUrl', apiBase);
  configurePlayer({
    ...(apiBase === undefined ? {} : { apiBase }),
    ...(streamUrl === undefined ? {} : { streamUrl }),
  });
  // The partner's page says nothing about the radio: its stream, chat and channel come from the API
  // (until they arrive, or if it fails, site.json's; playing live waits for them).
  void loadRadioSettings(apiUrl(RADIO_SETTINGS_PATH));

  const shadow = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
  if (css !== '') adoptStyles(shadow, css);
  const container = document.createElement('div');
  container.className = 'collectif-embed';
  shadow.appendChild(container);

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
    unmount: () => {
      if (active !== handle) return;
      active = null;
      root.unmount();
      container.remove();
      disposePlayer(store);
    },
  };
  active = handle;
  return { unmount: handle.unmount };
}
