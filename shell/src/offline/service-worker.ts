/// <reference lib="webworker" />
/**
 * The site's service worker (docs/published.md, « Installable »), compiled by Workbox's
 * InjectManifest into the shell's `sw.js`, with its precache list: the shell's files as every page
 * loads them and the offline page, each with its digest. Served by the site's server at `/sw.js`,
 * scope `/`.
 *
 * - Pages: network first (with navigation preload), kept for a visit without network, where they are
 *   shown without running anything; when neither answers, the offline page.
 * - Content-hashed files of every part: cache first (a name never changes content), once the kept
 *   copy is checked against its name.
 * - The precache: each file checked against the digest this script carries.
 * - The site's pictures: network first (the browser's cache answers within its day), the kept copy
 *   without network.
 * - Everything else, the parts' entries, anything of the partner embed or of `/api` (the live
 *   stream's now-playing and its channel), audio and video: left to the browser, as if there were no
 *   worker.
 *
 * « Me prévenir » (docs/follow.md): a push message of the site's server, read strictly, is shown as a
 * notification; a click on it focuses a page of the site already open (taken to its address) or opens one.
 * The subscription is renewed on the server about once a month, and moved to the new one when the
 * browser replaces it (renew.ts, docs/push.md « Renewal »).
 *
 * Any script of the site's origin can write these caches: nothing is answered from them that such a
 * script could have forged and that runs (docs/published.md, « What a page's script cannot forge »).
 */
import { cacheNames, clientsClaim } from 'workbox-core';
import { CacheableResponsePlugin } from 'workbox-cacheable-response';
import { ExpirationPlugin } from 'workbox-expiration';
import { enable as enableNavigationPreload } from 'workbox-navigation-preload';
import { addPlugins, cleanupOutdatedCaches, getCacheKeyForURL, precacheAndRoute } from 'workbox-precaching';
import { registerRoute } from 'workbox-routing';
import { CacheFirst, NetworkFirst } from 'workbox-strategies';
import type { WorkboxPlugin } from 'workbox-core/types';
import type { PrecacheEntry } from 'workbox-precaching/_types';
import { notificationTarget, readPushMessage } from './push';
import { moveSubscription, renewIfDue, RENEWED_KEY, type Renewal } from './renew';
import { fileAnswer, keptPageAnswer, matchesIntegrity, matchesName, nameHash, offlineNotice } from './integrity';
import {
  CACHES,
  isStorable,
  KEPT,
  OFFLINE_PAGE,
  PAGE_TABLE_KEY,
  pageTableText,
  requestKind,
  RETIRED_CACHES,
  type RequestKind,
} from './rules';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: (PrecacheEntry | string)[] };

const origin = self.location.origin;
const manifest = self.__WB_MANIFEST;
/** Each precached file's digest (`sha256-…`), by its path, as the build wrote it into this script. */
const precacheDigests = new Map(
  manifest.flatMap((entry) =>
    typeof entry === 'string' || entry.integrity === undefined
      ? []
      : [[new URL(entry.url, origin).pathname, entry.integrity] as const],
  ),
);

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
self.addEventListener('activate', (event) => {
  event.waitUntil(Promise.all(RETIRED_CACHES.map((name) => caches.delete(name))));
  // Not waited for: the pages' requests wait until the worker is active.
  void renewSubscription();
});

// The table of pages a page of the site sends at each visit (register.ts), kept for the offline
// page's links; a message of another shape, or from elsewhere, is ignored.
self.addEventListener('message', (event) => {
  const table = event.origin === origin ? pageTableText(event.data) : null;
  if (table === null) return;
  event.waitUntil(
    caches
      .open(CACHES.offline)
      .then((cache) =>
        cache.put(PAGE_TABLE_KEY, new Response(table, { headers: { 'content-type': 'application/json' } })),
      )
      .catch(() => undefined),
  );
});

// Only the files listed: no `/` → `/index.html`, no `/x` → `/x.html`.
precacheAndRoute(manifest, { directoryIndex: '', cleanURLs: false });
cleanupOutdatedCaches();

/**
 * Answers a kept file only when `isGenuine` says it is the file its path names, with the worker's own
 * headers; a copy that is not is dropped, and the strategy asks the network for the file.
 */
function checkedBy(isGenuine: (path: string, body: ArrayBuffer) => Promise<boolean>): WorkboxPlugin {
  return {
    cachedResponseWillBeUsed: async ({ cacheName, request, cachedResponse, event }) => {
      if (cachedResponse === undefined) return null;
      const path = new URL(request.url).pathname;
      const body = await cachedResponse.arrayBuffer();
      if (await isGenuine(path, body)) return fileAnswer(path, body);
      await (await caches.open(cacheName)).delete(request);
      if (cacheName === cacheNames.precache) event.waitUntil(checkPrecache());
      return null;
    },
  };
}

let checking: Promise<void> | null = null;
/** When the precache was last found whole; 0 while a file is missing or was found forged. */
let checkedAt = 0;
/**
 * Checks every precached file against its digest, and fetches again, checked by the browser against
 * that digest, one that is missing or is not its file: the offline page's script, asked for without
 * CORS, is not put back by Workbox itself, and the offline page is only asked for without network.
 */
function checkPrecache(): Promise<void> {
  checking ??= (async () => {
    const cache = await caches.open(cacheNames.precache);
    let whole = true;
    for (const [path, integrity] of precacheDigests) {
      const key = getCacheKeyForURL(path);
      if (key === undefined) continue;
      const kept = await cache.match(key);
      if (kept !== undefined && (await matchesIntegrity(integrity, await kept.arrayBuffer()))) continue;
      try {
        const response = await fetch(path, { integrity, cache: 'no-cache' });
        if (response.ok) await cache.put(key, response);
        else whole = false;
      } catch {
        // Without network, or the live shell is another one (its own worker precaches its files).
        whole = false;
      }
    }
    checkedAt = whole ? Date.now() : 0;
  })().finally(() => {
    checking = null;
  });
  return checking;
}
/** After a page came from the network: the precache checked again, once a minute at most while whole. */
const checkPrecacheAfterVisit: WorkboxPlugin = {
  cacheDidUpdate: ({ event }) => {
    if (Date.now() - checkedAt > 60_000) event.waitUntil(checkPrecache());
    return Promise.resolve();
  },
};

addPlugins([checkedBy((path, body) => matchesIntegrity(precacheDigests.get(path), body))]);

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
/** A kept page, answered without network: its HTML has no name to check, so nothing in it runs. */
const inert: WorkboxPlugin = {
  cachedResponseWillBeUsed: async ({ cachedResponse }) =>
    cachedResponse === undefined ? null : keptPageAnswer(await cachedResponse.arrayBuffer()),
};
/** A kept picture, answered without network, with the worker's own headers. */
const asPicture: WorkboxPlugin = {
  cachedResponseWillBeUsed: async ({ request, cachedResponse }) =>
    cachedResponse === undefined ? null : fileAnswer(new URL(request.url).pathname, await cachedResponse.arrayBuffer()),
};
/** Neither network nor a kept page: the offline page, checked as every precached file is. */
const offlinePage: WorkboxPlugin = {
  handlerDidError: async () => {
    const key = getCacheKeyForURL(OFFLINE_PAGE);
    const cache = await caches.open(cacheNames.precache);
    const precached = key === undefined ? undefined : await cache.match(key);
    if (key !== undefined && precached !== undefined) {
      const body = await precached.arrayBuffer();
      if (await matchesIntegrity(precacheDigests.get(OFFLINE_PAGE), body)) return fileAnswer(OFFLINE_PAGE, body);
      await cache.delete(key);
    }
    // Put back at the next page that comes from the network.
    checkedAt = 0;
    return offlineNotice();
  },
};

registerRoute(
  of('page'),
  new NetworkFirst({
    cacheName: CACHES.pages,
    plugins: [ok, storable, kept(KEPT.pages), inert, checkPrecacheAfterVisit, offlinePage],
  }),
);
registerRoute(
  of('hashed'),
  new CacheFirst({
    cacheName: CACHES.hashed,
    plugins: [
      ok,
      kept(KEPT.hashed),
      checkedBy(async (path, body) => {
        const hash = nameHash(path);
        return hash !== null && (await matchesName(hash, body));
      }),
    ],
  }),
);
registerRoute(of('image'), new NetworkFirst({ cacheName: CACHES.images, plugins: [ok, kept(KEPT.images), asPicture] }));

/** The worker's memory of its last renewal, in the offline cache; forged, it only moves that date. */
const renewal: Renewal = {
  fetch: (path, init) => fetch(path, init),
  async last() {
    const kept = await (await caches.open(CACHES.offline)).match(RENEWED_KEY);
    const at = Number(await kept?.text());
    return Number.isSafeInteger(at) && at > 0 ? at : null;
  },
  async remember(at) {
    await (await caches.open(CACHES.offline)).put(RENEWED_KEY, new Response(String(at)));
  },
  now: () => Date.now(),
};

/** This browser's subscription renewed on the server when a month has passed (renew.ts). */
async function renewSubscription(): Promise<void> {
  const subscription = await self.registration.pushManager.getSubscription().catch(() => null);
  await renewIfDue(subscription, renewal).catch(() => undefined);
}

// The browser replaced the subscription (its push service's doing): the server moves it, choices and all.
self.addEventListener('pushsubscriptionchange', (event) => {
  const { oldSubscription, newSubscription } = event;
  const moving = (async () => {
    const next =
      newSubscription ??
      (oldSubscription === null
        ? null
        : await self.registration.pushManager.subscribe(oldSubscription.options).catch(() => null));
    await moveSubscription(oldSubscription, next, renewal);
  })().catch(() => undefined);
  event.waitUntil(moving);
});

self.addEventListener('push', (event) => {
  event.waitUntil(renewSubscription());
  const note = readPushMessage(event.data?.text() ?? null, origin);
  if (note === null) return;
  const options: NotificationOptions = { body: note.body, tag: note.tag, lang: 'fr', data: { url: note.url } };
  if (note.icon !== undefined) options.icon = note.icon;
  event.waitUntil(self.registration.showNotification(note.title, options));
});

/** A page of the site already open, focused and taken to `url`; otherwise a new one. */
async function openSite(url: string): Promise<void> {
  const open = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const page = open.find((client) => new URL(client.url).origin === origin);
  if (page !== undefined) {
    // Focus may be refused (no click to answer); the page is still taken there.
    const focused = await page.focus().catch(() => page);
    // Only a page this worker controls can be navigated; another gets a window of its own.
    if ((await focused.navigate(url).catch(() => null)) !== null) return;
  }
  await self.clients.openWindow(url);
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  // Started before waitUntil, which refuses an event the page made up (the browser tests dispatch one).
  const opening = openSite(notificationTarget(event.notification.data, origin));
  event.waitUntil(opening);
});
