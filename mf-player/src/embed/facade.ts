// What a partner page shows before the first play: the player's bar as it will look, drawn with the
// same classes and style sheet as the player itself, in plain DOM. The player (its React, store,
// reconnection and Media Session) is fetched on the first intent to play and takes the bar's place
// (docs/embed.md, « The partner script »).
import type { EmbedSource } from '@collectif/shared/embed';
import { formatTime } from '@collectif/shared/time';
import { DEFAULT_COVER } from '@collectif/shared/tokens';

/** What the bar shows before the first play, and what the play button then asks for. */
export interface Preview {
  artist: string;
  show: string;
  cover: string | null;
  /** The episode to play; null for the live stream. */
  replay: PreviewReplay | null;
  /** Said under the names: why the chosen episode or residence gave way to the live stream. */
  notice: string;
  /** A residence's latest episodes, newest first (the first is `replay`); empty otherwise. */
  episodes: PreviewReplay[];
}

/** How many of a residence's latest episodes the card lists. */
export const RESIDENCE_EPISODES = 4;

/** An episode as /api/episodes answers it: the fields `replay-selected` takes. */
export interface PreviewReplay {
  url: string;
  duration: number;
  artist: string;
  show: string;
  /** '' when the episode has none. */
  cover: string;
  trackUrn?: string;
  /** When it was published (ISO 8601), when known. */
  pubDate?: string;
}

export const LIVE_PREVIEW: Preview = {
  artist: 'Le direct',
  show: 'Radio du collectif, en continu',
  cover: null,
  replay: null,
  notice: '',
  episodes: [],
};

const FETCH_TIMEOUT_MS = 5_000;

function text(value: unknown, fallback: string): string {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : fallback;
}

/** An episode of the API's answer, or null when a field the player needs is not there. */
export function readReplay(data: unknown): PreviewReplay | null {
  if (typeof data !== 'object' || data === null) return null;
  const item = data as Record<string, unknown>;
  if (typeof item.url !== 'string' || item.url === '') return null;
  const duration = typeof item.duration === 'number' && Number.isFinite(item.duration) ? item.duration : 0;
  const replay: PreviewReplay = {
    url: item.url,
    duration,
    artist: text(item.artist, 'Inconnu'),
    show: text(item.show, ''),
    cover: typeof item.cover === 'string' ? item.cover : '',
  };
  if (typeof item.pubDate === 'string') replay.pubDate = item.pubDate;
  if (typeof item.trackUrn === 'string' && item.trackUrn !== '') replay.trackUrn = item.trackUrn;
  return replay;
}

/** The API's answer; null when it says the thing asked for does not exist (404). */
async function getJson(url: string): Promise<unknown> {
  const response = await fetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), credentials: 'omit' });
  if (response.status === 404) return null;
  if (!response.ok) throw new Error(String(response.status));
  return response.json();
}

function replayPreview(replay: PreviewReplay, apiBase: string, episodes: PreviewReplay[] = []): Preview {
  return {
    artist: replay.artist,
    show: replay.show,
    cover: replay.cover === '' ? null : new URL(replay.cover, `${apiBase}/`).href,
    replay,
    notice: '',
    episodes,
  };
}

/**
 * What to show for `source`, asked of the API. An episode or residence that the API does not know
 * (or cannot answer for) gives way to the live stream, with a sentence saying so: the partner's
 * page always has something to play.
 */
export async function loadPreview(apiBase: string, source: EmbedSource): Promise<Preview> {
  if (source.kind === 'direct') {
    try {
      const now = ((await getJson(`${apiBase}/nowplaying`)) ?? {}) as Record<string, unknown>;
      return {
        ...LIVE_PREVIEW,
        artist: text(now.artist, LIVE_PREVIEW.artist),
        show: text(now.title, LIVE_PREVIEW.show),
        cover: typeof now.cover === 'string' && now.cover !== '' ? new URL(now.cover, `${apiBase}/`).href : null,
      };
    } catch {
      return LIVE_PREVIEW;
    }
  }
  try {
    if (source.kind === 'episode') {
      const replay = readReplay(await getJson(`${apiBase}/episodes/${encodeURIComponent(source.slug)}`));
      if (replay !== null) return replayPreview(replay, apiBase);
      return { ...LIVE_PREVIEW, notice: 'Épisode introuvable : voici le direct.' };
    }
    const page = (await getJson(`${apiBase}/episodes?residence=${encodeURIComponent(source.id)}`)) as {
      items?: unknown[];
    } | null;
    const episodes = (page?.items ?? [])
      .slice(0, RESIDENCE_EPISODES)
      .map(readReplay)
      .filter((item): item is PreviewReplay => item !== null);
    const [replay] = episodes;
    if (replay !== undefined) return replayPreview(replay, apiBase, episodes);
    return { ...LIVE_PREVIEW, notice: 'Cette résidence n’a pas encore d’épisode : voici le direct.' };
  } catch {
    const what = source.kind === 'episode' ? 'L’épisode' : 'La résidence';
    return { ...LIVE_PREVIEW, notice: `${what} ne répond pas pour le moment : voici le direct.` };
  }
}

const SVG_NS = 'http://www.w3.org/2000/svg';
const PLAY_PATH = 'M8 5.14v13.72a1 1 0 0 0 1.5.86l11-6.86a1 1 0 0 0 0-1.72l-11-6.86A1 1 0 0 0 8 5.14Z';

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  className: string,
  content?: string,
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (className !== '') node.className = className;
  if (content !== undefined) node.textContent = content;
  return node;
}

function playIcon(): SVGSVGElement {
  const svg = document.createElementNS(SVG_NS, 'svg');
  const attributes: [string, string][] = [
    ['width', '20'],
    ['height', '20'],
    ['viewBox', '0 0 24 24'],
    ['aria-hidden', 'true'],
    ['focusable', 'false'],
  ];
  for (const [name, value] of attributes) svg.setAttribute(name, value);
  const path = document.createElementNS(SVG_NS, 'path');
  path.setAttribute('fill', 'currentColor');
  path.setAttribute('d', PLAY_PATH);
  svg.append(path);
  return svg;
}

export interface Facade {
  readonly root: HTMLElement;
  /** Shows what `preview` says. */
  show(preview: Preview): void;
  /** Shows a sentence in the bar's status line (the player failing to load). */
  say(message: string): void;
  /** While the player loads after a press: « chargement ... », as the player says it. */
  busy(loading: boolean): void;
}

/**
 * The bar before the first play: the live dot or the elapsed time, the cover, the play button
 * (« Lecture »), the names, and for an episode its length. `onPlay` runs on a press; `onIntent` when
 * a press is likely (pointer over it, focus, a touch), to fetch the player ahead.
 */
export function createFacade(apiBase: string, onPlay: () => void, onIntent: () => void): Facade {
  // What the player shows when what plays has no cover of its own.
  const defaultCover = new URL(DEFAULT_COVER, `${apiBase}/`).href;
  const section = element('section', 'player player--open player--live');
  section.setAttribute('aria-label', 'Lecteur radio');
  const bar = element('div', 'player__bar');
  const start = element('div', 'player__start');
  const cover = element('img', 'player__cover');
  cover.alt = '';
  cover.width = 44;
  cover.height = 44;
  const button = element('button', 'player__button player__button--main');
  button.type = 'button';
  button.setAttribute('aria-label', 'Lecture');
  button.append(playIcon());
  const centre = element('div', 'player__centre');
  const titles = element('div', 'player__titles');
  const artist = element('p', 'player__artist');
  const show = element('p', 'player__show');
  const loading = element('p', 'player__loading', 'chargement ...');
  loading.hidden = true;
  const message = element('p', 'player__message');
  message.setAttribute('role', 'status');
  // Where the replay's slider will be: it keeps the times at the ends of their row.
  const progress = element('div', 'player__progress');
  const remaining = element('span', 'player__time player__time--remaining');
  titles.append(artist, show);
  centre.append(titles, loading, message);
  bar.append(start, cover, button, centre, progress, remaining);
  section.append(bar);

  // A press anywhere on the bar plays, as the player's own bar opens or closes on a press.
  bar.addEventListener('click', onPlay);
  for (const name of ['pointerenter', 'focusin', 'touchstart'] as const) {
    bar.addEventListener(name, onIntent, { once: true, passive: true });
  }

  return {
    root: section,
    show(preview) {
      const live = preview.replay === null;
      section.className = `player player--open ${live ? 'player--live' : 'player--replay'}`;
      if (live) {
        const dot = element('span', 'player__live');
        dot.append(element('span', 'player__dot'), element('span', 'visually-hidden', 'En direct'));
        dot.firstElementChild?.setAttribute('aria-hidden', 'true');
        start.replaceChildren(dot);
        remaining.replaceChildren();
        remaining.hidden = true;
        progress.hidden = true;
      } else {
        start.replaceChildren(element('span', 'player__time', '0:00'));
        remaining.hidden = false;
        progress.hidden = false;
        remaining.replaceChildren(
          element('span', 'visually-hidden', 'Temps restant : '),
          document.createTextNode(`-${formatTime(preview.replay?.duration ?? 0)}`),
        );
      }
      cover.src = preview.cover ?? defaultCover;
      artist.textContent = preview.artist;
      show.textContent = preview.show;
      message.textContent = preview.notice;
    },
    say(text) {
      message.textContent = text;
    },
    busy(isLoading) {
      loading.hidden = !isLoading;
      button.disabled = isLoading;
    },
  };
}

const DAY = new Intl.DateTimeFormat('fr-FR', { day: 'numeric', month: 'short', timeZone: 'Europe/Paris' });

/** What `player-state` names an episode by: its `trackUrn`, else its `url`. */
export function episodeKey(episode: PreviewReplay): string {
  return episode.trackUrn ?? episode.url;
}

export interface EpisodeList {
  readonly root: HTMLElement;
  show(episodes: readonly PreviewReplay[]): void;
  /** Marks the episode playing (by its key), or none. */
  mark(key: string | null): void;
}

/**
 * A residence's latest episodes under the card, each a button that plays it: « Synapses #11 ·
 * 28 oct. », the one playing marked (`aria-current`). Shown only when there is more than one.
 */
export function createEpisodeList(onPick: (episode: PreviewReplay) => void): EpisodeList {
  const section = element('section', 'collectif-embed__episodes');
  section.setAttribute('aria-label', 'Derniers épisodes');
  const list = element('ol', '');
  section.append(list);
  section.hidden = true;
  let buttons: [string, HTMLButtonElement][] = [];
  return {
    root: section,
    show(episodes) {
      buttons = episodes.map((episode) => {
        const button = element('button', 'collectif-embed__episode');
        button.type = 'button';
        const date = episode.pubDate === undefined ? Number.NaN : Date.parse(episode.pubDate);
        button.append(element('span', 'collectif-embed__title', episode.show === '' ? episode.artist : episode.show));
        if (!Number.isNaN(date)) button.append(element('span', 'collectif-embed__date', DAY.format(date)));
        button.addEventListener('click', () => {
          onPick(episode);
        });
        return [episodeKey(episode), button];
      });
      list.replaceChildren(
        ...buttons.map(([, button]) => {
          const item = element('li', '');
          item.append(button);
          return item;
        }),
      );
      section.hidden = episodes.length < 2;
    },
    mark(key) {
      for (const [own, button] of buttons) {
        if (own === key) button.setAttribute('aria-current', 'true');
        else button.removeAttribute('aria-current');
      }
    },
  };
}
