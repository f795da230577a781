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
