// The player for partner sites: one small script, no federation. It defines <collectif-player> and
// window.CollectifPlayer.mount(element, options), draws the bar at once and fetches the player (its
// own Preact, store, reconnection and Media Session) on the first intent to play (docs/embed.md).
import baseCss from '@collectif/shared/styles/base.css';
import tokensCss from '@collectif/shared/styles/tokens.css';
import playerCss from '../ui/player.css';
import barCss from '../ui/bar.css';
import panelsCss from '../ui/panels.css';
import embedCss from './embed.css';
import { defineCollectifPlayer } from './element';
import { reportHeightToParent } from './frame';
import { embedPlayer, type EmbeddedPlayer } from './host';
import type { MountOptions } from './options';

// The embed build reads CSS files as text (webpack `asset/source`).
const sources: unknown[] = [tokensCss, baseCss, playerCss, barCss, panelsCss, embedCss];
// Design tokens are declared on :root; inside the player's shadow root they belong to its host.
const css = sources
  .map((text) => (typeof text === 'string' ? text : ''))
  .join('\n')
  .replace(/:root\b/g, ':host');

/** Without options, the API is the one of the server this script came from. */
function scriptOrigin(): string | null {
  const script = document.currentScript;
  if (!(script instanceof HTMLScriptElement) || script.src === '') return null;
  return new URL(script.src).origin;
}

const origin = scriptOrigin();
const defaults: MountOptions = origin === null ? {} : { apiBase: `${origin}/api` };

export interface CollectifPlayerApi {
  mount(element: Element, options?: MountOptions): EmbeddedPlayer;
}

const publicApi: CollectifPlayerApi = {
  mount: (element, options = {}) => embedPlayer(element, { ...defaults, ...options }, css),
};

(globalThis as { CollectifPlayer?: CollectifPlayerApi }).CollectifPlayer = publicApi;
defineCollectifPlayer(defaults, css);
reportHeightToParent();
