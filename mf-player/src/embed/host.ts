// The partner script's first part (docs/embed.md, « The partner script »): checks the options,
// draws the bar in the element's shadow root, and fetches the player on the first intent to play.
import type { ReplayRequest } from '@collectif/shared';
import { DEFAULT_EMBED_OPTIONS, type EmbedOptions } from '@collectif/shared/embed';
import type * as Engine from './engine';
import type { StartedPlayer } from './engine';
import {
  createEpisodeList,
  createFacade,
  episodeKey,
  LIVE_PREVIEW,
  loadPreview,
  type Preview,
  type PreviewReplay,
} from './facade';
import { adoptStyles, httpUrl, inkFor, type MountOptions } from './options';

export interface EmbeddedPlayer {
  readonly unmount: () => void;
}

interface Active extends EmbeddedPlayer {
  element: HTMLElement;
}

let active: Active | null = null;

/** The event contract's requests, as a partner's page sends them (docs/contract.md). */
const REPLAY_EVENT = 'collectif:replay-selected';
const LIVE_EVENT = 'collectif:live-selected';
const STATE_EVENT = 'collectif:player-state';

/** The player, fetched once per page (and on a failure, again on the next press). */
let engine: Promise<typeof Engine> | null = null;

function loadEngine(): Promise<typeof Engine> {
  engine ??= import(/* webpackChunkName: "lecteur" */ './engine').catch((error: unknown) => {
    engine = null;
    throw error;
  });
  return engine;
}

/** The look on the host element: its attributes and custom properties reach into its shadow root. */
function applyLook(element: HTMLElement, options: EmbedOptions): void {
  element.dataset.theme = options.theme;
  element.dataset.format = options.format;
  if (options.colour === null) {
    element.style.removeProperty('--color-accent');
    element.style.removeProperty('--color-accent-ink');
  } else {
    element.style.setProperty('--color-accent', options.colour);
    element.style.setProperty('--color-accent-ink', inkFor(options.colour));
  }
}

/**
 * Puts the player in `element`: at once the bar with what it will play, then, on the first intent
 * (pointer over it, focus, touch) the player's code, and on a press the player itself, playing.
 * One player per page: the audio element is the page's. A wrong option throws a French error.
 */
export function embedPlayer(target: Element, options: MountOptions, css: string): EmbeddedPlayer {
  if (!(target instanceof HTMLElement)) {
    throw new TypeError('CollectifPlayer.mount : le premier argument doit être un élément HTML de la page.');
  }
  const element = target;
  if (active !== null) {
    if (active.element === element) return { unmount: active.unmount };
    throw new Error('CollectifPlayer.mount : un seul lecteur par page ; appelez d’abord unmount() sur le précédent.');
  }
  const apiBase = httpUrl(options.apiBase ?? '/api', 'apiBase').replace(/\/$/, '');
  if (options.streamUrl !== undefined) httpUrl(options.streamUrl.trim(), 'streamUrl', apiBase);
  const embed: EmbedOptions = { ...DEFAULT_EMBED_OPTIONS, ...withoutUndefined(options) };
  const mountOptions: MountOptions = { ...options, apiBase };

  applyLook(element, embed);
  const shadow = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
  if (css !== '') adoptStyles(shadow, css);

  let preview: Preview = LIVE_PREVIEW;
  let started: StartedPlayer | null = null;
  let starting = false;
  let gone = false;

  // What the partner's page asks before the player is there (the event contract's requests, sent
  // as DOM events) starts it, as a press would, with what was asked.
  let request: { wanted: ReplayRequest | null } | null = null;
  const onReplay = (event: Event) => {
    start({ wanted: (event as CustomEvent<ReplayRequest>).detail });
  };
  const onLive = () => {
    start({ wanted: null });
  };
  window.addEventListener(REPLAY_EVENT, onReplay);
  window.addEventListener(LIVE_EVENT, onLive);
  const stopHearing = () => {
    window.removeEventListener(REPLAY_EVENT, onReplay);
    window.removeEventListener(LIVE_EVENT, onLive);
  };

  function start(asked: { wanted: ReplayRequest | null } | null): void {
    if (started !== null) return;
    if (asked !== null) request = asked;
    if (starting) return;
    starting = true;
    facade.busy(true);
    loadEngine()
      .then(({ startPlayer }) => {
        if (gone) return;
        // From now on the player hears the page's requests itself.
        stopHearing();
        started = startPlayer(element, mountOptions, () => {
          facade.root.remove();
        });
        started.play(request === null ? preview.replay : request.wanted);
      })
      .catch(() => {
        facade.busy(false);
        facade.say('Le lecteur n’a pas pu se charger. Vérifiez la connexion et réessayez.');
      })
      .finally(() => {
        starting = false;
      });
  }
  const play = () => {
    start(null);
  };
  const facade = createFacade(apiBase, play, () => {
    void loadEngine().catch(() => undefined);
  });
  facade.show(preview);
  shadow.append(facade.root);

  // A residence's card lists its latest episodes; a press on one plays it, before or after the first.
  const episodes =
    embed.format === 'carte' && embed.source.kind === 'residence'
      ? createEpisodeList((episode: PreviewReplay) => {
          if (started === null) start({ wanted: episode });
          else started.play(episode);
        })
      : null;
  const onState = (event: Event) => {
    const state = (event as CustomEvent<{ mode?: string; source?: string }>).detail;
    episodes?.mark(state.mode === 'REPLAY' ? (state.source ?? null) : null);
  };
  if (episodes !== null) {
    shadow.append(episodes.root);
    window.addEventListener(STATE_EVENT, onState);
  }

  void loadPreview(apiBase, embed.source).then((loaded) => {
    preview = loaded;
    if (gone) return;
    if (started === null) facade.show(loaded);
    episodes?.show(loaded.episodes);
    if (started === null && loaded.replay !== null) episodes?.mark(episodeKey(loaded.replay));
  });

  const handle: Active = {
    element,
    unmount: () => {
      if (active !== handle) return;
      active = null;
      gone = true;
      stopHearing();
      window.removeEventListener(STATE_EVENT, onState);
      episodes?.root.remove();
      facade.root.remove();
      started?.unmount();
    },
  };
  active = handle;
  return { unmount: handle.unmount };
}

function withoutUndefined(options: Partial<EmbedOptions>): Partial<EmbedOptions> {
  const result: Partial<EmbedOptions> = {};
  if (options.source !== undefined) result.source = options.source;
  if (options.theme !== undefined) result.theme = options.theme;
  if (options.colour !== undefined) result.colour = options.colour;
  if (options.format !== undefined) result.format = options.format;
  return result;
}
