import residencesJson from '@collectif/shared/content/residences.json';
import {
  api,
  configureApiBase,
  makeStore,
  type AppStore,
  type Residence,
  type Slide,
  type PodcastItem,
  type Release,
  type ScheduleEvent,
  type EventItem,
} from '@collectif/shared';
import { findResidence } from '@collectif/shared/addresses';
import { residenceSummary } from '@collectif/shared/schemas';
import { cut, json, startFakeServer } from '@collectif/shared/testing';
import slidesJson from '../../content/slides.json';

/**
 * The content the site serves with nothing edited yet (GET /api/content/:kind, seeded from the
 * repository's files; docs/content.md). The residences' descriptions are safe HTML, as the server
 * serves them (the tests' transform sanitises the file as the server does).
 */
export const shippedResidences: readonly Residence[] = residencesJson;
export const shippedSlides: readonly Slide[] = slidesJson;

/** What the fake /api answers unless a test says otherwise: the shipped content. */
const CONTENT: Record<string, FakeHandler> = {
  // With the server's filters (docs/api.md, « Content »): `?id=`, `?view=summary`.
  '/content/residences': (url) => {
    const id = url.searchParams.get('id');
    const found =
      id === null ? shippedResidences : [findResidence(id, shippedResidences)].filter((r) => r !== undefined);
    return { body: url.searchParams.get('view') === 'summary' ? found.map(residenceSummary) : found };
  },
  '/content/slides': () => ({ body: shippedSlides }),
};

/**
 * A store holding the shipped content, as a page's store holds it once loaded: the residences whole
 * and as lists show them, and the residence of each address in `addresses` (none for an unknown one).
 */
export async function storeWithContent(addresses: readonly string[] = []): Promise<AppStore> {
  const store = makeStore();
  await store.dispatch(api.util.upsertQueryData('residences', undefined, [...shippedResidences]));
  await store.dispatch(
    api.util.upsertQueryData('residenceSummaries', undefined, shippedResidences.map(residenceSummary)),
  );
  for (const id of addresses) {
    await store.dispatch(api.util.upsertQueryData('residence', id, findResidence(id, shippedResidences) ?? null));
  }
  await store.dispatch(api.util.upsertQueryData('slides', undefined, [...shippedSlides]));
  return store;
}

/** An answer of the fake /api: a JSON body with a status, or a connection that is cut. */
export type FakeAnswer = { status?: number; body: unknown } | 'network-error';

/** A handler may answer later (a slow upstream), by returning a promise. */
export type FakeHandler = (url: URL) => FakeAnswer | Promise<FakeAnswer>;

export interface FakeApi {
  /** Every request path with its query string, in order. */
  requests: string[];
  /** Every write (not GET or HEAD): its method, path and JSON body (null when none or not JSON), in order. */
  writes: { method: string; path: string; body: unknown }[];
  /** Replaces the handler of a path ('/islive', '/podcasts', …). */
  set: (path: string, handler: FakeHandler) => void;
  close: () => Promise<void>;
}

/**
 * The shared loopback server standing in for /api, and RTK Query pointed at it: components are
 * tested through the network like in the browser, with no module of ours replaced.
 */
export async function startFakeApi(handlers: Record<string, FakeHandler> = {}): Promise<FakeApi> {
  const routes = new Map(Object.entries({ ...CONTENT, ...handlers }));
  const requests: string[] = [];
  const writes: FakeApi['writes'] = [];
  const server = await startFakeServer({
    headers: { 'access-control-allow-origin': '*' },
    fallback: async (request, response) => {
      const url = new URL(request.url, 'http://127.0.0.1');
      const path = url.pathname.replace(/^\/api/, '');
      requests.push(`${path}${url.search}`);
      if (request.method !== 'GET' && request.method !== 'HEAD') {
        let body: unknown = null;
        try {
          body = JSON.parse(request.body);
        } catch {
          // No body, or not JSON: recorded as null.
        }
        writes.push({ method: request.method, path, body });
      }
      const handler = routes.get(path);
      const answer = await (handler
        ? handler(url)
        : { status: 404, body: { error: 'not_found', message: 'Adresse inconnue.' } });
      if (answer === 'network-error') void cut(request, response);
      else void json(answer.body, answer.status ?? 200)(request, response);
    },
  });
  configureApiBase(`${server.origin}/api`);
  return {
    requests,
    writes,
    set: (path, handler) => routes.set(path, handler),
    close: () => server.close(),
  };
}

export function podcast(n: number, artist = `Artiste ${String(n)}`, show = `Émission ${String(n)}`): PodcastItem {
  return {
    trackUrn: `soundcloud:tracks:${String(1000 + n)}`,
    url: `/api/demo/replays/show-${String(n)}.mp3`,
    duration: 3600 + n,
    artist,
    show,
    cover: `/assets/images/covers/show-${String(n)}.webp`,
    link: `https://soundcloud.com/example/show-${String(n)}`,
    pubDate: new Date(Date.UTC(2024, 0, 30 - n)).toUTCString(),
  };
}

export function release(n: number): Release {
  return {
    href: `/album/sortie-${String(n)}`,
    image: `/assets/images/releases/sortie-${String(n)}.webp`,
    title: `Sortie ${String(n)}`,
    artist: n % 2 === 0 ? 'Various Artists' : `Artiste ${String(n)}`,
  };
}

/** A show of /api/schedule: an occurrence from `start` to `end` (UTC instants), a residence's or not. */
export function scheduleEvent(
  id: string,
  title: string,
  start: string,
  end: string,
  residence: string | null = null,
): ScheduleEvent {
  return { id, title, start, end, allDay: false, residence };
}

/** An event of /api/events: a confirmed evening at a Toulouse venue; `over` changes what a test needs. */
export function eventItem(
  slug: string,
  title: string,
  start: string,
  end: string,
  over: Partial<EventItem> = {},
): EventItem {
  return {
    slug,
    title,
    start,
    end,
    allDay: false,
    zone: 'Europe/Paris',
    status: 'confirmed',
    rescheduled: false,
    venue: 'Le Metronum',
    address: '2 rond-point Madame de Mondonville, 31200 Toulouse',
    geo: null,
    tickets: null,
    description: '',
    image: null,
    categories: [],
    lineup: [],
    ...over,
  };
}
