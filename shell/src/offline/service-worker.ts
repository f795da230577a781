/// <reference lib="webworker" />
/**
 * The site's service worker (docs/published.md, « Installable »), compiled by Workbox's
 * InjectManifest into the shell's `sw.js`, with its precache list: the shell's files as every page
 * loads them and the offline page. Served by the site's server at `/sw.js`, scope `/`.
 *
 * - Pages: network first (with navigation preload), kept for a visit without network; when neither
 *   answers, the offline page.
 * - The parts' entries (`remoteEntry.js`, `mf-manifest.json`): network first, the kept copy only
 *   without network, so that a team's deploy reaches an installed visitor at the next visit.
 * - Content-hashed files of every part: cache first (a name never changes content).
 * - The site's pictures: the kept copy, refreshed behind.
 * - Everything else, and anything of the partner embed or of `/api` (the live stream's now-playing
 *   and its channel), audio and video: left to the browser, as if there were no worker.
 */
import { clientsClaim } from 'workbox-core';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import { enable as enableNavigationPreload } from 'workbox-navigation-preload';
import { cleanupOutdatedCaches, PrecacheFallbackPlugin, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst, StaleWhileRevalidate } from 'workbox-strategies';
import type { WorkboxPlugin } from 'workbox-core/types';
import type { PrecacheEntry } from 'workbox-precaching/_types';
import { CACHES, isStorable, KEPT, OFFLINE_PAGE, requestKind, type RequestKind } from './rules';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

const origin = self.location.origin;

// First of the worker's listeners: a request it leaves alone goes on to the network with no other
// listener (Workbox's routes included) seeing it. The embed's pages and their files among them.
self.addEventListener('fetch', (event) => {
  if (requestKind(event.request, origin) === null) event.stopImmediatePropagation();
});

// A new worker (a deploy of the shell) takes over at once: pages are network first and hashed
// files never change, so no open page depends on what the previous worker kept.
void self.skipWaiting();
clientsClaim();
enableNavigationPreload();

// Only the files listed: no `/` → `/index.html`, no `/x` → `/x.html`.
precacheAndRoute(self.__WB_MANIFEST, { directoryIndex: '', cleanURLs: false });
cleanupOutdatedCaches();

const of =
  (kind: RequestKind) =>
  ({ request }: { request: Request }) =>
    requestKind(request, origin) === kind;
const kept = (maxEntries: number) => new ExpirationPlugin({ maxEntries, purgeOnQuotaError: true });
const ok = new CacheableResponsePlugin({ statuses: [200] });
/** A page answered `no-store` or `private` is shown, never kept. */
const storable: WorkboxPlugin = {
  cacheWillUpdate: ({ response }) =>
    Promise.resolve(isStorable(response.headers.get('cache-control')) ? response : null),
};

registerRoute(
  of('page'),
  new NetworkFirst({
    cacheName: CACHES.pages,
    plugins: [ok, storable, kept(KEPT.pages), new PrecacheFallbackPlugin({ fallbackURL: OFFLINE_PAGE })],
  }),
);
registerRoute(of('entry'), new NetworkFirst({ cacheName: CACHES.entries, plugins: [ok, kept(KEPT.entries)] }));
registerRoute(of('hashed'), new CacheFirst({ cacheName: CACHES.hashed, plugins: [ok, kept(KEPT.hashed)] }));
registerRoute(of('image'), new StaleWhileRevalidate({ cacheName: CACHES.images, plugins: [ok, kept(KEPT.images)] }));
