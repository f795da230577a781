/*
 * What the service worker shows of a push message (docs/follow.md, « Me prévenir »): the site's
 * server sends `{ v: 1, kind, title, body, url, icon?, tag }`; anything else shows nothing. Pure, so
 * that jest reads it without a worker.
 */

/** A notification to show, as the message gave it, checked. */
export interface PushNote {
  kind: 'live' | 'replay';
  title: string;
  body: string;
  url: string;
  icon?: string;
  tag: string;
}

/** A push message is a few hundred bytes; a longer text is not read at all. */
const TEXT_MAX = 4096;
const KEYS = new Set(['v', 'kind', 'title', 'body', 'url', 'icon', 'tag']);

const text = (value: unknown, max: number, min = 1): value is string =>
  typeof value === 'string' && value.length >= min && value.length <= max;

/**
 * A path of the site's own origin: starting with one `/` (not `//host`, nor `/\host`, which a URL
 * reads as another host), without control characters, and still on `origin` once resolved.
 */
export function sitePath(value: unknown, origin: string): value is string {
  if (!text(value, 2048) || !value.startsWith('/') || /^\/[/\\]/.test(value)) return false;
  // eslint-disable-next-line no-control-regex -- control characters are what this refuses
  if (/[\u0000-\u001f\u007f\\]/.test(value)) return false;
  try {
    return new URL(value, origin).origin === origin;
  } catch {
    return false;
  }
}

/** The notification a push message's text asks for, or null: not JSON, another shape or version, a foreign address, text too long. */
export function readPushMessage(data: string | null, origin: string): PushNote | null {
  if (data === null || data.length > TEXT_MAX) return null;
  let message: unknown;
  try {
    message = JSON.parse(data);
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null || Array.isArray(message)) return null;
  const fields = message as Record<string, unknown>;
  if (Object.keys(fields).some((key) => !KEYS.has(key))) return null;
  const { v, kind, title, body, url, icon, tag } = fields;
  if (v !== 1 || (kind !== 'live' && kind !== 'replay')) return null;
  if (!text(title, 120) || !text(body, 240, 0) || !text(tag, 64)) return null;
  if (!sitePath(url, origin) || (icon !== undefined && !sitePath(icon, origin))) return null;
  return { kind, title, body, url, tag, ...(icon === undefined ? {} : { icon }) };
}

/** Where a click on a notification goes: its `data.url` when it is a path of the site, the home otherwise. */
export function notificationTarget(data: unknown, origin: string): string {
  const url = (data as { url?: unknown } | null)?.url;
  return new URL(sitePath(url, origin) ? url : '/', origin).href;
}
