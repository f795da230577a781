import { apiUrl, configureApiBase, radioSettings } from '@collectif/shared';

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
}

type Overrides = Omit<PlayerOptions, 'apiBase'>;

let overrides: Overrides = {};

/** Points the player at an API and a stream; options left out follow the radio's settings. */
export function configurePlayer(options: PlayerOptions = {}): void {
  if (options.apiBase !== undefined) configureApiBase(options.apiBase);
  const { streamUrl, chatEmbedUrl, chatRoom } = options;
  overrides = { streamUrl, chatEmbedUrl, chatRoom };
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

export function liveStreamUrl(): string | null {
  return resolveMediaUrl(overrides.streamUrl ?? radioSettings().liveStreamUrl);
}

export function chatUrl(): string {
  const settings = radioSettings();
  const room = overrides.chatRoom ?? settings.chatRoom;
  return (overrides.chatEmbedUrl ?? settings.chatEmbedUrl).replace('{room}', encodeURIComponent(room));
}
