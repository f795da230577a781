import { apiUrl, configureApiBase, siteConfig } from '@collectif/shared';

/** What a page around the player may set: the site uses the defaults, a partner page passes its own. */
export interface PlayerOptions {
  /** Where the collective's /api lives, e.g. https://radio.example.org/api. */
  apiBase?: string;
  /** The live stream; relative URLs are read against the API's origin. */
  streamUrl?: string;
  /** The chat widget address, `{room}` standing for the room name. */
  chatEmbedUrl?: string;
  chatRoom?: string;
}

interface ResolvedOptions {
  streamUrl: string;
  chatEmbedUrl: string;
  chatRoom: string;
}

const defaults: ResolvedOptions = {
  streamUrl: siteConfig.radio.liveStreamUrl,
  chatEmbedUrl: siteConfig.radio.chatEmbedUrl,
  chatRoom: siteConfig.radio.chatRoom,
};

let current: ResolvedOptions = { ...defaults };

/** Points the player at an API and a stream; options left out go back to the site configuration. */
export function configurePlayer(options: PlayerOptions = {}): void {
  if (options.apiBase !== undefined) configureApiBase(options.apiBase);
  current = {
    streamUrl: options.streamUrl ?? defaults.streamUrl,
    chatEmbedUrl: options.chatEmbedUrl ?? defaults.chatEmbedUrl,
    chatRoom: options.chatRoom ?? defaults.chatRoom,
  };
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
  return resolveMediaUrl(current.streamUrl);
}

export function chatUrl(): string {
  return current.chatEmbedUrl.replace('{room}', encodeURIComponent(current.chatRoom));
}
