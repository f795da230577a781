import {
  apiUrl,
  configureApiBase,
  eventBehaviour,
  radioSettings,
  type RadioSettings,
  type Rendition,
} from '@collectif/shared';

/**
 * What a page around the player may set: the site uses the radio's run-time settings
 * (`radioSettings`), a partner page may pass its own.
 */
export interface PlayerOptions {
  /** Where the collective's /api lives, e.g. https://radio.example.org/api. */
  apiBase?: string;
  /** The live stream; relative URLs are read against the API's origin. */
  streamUrl?: string;
  /** The chat widget address, `{room}` standing for the room name. */
  chatEmbedUrl?: string;
  chatRoom?: string;
  /**
   * Whether the live can be moved back into the hours the site keeps (docs/player.md, « The
   * timeline »): on the site unless set false; a partner's player only when it asks (docs/embed.md).
   */
  timeline?: boolean;
  /**
   * Whether the player takes the queue's events and keeps a queue (docs/player.md, « The queue »):
   * on the site unless set false; a partner's player only when it asks (docs/embed.md).
   */
  queue?: boolean;
}

type Overrides = Omit<PlayerOptions, 'apiBase'>;

let overrides: Overrides = {};

/** Points the player at an API and a stream; options left out follow the radio's settings. */
export function configurePlayer(options: PlayerOptions = {}): void {
  if (options.apiBase !== undefined) configureApiBase(options.apiBase);
  const { streamUrl, chatEmbedUrl, chatRoom, timeline, queue } = options;
  overrides = { streamUrl, chatEmbedUrl, chatRoom, timeline, queue };
}

function pageUrl(): string {
  return globalThis.location.href;
}

/** The API's own address, absolute: relative URLs it answers with are read against it. */
function apiRoot(): URL {
  return new URL(`${apiUrl('')}/`, pageUrl());
}

const PLAYABLE = new Set(['http:', 'https:', 'blob:']);

/**
 * An absolute URL the audio element may load, or null for anything else (javascript:, data:,
 * garbage): a partner page's script is not trusted to pass good values.
 */
export function resolveMediaUrl(raw: string): string | null {
  const text = raw.trim();
  if (text === '') return null;
  try {
    const url = new URL(text, apiRoot());
    return PLAYABLE.has(url.protocol) ? url.href : null;
  } catch {
    return null;
  }
}

/**
 * The playable address in an answer of GET /api/track/{urn}: one http(s) or site-relative URL and
 * nothing else. An error page or a JSON body served as text (a proxy or a broken upstream) would
 * otherwise be read as a relative address and end as an audio error instead of a clear message.
 */
export function resolveStreamAnswer(raw: unknown): string | null {
  if (typeof raw !== 'string') return null;
  const text = raw.trim();
  if (!/^(https?:\/\/|\/)[^\s<>"{}]*$/i.test(text)) return null;
  return resolveMediaUrl(text);
}

/** An image URL for covers (the page or the system controls), or null. */
export function resolveImageUrl(raw: string | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  const text = raw.trim();
  if (text === '') return null;
  try {
    const url = new URL(text, apiRoot());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
  } catch {
    return null;
  }
}

/** Where this device keeps the listener's « Qualité » (docs/player.md, « Quality »). */
export const QUALITY_KEY = 'collectif:qualite';

/** What the browser says of its connection (the Network Information API, where there is one). */
export interface ConnectionHints {
  saveData?: boolean;
  effectiveType?: string;
}

const SLOW = new Set(['slow-2g', '2g', '3g']);

/**
 * The rendition to play: the one this device chose, when the radio still has it; else the lightest
 * when the browser asks to save data or says its connection is slow; else the normal one (the first).
 */
export function pickRendition(
  renditions: readonly Rendition[],
  stored: string | null,
  hints?: ConnectionHints,
): Rendition | undefined {
  const chosen = renditions.find((rendition) => rendition.id === stored);
  if (chosen !== undefined) return chosen;
  const [normal, ...others] = renditions;
  if (normal === undefined || (hints?.saveData !== true && !SLOW.has(hints?.effectiveType ?? ''))) return normal;
  return others.reduce((light, rendition) => (rendition.bitrate < light.bitrate ? rendition : light), normal);
}

/**
 * The radio's settings as a shell of an older contract may give them (docs/contract.md, 3.2.0):
 * without renditions or timeline, the live stream alone.
 */
const settings = (): Partial<RadioSettings> & Pick<RadioSettings, 'liveStreamUrl'> => radioSettings();

/** The choice kept on this device, or null: anything but a rendition's name is ignored. */
export function storedQuality(): string | null {
  try {
    const value = globalThis.localStorage.getItem(QUALITY_KEY);
    return value !== null && /^[a-z0-9-]{1,32}$/.test(value) ? value : null;
  } catch {
    // Storage refused (private mode, a partner's frame): no choice kept.
    return null;
  }
}

export function rememberQuality(id: string): void {
  try {
    globalThis.localStorage.setItem(QUALITY_KEY, id);
  } catch {
    // Not kept: the choice holds for this page only.
  }
}

/** The rendition this device plays now: its choice, else the one its connection calls for. */
export function currentRendition(): Rendition | undefined {
  const connection = (globalThis.navigator as { connection?: ConnectionHints } | undefined)?.connection;
  return pickRendition(settings().renditions ?? [], storedQuality(), connection);
}

/** Whether a partner's page named its own stream, which then is the only one. */
export function streamOverridden(): boolean {
  return overrides.streamUrl !== undefined;
}

/** The live stream at its edge: a partner's own address, else the chosen rendition's. */
export function liveStreamUrl(): string | null {
  return resolveMediaUrl(overrides.streamUrl ?? currentRendition()?.url ?? radioSettings().liveStreamUrl);
}

/**
 * Whether the live's timeline may be offered: a partner's player that asked for it, else a radio
 * that keeps hours (its settings may still be on their way to a partner's page).
 */
export function timelineOffered(): boolean {
  return overrides.timeline ?? (settings().timeshift?.playlist ?? '') !== '';
}

/**
 * Whether the player keeps a queue: the site's does, a partner's only when it asked; and not under
 * a shell before contract 3.3.0, whose bus knows no queue event (docs/contract.md).
 */
export function queueOffered(): boolean {
  return (overrides.queue ?? true) && 'queue-add' in eventBehaviour;
}

export function chatUrl(): string {
  const settings = radioSettings();
  const room = overrides.chatRoom ?? settings.chatRoom;
  return (overrides.chatEmbedUrl ?? settings.chatEmbedUrl).replace('{room}', encodeURIComponent(room));
}
