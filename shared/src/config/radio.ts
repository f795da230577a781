import * as v from 'valibot';
import site from '../../config/site.json';
import { RENDITIONS, STREAM_URL, renditionSchema } from '../schemas/content.mjs';

/** One mount of the radio (docs/settings.md, « The radio »): the player's « Qualité » choices. */
export interface Rendition {
  /** A name: lower-case letters, digits, hyphens; the timeline's folder (`/direct/<id>/`). */
  id: string;
  /** What the player shows (« Normale », « Économe »). */
  label: string;
  /** The MP3 stream: an https address, or a path of the site. */
  url: string;
  /** In kb/s. */
  bitrate: number;
  codec: 'mp3';
}

/** The live's timeline (docs/settings.md, « Listening back »). */
export interface Timeshift {
  /** The multivariant playlist's address (`/direct/live.m3u8`); '' when the radio keeps no window. */
  playlist: string;
  /** The hours of the live kept; 0 when off. */
  hours: number;
}

/**
 * The radio's settings an operator changes without a build: the live stream and its other mounts,
 * the timeline of the last hours, the chat and the Twitch channel. The site server reads them at
 * start-up (site.json's values by default), writes them into every page and answers them at
 * GET {apiBase}/radio for the player on partner sites (docs/contract.md).
 */
export interface RadioSettings {
  liveStreamUrl: string;
  chatEmbedUrl: string;
  chatRoom: string;
  twitchChannel: string;
  /** The mounts, the normal one first: its `url` is `liveStreamUrl`. */
  renditions: Rendition[];
  timeshift: Timeshift;
  /** Since contract 3.3 (docs/support.md): where « Nous soutenir » leads. */
  support: SupportLinks;
}

/** Where « Nous soutenir » leads (docs/support.md): the site's page, or the external one. */
export interface SupportLinks {
  /** `/soutenir` while HelloAsso takes payments on the site; '' when an admin turned it off. */
  page: string;
  /** The collective's external support page (site.json's links.donation). */
  external: string;
}

/** The page that supports the collective on the site. */
export const SUPPORT_PAGE = '/soutenir';

/** The settings' text fields. */
export const RADIO_SETTINGS_FIELDS = ['liveStreamUrl', 'chatEmbedUrl', 'chatRoom', 'twitchChannel'] as const;

/** Id of the `<script type="application/json">` the server writes into every page. */
export const RADIO_SETTINGS_ID = 'radio-config';

/** Path of the settings under the API base. */
export const RADIO_SETTINGS_PATH = '/radio';

/** The multivariant playlist of the timeline, when the radio keeps one (docs/settings.md, « Listening back »). */
export const TIMESHIFT_PLAYLIST = '/direct/live.m3u8';

/** The most hours LIVE_TIMESHIFT_HOURS accepts. */
export const TIMESHIFT_HOURS_MAX = 48;

export const RENDITIONS_MAX = RENDITIONS.max;

/** The timeline when the radio keeps none. */
export const NO_TIMESHIFT: Timeshift = { playlist: '', hours: 0 };

/** The one mount a radio has when it names no other: its live stream, « Normale ». */
export function normalRendition(url: string, bitrate = 128): Rendition {
  return { id: 'normale', label: 'Normale', url, bitrate, codec: 'mp3' };
}

const FETCH_TIMEOUT_MS = 5000;

/**
 * The renditions in `data`, defensively: a malformed one is dropped, a name given twice keeps its
 * first, at most RENDITIONS_MAX. Unless the first is `liveStreamUrl` (an older answer has none), the
 * live stream alone, « Normale ».
 */
export function parseRenditions(data: unknown, liveStreamUrl: string): Rendition[] {
  const list = Array.isArray(data) ? (data as unknown[]) : [];
  const kept: Rendition[] = [];
  for (const entry of list.slice(0, RENDITIONS_MAX * 4)) {
    const checked = v.safeParse(renditionSchema, entry);
    if (!checked.success || kept.some((rendition) => rendition.id === checked.output.id)) continue;
    kept.push({ ...checked.output });
    if (kept.length === RENDITIONS_MAX) break;
  }
  return kept[0]?.url === liveStreamUrl ? kept : [normalRendition(liveStreamUrl)];
}

/** The timeline in `data`, defensively: off unless both the playlist's address and hours are sound. */
export function parseTimeshift(data: unknown): Timeshift {
  if (typeof data !== 'object' || data === null) return { ...NO_TIMESHIFT };
  const { playlist, hours } = data as Record<string, unknown>;
  if (typeof playlist !== 'string' || playlist === '' || playlist.length > 2048 || !STREAM_URL.test(playlist)) {
    return { ...NO_TIMESHIFT };
  }
  if (typeof hours !== 'number' || !Number.isFinite(hours) || hours <= 0 || hours > TIMESHIFT_HOURS_MAX) {
    return { ...NO_TIMESHIFT };
  }
  return { playlist, hours };
}

/**
 * The links in `data`, defensively: the page is `/soutenir` or none, the external link an https
 * address; an older page without them (or a broken one) gives site.json's external link alone.
 */
export function parseSupportLinks(data: unknown): SupportLinks {
  const fallback: SupportLinks = { page: '', external: site.links.donation };
  if (typeof data !== 'object' || data === null) return fallback;
  const { page, external } = data as Record<string, unknown>;
  return {
    page: page === SUPPORT_PAGE ? SUPPORT_PAGE : '',
    external:
      typeof external === 'string' && external.length <= 2048 && /^https:\/\/[^\s"'<>]+$/.test(external)
        ? external
        : site.links.donation,
  };
}

const defaults: RadioSettings = {
  liveStreamUrl: site.radio.liveStreamUrl,
  chatEmbedUrl: site.radio.chatEmbedUrl,
  chatRoom: site.radio.chatRoom,
  twitchChannel: site.radio.twitchChannel,
  renditions: parseRenditions(site.radio.renditions, site.radio.liveStreamUrl),
  timeshift: { ...NO_TIMESHIFT },
  support: parseSupportLinks(null),
};

/** site.json's settings, a copy. */
const copyOfDefaults = (): RadioSettings => ({
  ...defaults,
  renditions: defaults.renditions.map((rendition) => ({ ...rendition })),
  timeshift: { ...defaults.timeshift },
  support: { ...defaults.support },
});

let current: RadioSettings | null = null;
let pending: Promise<RadioSettings> | null = null;
let generation = 0;

/**
 * The settings in `data` (the page's or the API's): each non-empty text field is taken, anything
 * else keeps site.json's value (all of them when `data` is no object). The server has checked them
 * already; the renditions and the timeline are read defensively, an older answer without them
 * giving the live stream alone and no timeline (docs/contract.md).
 */
export function parseRadioSettings(data: unknown): RadioSettings {
  const result = copyOfDefaults();
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return result;
  const record = data as Record<string, unknown>;
  for (const field of RADIO_SETTINGS_FIELDS) {
    const value: unknown = record[field];
    if (typeof value === 'string' && value.trim() !== '') result[field] = value.trim();
  }
  result.renditions = parseRenditions(record.renditions, result.liveStreamUrl);
  result.timeshift = parseTimeshift(record.timeshift);
  result.support = parseSupportLinks(record.support);
  return result;
}

function fromPage(): RadioSettings {
  if (typeof document === 'undefined') return copyOfDefaults();
  const text = document.getElementById(RADIO_SETTINGS_ID)?.textContent ?? '';
  if (text === '') return copyOfDefaults();
  try {
    return parseRadioSettings(JSON.parse(text));
  } catch {
    console.warn(`Réglages de la radio illisibles (#${RADIO_SETTINGS_ID}) : valeurs par défaut du site`);
    return copyOfDefaults();
  }
}

/**
 * The radio's settings, for every part that needs the live stream, the chat or the Twitch channel.
 * Read once from the page the server wrote; without it (a part's own dev page), site.json's.
 */
export function radioSettings(): RadioSettings {
  current ??= fromPage();
  return current;
}

/**
 * For the player on a partner site, whose page says nothing about the radio: fetches the settings
 * from the API (GET {apiBase}/radio). Until they arrive, and when the API fails, site.json's apply.
 */
export function loadRadioSettings(url: string): Promise<RadioSettings> {
  generation += 1;
  const mine = generation;
  current ??= copyOfDefaults();
  const done = fetch(url, { credentials: 'omit', signal: AbortSignal.timeout(FETCH_TIMEOUT_MS) })
    .then(async (response) => {
      if (!response.ok) throw new Error(`${url} : ${String(response.status)}`);
      return parseRadioSettings(await response.json());
    })
    .catch((error: unknown) => {
      console.warn('Réglages de la radio indisponibles, valeurs par défaut du site :', error);
      return copyOfDefaults();
    })
    .then((settings) => {
      if (mine !== generation) return radioSettings();
      current = settings;
      pending = null;
      return settings;
    });
  pending = done;
  return done;
}

/** Resolves once the settings being fetched (if any) have arrived: the player waits before playing live. */
export function radioSettingsReady(): Promise<RadioSettings> {
  return pending ?? Promise.resolve(radioSettings());
}

/** Forgets what was read, so the next call reads the page again (tests). */
export function resetRadioSettings(): void {
  generation += 1;
  current = null;
  pending = null;
}
