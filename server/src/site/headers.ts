import { createHash } from 'node:crypto';
import type { RadioSettings, RemotesConfig } from '@collectif/shared';

/** A content-hashed name: 32 hex digits (shared/build/webpack.mjs, CONTENT_HASH), 10 for a part built before. */
const HASHED_ASSET = /\.(?:[0-9a-f]{32}|[0-9a-f]{10})\.(js|css|js\.map|css\.map)$/;
/** The build's pre-compressed copies; @fastify/static names the copy it sends, not the file asked for. */
const COMPRESSED_COPY = /\.(br|gz)$/;
/** Files sent as they are, whatever the client accepts (already compressed formats). */
const NEVER_ENCODED = /\.(webp|avif|png|jpe?g|gif|mp3|woff2?)$/;

/**
 * Hashed chunks never change, so they are cached for a year; entry files (index.html, document.json,
 * mf-manifest.json, remoteEntry.js, pages.json, server/remoteEntry.js) keep their names across deploys and are
 * revalidated. The rule is the same for `main.[hash].js` and the `main.[hash].js.br` sent in its place.
 */
export function cacheControlFor(path: string): string {
  const asked = path.replace(COMPRESSED_COPY, '');
  if (HASHED_ASSET.test(asked)) return 'public, max-age=31536000, immutable';
  if (asked.includes('/assets/images/') || asked.includes('/assets/audio/')) return 'public, max-age=86400';
  return 'no-cache';
}

/**
 * Whether the answer depends on Accept-Encoding (brotli, gzip or the file as is): then caches
 * must keep one copy per encoding (`Vary: Accept-Encoding`), or a shared cache could hand a brotli
 * body to a client that cannot read it.
 */
export function variesByEncoding(path: string): boolean {
  return !NEVER_ENCODED.test(path.replace(COMPRESSED_COPY, ''));
}

function origin(url: string): string | null {
  return /^https?:\/\//.test(url) ? new URL(url).origin : null;
}

/**
 * The Content-Security-Policy: exactly what the site loads. Third parties: the Twitch player
 * (script and frames), the calendar and map frames, the chat widget and the live stream of the
 * run-time settings; remotes hosted elsewhere (REMOTES_CONFIG) are added to the script, style and
 * connect sources.
 */
export function contentSecurityPolicy(
  remotes: RemotesConfig,
  radio: RadioSettings,
  editorOrigin: string | null = null,
): Record<string, string[]> {
  const remoteOrigins = [
    ...new Set(
      Object.values(remotes)
        .map(origin)
        .filter((o): o is string => o !== null),
    ),
  ];
  // A remote served by a dev server on http also needs its hot-reload socket.
  const devSockets = remoteOrigins.filter((o) => o.startsWith('http://')).map((o) => o.replace(/^http/, 'ws'));
  const chatOrigin = new URL(radio.chatEmbedUrl.replace('{room}', 'x')).origin;
  const stream = origin(radio.liveStreamUrl);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", 'https://embed.twitch.tv', ...remoteOrigins],
    'style-src': ["'self'", ...remoteOrigins],
    'img-src': ["'self'", 'data:', 'https:'],
    'font-src': ["'self'"],
    // Replays come from the feed's audio hosts and HLS segments are fetched by hls.js.
    'media-src': ["'self'", 'blob:', 'https:', ...(stream === null ? [] : [stream])],
    'connect-src': ["'self'", 'https:', ...remoteOrigins, ...devSockets],
    'worker-src': ["'self'", 'blob:'],
    // 'self': the player's own iframe (/embed/lecteur), previewed by « Intégrer le lecteur ».
    'frame-src': [
      "'self'",
      'https://embed.twitch.tv',
      'https://player.twitch.tv',
      'https://calendar.google.com',
      'https://www.google.com',
      chatOrigin,
    ],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    // The editor's origin frames a public page for its preview (docs/content.md, « Preview »).
    'frame-ancestors': ["'self'", ...(editorOrigin === null ? [] : [editorOrigin])],
  };
}

/**
 * A source expression allowing exactly this text written into a page, a `<style>` or a `<script>`
 * (CSP Level 2 hash).
 */
export function inlineHash(text: string): string {
  return `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;
}

/** A Content-Security-Policy as directives and their sources. */
export type PolicyDirectives = Record<string, string[]>;

/**
 * The policy with these hashes added to a directive: `style-src` for the styles written into a page
 * (render/document.ts, createStyleReader), `script-src` for its loader (shell/src/boot/loader.ts).
 */
export function withHashes(
  directives: PolicyDirectives,
  directive: 'style-src' | 'script-src',
  hashes: readonly string[],
): Record<string, string[]> {
  return { ...directives, [directive]: [...(directives[directive] ?? []), ...hashes] };
}

/** The policy as its header says it. */
export function serializePolicy(directives: Record<string, string[]>): string {
  return Object.entries(directives)
    .map(([name, values]) => `${name} ${values.join(' ')}`)
    .join('; ');
}
