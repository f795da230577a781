import { createHash } from 'node:crypto';
import type { RemotesConfig } from '@collectif/shared';
import type { RadioSettings } from '@collectif/shared/config';
import type { DocumentModel } from './document';

// The pages' Content-Security-Policy (docs/rendering.md, « The document »): the site's, and each
// page's made from its model.

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
 * (inline-assets.ts, `createStyleReader`), `script-src` for its loader (shell/src/boot/loader.ts).
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

/**
 * The page's policy: the site's (or the frame's), with the hash of each sheet written into it in
 * `style-src` and the loader's in `script-src`, from the model, never by reading the HTML.
 */
export function documentPolicy(model: DocumentModel, base: PolicyDirectives): string {
  const styles = [...new Set(model.sheets.flatMap(({ css }) => (css === null ? [] : [inlineHash(css)])))];
  const withStyles = withHashes(base, 'style-src', styles);
  return serializePolicy(
    model.loader === null ? withStyles : withHashes(withStyles, 'script-src', [model.loader.hash]),
  );
}
